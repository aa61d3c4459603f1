#include "benchpr/app/report_output.hpp"

#include <iostream>

#include "benchpr/core/results_json.hpp"
#include "benchpr/core/session_analysis.hpp"
#include "benchpr/render/html_report.hpp"
#include "benchpr/render/render.hpp"
#include "benchpr/runner/results_store.hpp"

namespace benchpr::app {

std::string comparison_note(const Results& results) {
  if (!results.pull_request || results.base.spec.empty() || results.head.spec.empty()) return "";
  const bool merge_base = results.base.spec.starts_with("merge base");
  return "Compared " + results.head.spec + " (" + results.head.sha.substr(0, 7) + ") against " +
         (merge_base ? "the " : "") + results.base.spec + " (" + results.base.sha.substr(0, 7) +
         ").";
}

Report make_report(const Results& results, const ReportTargets& targets) {
  Report report;
  report.analysis = analyse_session(results);
  // Derived from the results alone, so `publish` words it exactly as `run` did.
  if (std::string note = comparison_note(results); !note.empty())
    report.analysis.notes.insert(report.analysis.notes.begin(), note);
  render::RenderOptions ro;
  ro.key = targets.key;
  ro.template_overrides = targets.template_overrides;
  report.markdown = render::render_comment(results, report.analysis, ro);
  // Printed before anything that can fail, so the reading is never lost.
  if (targets.print_markdown) std::cout << report.markdown << std::flush;
  if (!targets.markdown_file.empty())
    runner::write_file_atomically(targets.markdown_file, report.markdown);
  if (!targets.html_file.empty())
    runner::write_file_atomically(targets.html_file,
                                  render::render_html_report(results, report.analysis));
  if (!targets.results_file.empty())
    runner::write_file_atomically(targets.results_file,
                                  results_to_string(results, &report.analysis));
  return report;
}

Report present_report(const Results& results, ReportTargets targets, const Progress& progress) {
  targets.print_markdown = !progress.github_actions();
  Report report = make_report(results, targets);
  if (progress.github_actions())
    progress.print_untrusted_block("benchpr: comment", report.markdown);
  return report;
}

}  // namespace benchpr::app
