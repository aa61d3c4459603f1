#include "benchpr/app/report_failures.hpp"

#include <iostream>
#include <optional>

#include "benchpr/app/actions_report.hpp"
#include "benchpr/app/options.hpp"
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

int fail_on_exit_code(const std::string& fail_on, const Results& r, const Analysis& a) {
  if (fail_on == "never") return kExitOk;
  if (a.recommendation.kind == RecommendationKind::DoNotMerge) return kExitRegression;
  if (fail_on != "failed") return kExitOk;
  bool failed = a.recommendation.kind == RecommendationKind::Failed;
  for (const BuildResult& b : r.builds) failed |= !b.ok;
  for (const RunRecord& run : r.runs) failed |= !run.ok;
  for (const BenchmarkAnalysis& b : a.benchmarks) failed |= b.verdict == Verdict::Failed;
  return failed ? kExitSuiteFailed : kExitOk;
}

int comparison_exit_code(bool unfinished, int fail_on_code, int report_code) {
  if (unfinished) return kExitFailure;
  if (fail_on_code != kExitOk) return fail_on_code;
  return report_code;
}

}  // namespace benchpr::app
