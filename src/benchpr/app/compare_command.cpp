#include <filesystem>
#include <system_error>

#include <fmt/format.h>

#include "benchpr/app/actions_report.hpp"
#include "benchpr/app/commands.hpp"
#include "benchpr/app/compare_results.hpp"
#include "benchpr/app/input_files.hpp"
#include "benchpr/app/progress.hpp"
#include "benchpr/app/report_output.hpp"
#include "benchpr/app/user_error.hpp"
#include "benchpr/config/config_parser.hpp"
#include "benchpr/runner/results_store.hpp"

namespace benchpr::app {

namespace {

std::vector<ResultFile> read_files(const std::vector<std::string>& paths) {
  std::vector<ResultFile> files;
  // A file that is there but cannot be read ends the command with its own error (it names the
  // path): a StoreError stays an output error (exit 1), it is not a usage error.
  for (const std::string& path : paths) files.push_back({path, runner::read_text_file(path)});
  return files;
}

}  // namespace

int compare_command(const CompareOptions& options) {
  CompareInput input;
  if (!options.files.empty()) {
    if (!options.base_files.empty() || !options.head_files.empty())
      throw UserError(
          "compare takes either BASE.json HEAD.json or --base FILE... --head FILE..., not both");
    if (options.files.size() != 2)
      throw UserError(fmt::format(
          "compare takes two files, BASE.json HEAD.json (got {}); for several runs per side "
          "use --base FILE... --head FILE...",
          options.files.size()));
  }
  const std::vector<std::string>& base =
      options.files.empty() ? options.base_files : std::vector<std::string>{options.files[0]};
  const std::vector<std::string>& head =
      options.files.empty() ? options.head_files : std::vector<std::string>{options.files[1]};
  if (base.empty() || head.empty())
    throw UserError(
        "compare needs result files of both sides: BASE.json HEAD.json, or --base FILE... "
        "--head FILE...");
  if (!options.threshold.empty()) {
    const std::optional<double> t = config::parse_percentage(options.threshold);
    if (!t || *t < config::kMinThreshold || *t > config::kMaxThreshold)
      throw UserError("--threshold: expected a percentage between 0.1% and 50%, like 2%, got '" +
                      options.threshold + "'");
    input.threshold = *t;
  }
  ReportTargets targets = report_targets(options);
  targets.results_file = options.output;
  check_output_paths({options.output, options.markdown, options.html});
  require_existing_files("compare", base);
  require_existing_files("compare", head);
  input.base = read_files(base);
  input.head = read_files(head);
  input.format = options.input_format;
  input.metric = options.metric;
  const Results results = results_from_files(input);
  const Progress progress(in_github_actions());
  progress.line(fmt::format("compared {} with {}: {} ({} format)", results.base.spec,
                            results.head.spec, describe(results.stop),
                            to_string(results.config.suites[0].format)));

  ComparisonEnd end;
  end.results_path = options.output;
  end.fail_on = options.fail_on;
  return end_comparison(results, targets, end, progress);
}

}  // namespace benchpr::app
