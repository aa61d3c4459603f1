// Which part of a comparison each shard measures (`benchpr run --shard I/N`). Every shard
// computes the partition itself, from inputs that are the same on every runner (the base
// revision's configuration, the benchmark lists of both revisions, an optional previous results
// file), so no shard needs to talk to another and the union is exactly the whole comparison.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "benchpr/core/model/model.hpp"

namespace benchpr {

// The most shards a run may be split into (--shard I/N, and what a merged results file may say).
inline constexpr int kMaxShards = 1000;

struct ShardSpec {
  int index = 0;  // 1-based
  int count = 0;
};

// A shard given as text: the spec, or what is wrong with the text ("the shard count must be 1
// to 1000"), for the caller to name where the text came from (--shard, BENCHPR_SHARD).
struct ShardSpecReading {
  std::optional<ShardSpec> spec;
  std::string problem;  // "" when spec is set
};

// "2/3" -> {2, 3}.
ShardSpecReading parse_shard_spec(std::string_view text);

// One unit of work: a Google Benchmark benchmark (split by benchmark), or a whole suite of
// another format (name ""). Cost is the expected duration in seconds, used only to balance.
struct WorkItem {
  std::string suite;
  std::string name;
  double cost = 1;
};

// Assigns every item to exactly one of `count` shards, the costliest first, each to the shard
// with the least expected time so far (lowest index on ties). Costs are rounded to milliseconds
// and summed as integers, so every machine computes the same assignment. Items come back in
// their input order with `shard` set; shards beyond the number of items get nothing.
std::vector<ShardUnit> partition_work(const std::vector<WorkItem>& items, int count);

// Expected costs from a previous comparison's results (`--balance-from`): a whole suite costs
// its mean run time there; a benchmark its suite's run time shared among the suite's benchmarks,
// or its own time per iteration when that is longer. Items the file does not know keep the
// median cost of the known items of their suite (or 1 s). Returns how many items it knew.
std::size_t apply_costs(const Results& previous, std::vector<WorkItem>& items);

}  // namespace benchpr
