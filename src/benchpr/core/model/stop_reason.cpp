#include "benchpr/core/model/stop_reason.hpp"

#include <fmt/format.h>

namespace benchpr {

namespace {

std::string with_detail(std::string_view text, const std::string& detail, bool in_brackets) {
  if (detail.empty()) return std::string(text);
  return in_brackets ? fmt::format("{} ({})", text, detail) : fmt::format("{} {}", text, detail);
}

}  // namespace

std::string describe(const StopReason& r) {
  switch (r.kind) {
    case StopKind::Unknown:
    case StopKind::Void:
    case StopKind::NothingToMeasure:
    case StopKind::ShardsMissing:
      return r.detail;
    case StopKind::PlanDone:
      return fmt::format("all {} rounds done", r.count);
    case StopKind::Decided:
      return fmt::format("every benchmark was decided after {} rounds", r.count);
    case StopKind::CannotSettle:
      return fmt::format("the {} still open could not settle in the rounds the budget affords",
                         r.count);
    case StopKind::MostRounds:
      return fmt::format("{} rounds, the most the plan looks at", r.count);
    case StopKind::BudgetSpent:
      return with_detail("the budget was spent", r.detail, true);
    case StopKind::Interrupted:
      return with_detail("interrupted", r.detail, false);
    case StopKind::BuildFailed:
      return "build failed";
    case StopKind::IdenticalPrograms:
      return "the benchmark programs are byte-identical: no rounds to run";
    case StopKind::CountsOnly:
      return "instruction counts done";
    case StopKind::ReadFromFiles:
      return fmt::format("read {} from files", r.detail);
    case StopKind::ShardsMerged:
      return fmt::format("{} shards merged, all complete", r.count);
    case StopKind::StepsDone:
      return "every step needed was measured";
  }
  return r.detail;
}

}  // namespace benchpr
