#include "benchpr/app/report_failures.hpp"

#include <algorithm>
#include <cmath>
#include <iostream>
#include <optional>

#include <fmt/format.h>

#include "benchpr/app/actions_report.hpp"
#include "benchpr/app/options.hpp"
#include "benchpr/core/wording/wording.hpp"
#include "benchpr/render/escape.hpp"

namespace benchpr::app {

int finish_report(const Report& report, const PostOutcome& posted, const ReportEnd& end,
                  const Progress& progress) {
  int exit_code = kExitOk;
  if (progress.github_actions()) {
    if (const std::optional<std::string> problems = write_actions_files(
            report.summary_markdown.empty() ? report.markdown : report.summary_markdown,
            step_outputs(report.analysis, end.results_path, posted.url))) {
      std::cerr << "benchpr: error: " << render::terminal_line(*problems, 1000) << std::endl;
      exit_code = kExitFailure;
    }
  }
  if (posted.state == PostOutcome::State::Failed) {
    std::cerr << "benchpr: error: posting failed: " << render::terminal_line(posted.error, 1000)
              << end.posting_after << std::endl;
    exit_code = kExitFailure;
  }
  if (!end.write_errors.empty()) {
    std::cerr << "benchpr: error: ";
    for (std::size_t i = 0; i < end.write_errors.size(); ++i)
      std::cerr << (i ? "; " : "") << render::terminal_line(end.write_errors[i]);
    std::cerr << end.write_after << std::endl;
    exit_code = kExitFailure;
  }
  return exit_code;
}

int fail_on_exit_code(FailOn fail_on, const Results& r, const Analysis& a) {
  if (fail_on == FailOn::Never) return kExitOk;
  if (a.recommendation.kind == RecommendationKind::DoNotMerge) return kExitRegression;
  if (fail_on != FailOn::Failed) return kExitOk;
  bool failed = a.recommendation.kind == RecommendationKind::Failed;
  for (const BuildResult& b : r.builds) failed |= !b.ok;
  for (const RunRecord& run : r.runs) failed |= !run.ok;
  for (const BenchmarkAnalysis& b : a.benchmarks) failed |= b.verdict == Verdict::Failed;
  return failed ? kExitSuiteFailed : kExitOk;
}

namespace {

bool any_value(const std::vector<double>& values) {
  return std::any_of(values.begin(), values.end(), [](double x) { return std::isfinite(x); });
}

// A shard the partition gave no benchmark: measuring nothing is its share of the work.
bool shard_without_work(const Results& r) {
  if (!r.shard || r.shard->index <= 0) return false;
  return std::none_of(r.shard->partition.begin(), r.shard->partition.end(),
                      [&](const ShardUnit& u) { return u.shard == r.shard->index; });
}

}  // namespace

std::optional<std::string> nothing_measured(const Results& r) {
  if (!r.complete) return std::nullopt;  // an unfinished session fails the job already
  for (const BenchmarkSeries& s : r.series)
    if (any_value(s.base) || any_value(s.head)) return std::nullopt;
  // Programs identical on both sides decide their benchmarks without a round: an answer.
  if (!r.identical_suites.empty()) return std::nullopt;
  std::vector<const BuildResult*> failed;
  for (const BuildResult& b : r.builds)
    if (!b.ok) failed.push_back(&b);
  if (failed.size() == 1) return std::nullopt;  // the other side built: a finding, in the comment
  if (failed.size() >= 2) {
    std::string why;
    for (const BuildResult* b : failed)
      why += fmt::format("{}{}: {}", why.empty() ? "" : ", ", b->side == Side::Base ? "base" : "PR",
                         b->failure);
    return fmt::format(
        "nothing was measured: both revisions failed to build ({}) with `{}`, so the build does "
        "not work on this machine, whatever the pull request changes; run that command in a clean "
        "checkout of the base revision to see why (the comment shows the end of each build log: "
        "a configure step that downloads dependencies needs a network, or its option that turns "
        "the downloads off), fix it or set `build:` in .benchpr.yml, and run again",
        why, r.config.build);
  }
  if (shard_without_work(r)) return std::nullopt;
  std::size_t failed_runs = 0;
  for (const RunRecord& run : r.runs) failed_runs += !run.ok;
  std::string what;
  if (r.runs.empty()) {
    what = "no suite was run";
  } else if (failed_runs == r.runs.size()) {
    what = fmt::format("all {} failed", plural(r.runs.size(), "suite run", "suite runs"));
  } else {
    what = "the suites reported no benchmark";
  }
  return fmt::format(
      "nothing was measured: no benchmark gave a value on either side ({}), so there is nothing "
      "to compare, whatever the pull request changes; check that each suite's `run:` command in "
      ".benchpr.yml works on this machine (the comment names each failure, with its log), and run "
      "again",
      what);
}

int comparison_exit_code(bool unfinished, bool measured_nothing, int fail_on_code,
                         int report_code) {
  if (unfinished) return kExitFailure;
  if (measured_nothing) return kExitSuiteFailed;
  if (fail_on_code != kExitOk) return fail_on_code;
  return report_code;
}

int final_exit_code(const Results& results, bool unfinished, int fail_on_code, int report_code) {
  const std::optional<std::string> nothing = unfinished ? std::nullopt : nothing_measured(results);
  if (nothing)
    std::cerr << "benchpr: error: " << render::terminal_line(*nothing, 2000) << std::endl;
  return comparison_exit_code(unfinished, nothing.has_value(), fail_on_code, report_code);
}

}  // namespace benchpr::app
