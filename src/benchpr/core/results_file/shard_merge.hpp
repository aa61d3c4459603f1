// `benchpr merge`: joins the results of the shards of one comparison into one results file, so
// that the analysis (Benjamini-Hochberg, the recommendation) sees every benchmark at once.
// Pure: the files are read and written by the caller.
#pragma once

#include <string>
#include <vector>

#include "benchpr/core/base/error.hpp"
#include "benchpr/core/model/model.hpp"

namespace benchpr {

// A set of shard files that cannot be one comparison; the message names the file and the
// mismatch.
class MergeError : public Error {
 public:
  explicit MergeError(const std::string& message) : Error(ErrorCategory::Input, message) {}
};

struct ShardFile {
  std::string path;  // as the user named it, for messages
  Results results;
};

struct MergeOutcome {
  Results merged;
  std::vector<int> missing;               // shard indexes with no file
  std::vector<std::string> not_measured;  // "suite/name" of benchmarks nobody measured
  std::vector<std::string> warnings;      // sentences for the terminal
};

// Checks that every file is a shard of the same comparison (base and head SHAs, configuration,
// seed, shard count, partition) and that no shard comes twice; a missing shard, or one that
// failed or was interrupted, leaves a partial comparison whose unmeasured benchmarks are listed
// as failed ("not measured: shard 2 of 3 is missing"), never a silently smaller one.
MergeOutcome merge_shards(std::vector<ShardFile> files);

}  // namespace benchpr
