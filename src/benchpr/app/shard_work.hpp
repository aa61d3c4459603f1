// `benchpr run --shard I/N`: which share of the comparison this runner measures. The partition
// (core/plan/shard_plan) is computed after both revisions are built, from their benchmark lists, so
// every shard of a matrix computes the same one without talking to the others.
#pragma once

#include <optional>
#include <string>

#include "benchpr/app/options.hpp"
#include "benchpr/app/progress.hpp"
#include "benchpr/core/model/model.hpp"
#include "benchpr/core/plan/shard_plan.hpp"
#include "benchpr/exec/process.hpp"
#include "benchpr/runner/session.hpp"

namespace benchpr::app {

// --shard, else $BENCHPR_SHARD ("I/N"); nullopt for the whole comparison. UserError when
// malformed, or when --balance-from is given without a shard.
std::optional<ShardSpec> requested_shard(const RunOptions& options);

// The previous results file of --balance-from, read and checked (UserError naming it).
std::optional<Results> balance_results(const RunOptions& options);

struct ShardWorkInputs {
  ShardSpec spec;
  const Results* balance = nullptr;  // --balance-from, or null: balanced by the listing
  std::string balance_name;          // its file name, for the progress line
  std::string base_dir;
  std::string head_dir;
};

// Lists the Google Benchmark suites on both sides, partitions, records the partition in
// results.shard and returns this shard's selection.
runner::WorkSelection select_shard_work(Results& results, const ShardWorkInputs& in,
                                        exec::ProcessRunner& processes, const Progress& progress);

}  // namespace benchpr::app
