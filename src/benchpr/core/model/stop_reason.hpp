// Why a comparison (or a bisection) stopped, as data: the kind decides (a resumed void
// comparison is refused, a bisection says "the budget ran out"), and describe() makes the one
// sentence the comment, the progress and the results file show. Nothing reads a sentence back.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "benchpr/core/base/name_table.hpp"

namespace benchpr {

enum class StopKind {
  Unknown,            // a results file from before the kind was recorded: `detail` is its text
  PlanDone,           // the fixed plan's `count` rounds all ran
  Decided,            // every benchmark was decided after `count` rounds
  CannotSettle,       // the `count` benchmarks still open could not settle within the budget
  MostRounds,         // `count` rounds, the most the plan looks at
  BudgetSpent,        // the budget was spent (`detail`: what was left and what a step costs)
  Interrupted,        // a signal (`detail`: which, and the run it cut short)
  Void,               // a side's files changed under the comparison (`detail`: the message)
  BuildFailed,        // a side did not build
  NothingToMeasure,   // this shard has no work (`detail`: why)
  IdenticalPrograms,  // every timed suite runs byte-identical programs: no rounds
  CountsOnly,         // instruction counts only: exact, no rounds
  ReadFromFiles,      // `compare`: `detail` names the runs read
  ShardsMerged,       // `count` shards merged, all complete
  ShardsMissing,      // a merge with shards missing or partial (`detail`: which)
  StepsDone,          // a bisection measured every step it needed
};

inline constexpr NameTable<StopKind, 16> kStopKindNames{{{
    {StopKind::Unknown, "unknown"},
    {StopKind::PlanDone, "plan-done"},
    {StopKind::Decided, "decided"},
    {StopKind::CannotSettle, "cannot-settle"},
    {StopKind::MostRounds, "most-rounds"},
    {StopKind::BudgetSpent, "budget-spent"},
    {StopKind::Interrupted, "interrupted"},
    {StopKind::Void, "void"},
    {StopKind::BuildFailed, "build-failed"},
    {StopKind::NothingToMeasure, "nothing-to-measure"},
    {StopKind::IdenticalPrograms, "identical-programs"},
    {StopKind::CountsOnly, "counts-only"},
    {StopKind::ReadFromFiles, "read-from-files"},
    {StopKind::ShardsMerged, "shards-merged"},
    {StopKind::ShardsMissing, "shards-missing"},
    {StopKind::StepsDone, "steps-done"},
}}};

struct StopReason {
  StopKind kind = StopKind::Unknown;
  int count = 0;       // rounds, benchmarks or shards, as the kind says
  std::string detail;  // what else the sentence names, as the kind says

  bool empty() const { return kind == StopKind::Unknown && detail.empty(); }
  bool operator==(const StopReason&) const = default;
};

// "all 8 rounds done", "interrupted by SIGTERM in round 3, …", "the budget was spent (…)";
// "" for an empty reason.
std::string describe(const StopReason& reason);

}  // namespace benchpr
