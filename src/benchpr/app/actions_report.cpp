#include "benchpr/app/actions_report.hpp"

#include <cmath>
#include <cstdlib>
#include <iostream>

#include <fmt/format.h>

#include "benchpr/app/actions_event.hpp"
#include "benchpr/github/actions_files.hpp"
#include "benchpr/github/workflow_commands.hpp"

namespace benchpr::app {

namespace {

int count(const Analysis& a, Verdict v) {
  int n = 0;
  for (const auto& b : a.benchmarks) n += b.verdict == v ? 1 : 0;
  return n;
}

std::string percent(double fraction) { return fmt::format("{:+.1f}%", fraction * 100); }

}  // namespace

bool in_github_actions() { return env_or_empty("GITHUB_ACTIONS") == "true"; }

std::vector<std::pair<std::string, std::string>> step_outputs(const Analysis& analysis,
                                                              const std::string& results_path,
                                                              const std::string& comment_url) {
  return {{"recommendation", std::string(to_string(analysis.recommendation.kind))},
          {"regressions", std::to_string(count(analysis, Verdict::Regression))},
          {"improvements", std::to_string(count(analysis, Verdict::Improvement))},
          {"inconclusive", std::to_string(count(analysis, Verdict::Inconclusive))},
          {"failed", std::to_string(count(analysis, Verdict::Failed))},
          {"results", results_path},
          {"comment-url", comment_url}};
}

std::vector<std::string> regression_annotations(const Analysis& analysis) {
  std::vector<std::string> lines;
  int regressions = 0;
  for (const auto& b : analysis.benchmarks) regressions += b.verdict == Verdict::Regression;
  for (const auto& b : analysis.benchmarks) {
    if (b.verdict != Verdict::Regression) continue;
    if (static_cast<int>(lines.size()) == kMaxWarningAnnotations) {
      // GitHub shows 10 warnings per step and drops the rest silently: say how many there are.
      const int rest = regressions - kMaxWarningAnnotations;
      lines.push_back(github::notice_command(fmt::format(
          "benchpr: {} more regression{} not annotated (GitHub shows {} warnings per step); the "
          "comment and the job summary list every one",
          rest, rest == 1 ? "" : "s", kMaxWarningAnnotations)));
      break;
    }
    std::string message = fmt::format("{} ({}) regressed: change {}", b.name, b.suite,
                                      is_missing(b.change) ? "?" : percent(b.change));
    if (!is_missing(b.ci_low) && !is_missing(b.ci_high))
      message += fmt::format(" (95% CI {} to {})", percent(b.ci_low), percent(b.ci_high));
    github::AnnotationProperties props;
    props.title = "benchpr regression";
    lines.push_back(github::warning_command(message, props));
  }
  return lines;
}

std::optional<std::string> write_actions_files(
    const std::string& markdown, const std::vector<std::pair<std::string, std::string>>& outputs) {
  std::string problems;
  try {
    if (const std::string path = env_or_empty("GITHUB_STEP_SUMMARY"); !path.empty())
      github::append_step_summary(path, markdown);
  } catch (const github::ActionsFileError& e) {
    problems += std::string("job summary: ") + e.what();
  }
  try {
    if (const std::string path = env_or_empty("GITHUB_OUTPUT"); !path.empty())
      github::write_outputs(path, outputs);
  } catch (const github::ActionsFileError& e) {
    problems += (problems.empty() ? "" : "; ") + std::string("step outputs: ") + e.what();
  }
  if (problems.empty()) return std::nullopt;
  return problems;
}

ActionsFilesWatch::ActionsFilesWatch() : before_(github::fingerprint_actions_files()) {}

std::vector<std::string> ActionsFilesWatch::warn_if_changed() const {
  const std::vector<std::string> changed = github::changed_actions_files(before_);
  for (const std::string& variable : changed) {
    const std::string message =
        "$" + variable +
        " changed while the pull request's code ran: a build or benchmark wrote to it, so "
        "what later steps read from it may not come from benchpr";
    std::cout << github::warning_command(message) << std::endl;
    std::cerr << "benchpr: warning: " << message << std::endl;
  }
  return changed;
}

}  // namespace benchpr::app
