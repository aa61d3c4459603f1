#include "benchpr/app/report_output.hpp"

#include <iostream>

#include "benchpr/app/templates.hpp"
#include "benchpr/core/session_analysis.hpp"
#include "benchpr/core/results_json.hpp"
#include "benchpr/render/render.hpp"
#include "benchpr/runner/results_store.hpp"

namespace benchpr::app {

Report make_report(const Results& results, const ReportTargets& targets) {
  Report report;
  report.analysis = analyse_session(results);
  render::RenderOptions ro;
  ro.key = targets.key;
  ro.template_overrides = load_template_overrides(targets.templates_dir);
  report.markdown = render::render_comment(results, report.analysis, ro);
  // Printed before anything that can fail, so the reading is never lost.
  if (targets.print_markdown) std::cout << report.markdown << std::flush;
  if (!targets.markdown_file.empty())
    runner::write_file_atomically(targets.markdown_file, report.markdown);
  if (!targets.results_file.empty())
    runner::write_file_atomically(targets.results_file,
                                  results_to_string(results, &report.analysis));
  return report;
}

}  // namespace benchpr::app
