#include "benchpr/core/identical_programs.hpp"

#include <algorithm>
#include <map>
#include <utility>

namespace benchpr {

std::vector<std::string> identical_suites(const std::vector<ProgramImage>& images) {
  std::vector<std::string> order;
  // Per suite, per side: path -> digest; and whether any program cannot count.
  struct Sides {
    std::map<std::string, std::string> base, head;
    bool disqualified = false;
  };
  std::map<std::string, Sides> by_suite;
  for (const ProgramImage& x : images) {
    auto [it, added] = by_suite.try_emplace(x.suite);
    if (added) order.push_back(x.suite);
    Sides& s = it->second;
    if (!x.loaded_image || x.digest.empty()) s.disqualified = true;
    auto& side = x.side == Side::Base ? s.base : s.head;
    // The same path twice on one side with two digests cannot be one program.
    if (auto [at, fresh] = side.try_emplace(x.path, x.digest); !fresh && at->second != x.digest)
      s.disqualified = true;
  }
  std::vector<std::string> out;
  for (const std::string& suite : order) {
    const Sides& s = by_suite.at(suite);
    if (s.disqualified || s.base.empty() || s.base != s.head) continue;
    out.push_back(suite);
  }
  return out;
}

bool is_identical_suite(const Results& results, std::string_view suite) {
  return std::find(results.identical_suites.begin(), results.identical_suites.end(), suite) !=
         results.identical_suites.end();
}

}  // namespace benchpr
