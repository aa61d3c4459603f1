// The search for the commits behind a change as the comment shows it: a line under each changed
// row it followed ("↳ came with `3f2c1ab Use a map for lookups` (+9.1%)") and a collapsed
// per-commit table. Every string is escaped for its place (commit subjects come from the pull
// request's code, like benchmark names).
#pragma once

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "benchpr/core/model/model.hpp"

namespace benchpr::render {

struct BisectRowView {
  std::string commit;              // code span "3f2c1ab subject"
  std::vector<std::string> cells;  // one per benchmark followed
};

struct BisectView {
  bool present = false;
  std::string summary;               // how the search went
  std::vector<std::string> headers;  // the benchmarks followed, as code spans
  std::vector<BisectRowView> rows;   // one per commit of the chain after the base
  // (suite, name) of a changed row -> the line under it.
  std::map<std::pair<std::string, std::string>, std::string> lines;
};

// Empty (present = false) when the results hold no search.
BisectView make_bisect_view(const Results& results);

}  // namespace benchpr::render
