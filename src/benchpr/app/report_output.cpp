#include "benchpr/app/report_output.hpp"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <iostream>

#include <unistd.h>

#include <fmt/format.h>

#include "benchpr/app/actions_event.hpp"
#include "benchpr/app/actions_report.hpp"
#include "benchpr/app/options.hpp"
#include "benchpr/app/report_failures.hpp"
#include "benchpr/core/adaptive/session_analysis.hpp"
#include "benchpr/core/base/comment_key.hpp"
#include "benchpr/core/base/text.hpp"
#include "benchpr/core/results_file/results_json.hpp"
#include "benchpr/core/verdicts/recommendation.hpp"
#include "benchpr/core/wording/wording.hpp"
#include "benchpr/render/html_report.hpp"
#include "benchpr/render/render.hpp"
#include "benchpr/render/text_report.hpp"
#include "benchpr/runner/results_store.hpp"

namespace benchpr::app {

std::string comparison_note(const Results& results) {
  if (results.origin == Origin::ResultFiles) {
    // What the numbers can and cannot say when benchpr only read them.
    return "Compared result files, not revisions: benchpr ran nothing, and round i pairs the "
           "i-th run of each side (a file is one process; hyperfine's every run one). The files "
           "do not say "
           "in which order, how interleaved or on which machine the runs took place, so a drift "
           "or an order effect cannot be told from a change (benchpr run measures in interleaved "
           "rounds). Base: " +
           results.base.spec + "; PR: " + results.head.spec + ".";
  }
  if (results.origin == Origin::Executables) {
    return "Compared two executables, not revisions: base " + results.base.spec + " (" +
           results.base.subject + "), PR " + results.head.spec + " (" + results.head.subject +
           "), in interleaved rounds, each run from a fresh copy; nothing was built.";
  }
  if (!results.pull_request || results.base.spec.empty() || results.head.spec.empty()) return "";
  return "Compared " + results.head.spec + " (" + short_sha(results.head.sha) + ") against " +
         (results.base.merge_base ? "the " : "") + results.base.spec + " (" +
         short_sha(results.base.sha) + ").";
}

StdoutStyle stdout_style(StdoutFormat format, ColorMode color, bool terminal, bool no_color,
                         bool github_actions) {
  StdoutStyle s;
  s.text =
      format == StdoutFormat::Text || (format == StdoutFormat::Auto && terminal && !github_actions);
  s.color =
      s.text && (color == ColorMode::Always || (color == ColorMode::Auto && terminal && !no_color));
  return s;
}

namespace {
bool no_color_requested() {
  const char* v = std::getenv("NO_COLOR");
  return v != nullptr && *v != '\0';
}
}  // namespace

void withhold_verdicts_below_minimum(const Results& results, Analysis& analysis) {
  if (results.origin != Origin::ResultFiles) return;
  bool changed = false;
  for (BenchmarkAnalysis& b : analysis.benchmarks) {
    if (b.rounds_used >= kMinDecidingRounds) continue;
    switch (b.verdict) {
      case Verdict::Regression:
      case Verdict::Improvement:
      case Verdict::Slower:
      case Verdict::Faster:
      case Verdict::Unchanged:
        break;
      default:
        continue;
    }
    b.verdict = Verdict::Inconclusive;
    b.reason = fmt::format(
        "only {} paired: a verdict needs at least {} processes per side (a results file is one "
        "process; give more files with --base FILE... --head FILE...)",
        plural(static_cast<std::size_t>(b.rounds_used), "run", "runs"), kMinDecidingRounds);
    b.rounds_needed.reset();
    changed = true;
  }
  if (changed) analysis.recommendation = recommend(results, analysis);
}

Report make_report(const Results& results, const ReportTargets& targets) {
  Report report;
  report.analysis = analyse_session(results);
  withhold_verdicts_below_minimum(results, report.analysis);
  // Derived from the results alone, so `publish` words it exactly as `run` did.
  if (std::string note = comparison_note(results); !note.empty())
    report.analysis.notes.insert(report.analysis.notes.begin(), note);
  render::RenderOptions ro;
  ro.key = targets.key;
  ro.template_overrides = targets.template_overrides;
  report.markdown = render::render_comment(results, report.analysis, ro);
  if (targets.summary_bytes > 0) {
    render::RenderOptions whole = ro;
    whole.max_chars = targets.summary_bytes;
    report.summary_markdown = whole.max_chars > ro.max_chars
                                  ? render::render_comment(results, report.analysis, whole)
                                  : report.markdown;
  }
  // Printed before anything that can fail, so the reading is never lost.
  if (targets.print_markdown) {
    const StdoutStyle style = stdout_style(targets.format, targets.color,
                                           isatty(STDOUT_FILENO) == 1, no_color_requested(), false);
    if (style.text) {
      render::TextOptions to;
      to.color = style.color;
      std::cout << render::render_text_report(results, report.analysis, to) << std::flush;
    } else {
      std::cout << report.markdown << std::flush;
    }
  }
  const auto write = [&report](const std::string& path, const auto& content) {
    if (path.empty()) return;
    try {
      runner::write_file_atomically(path, content());
    } catch (const runner::StoreError& e) {
      report.write_errors.emplace_back(e.what());
    }
  };
  write(targets.markdown_file, [&] { return report.markdown; });
  write(targets.html_file, [&] { return render::render_html_report(results, report.analysis); });
  write(targets.results_file, [&] { return results_to_string(results, &report.analysis); });
  return report;
}

void check_output_paths(const std::vector<std::string>& paths) {
  for (const std::string& path : paths) {
    if (path.empty()) continue;
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec))
      throw runner::StoreError("cannot write " + path + ": Is a directory");
    // The same route the final write takes: a temporary file beside the target.
    const std::string probe = path + ".probe";
    runner::write_file_atomically(probe, "");
    std::filesystem::remove(probe, ec);
  }
}

std::size_t step_summary_room(std::size_t used) {
  constexpr std::size_t kMargin = 4096;
  constexpr std::size_t kAtLeast = kMaxCommentCharacters;  // room for the whole comment
  return used + kMargin + kAtLeast >= kMaxStepSummaryBytes ? kAtLeast
                                                           : kMaxStepSummaryBytes - used - kMargin;
}

Report present_report(const Results& results, ReportTargets targets, const Progress& progress) {
  targets.print_markdown = !progress.github_actions();
  if (progress.github_actions()) {
    // The step's summary file may already hold an earlier writer's part.
    std::error_code ec;
    const std::string path = env_or_empty("GITHUB_STEP_SUMMARY");
    const auto used = path.empty() ? 0 : std::filesystem::file_size(path, ec);
    targets.summary_bytes = step_summary_room(ec ? 0 : static_cast<std::size_t>(used));
  }
  Report report = make_report(results, targets);
  if (progress.github_actions())
    progress.print_untrusted_block("benchpr: comment", report.markdown);
  return report;
}

StoredResults as_stored(const Results& results) {
  try {
    return {results_from_string(results_to_string(results)), std::nullopt};
  } catch (const ResultsFormatError& e) {
    return {results, e.what()};
  }
}

int end_comparison(const Results& results, const ReportTargets& targets, const ComparisonEnd& end,
                   const Progress& progress) {
  const StoredResults stored = as_stored(results);
  if (stored.refused)
    progress.line(fmt::format(
        "warning: the results file's reader refuses these results ({}): the report is made from "
        "the results as measured, and `benchpr publish` of the file would refuse it",
        *stored.refused));
  const Report report = present_report(stored.results, targets, progress);
  progress.line(fmt::format("recommendation: {} ({})",
                            to_string(report.analysis.recommendation.kind),
                            report.analysis.recommendation.reason));
  if (end.annotate_regressions && progress.github_actions())
    for (const auto& line : regression_annotations(report.analysis)) std::cout << line << "\n";
  const PostOutcome posted = end.post ? end.post(report) : PostOutcome{};

  ReportEnd failures;
  failures.results_path = end.results_path;
  failures.posting_after = end.posting_after;
  failures.write_after = end.write_after;
  // A write that failed during the rounds (the work directory's copy included) or at the end:
  // the report is printed and posted all the same, the job fails naming the file, once.
  failures.write_errors = report.write_errors;
  if (const std::optional<std::string>& earlier = end.earlier_write_error;
      earlier && std::find(failures.write_errors.begin(), failures.write_errors.end(), *earlier) ==
                     failures.write_errors.end())
    failures.write_errors.push_back(*earlier);
  const int report_code = finish_report(report, posted, failures, progress);
  return final_exit_code(results, !results.complete,
                         fail_on_exit_code(end.fail_on, results, report.analysis), report_code);
}

}  // namespace benchpr::app
