// What a run leaves for the GitHub Actions workflow: the report in the job summary, step
// outputs, and a warning annotation per regression.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "benchpr/app/progress.hpp"
#include "benchpr/core/model/model.hpp"
#include "benchpr/github/actions_files.hpp"

namespace benchpr::app {

// GITHUB_ACTIONS=true: benchpr runs as a step of a workflow.
bool in_github_actions();

// recommendation, regressions, improvements, inconclusive, failed, results, comment-url.
std::vector<std::pair<std::string, std::string>> step_outputs(const Analysis& analysis,
                                                              const std::string& results_path,
                                                              const std::string& comment_url);

// GitHub shows at most this many warning annotations of one step.
inline constexpr int kMaxWarningAnnotations = 10;

// `::warning title=benchpr regression::BM_X is 7.5% slower ...` lines (names escaped), one per
// regression up to kMaxWarningAnnotations, then one notice counting the rest.
std::vector<std::string> regression_annotations(const Analysis& analysis);

// Appends the markdown to $GITHUB_STEP_SUMMARY and the outputs to $GITHUB_OUTPUT (each when
// set). Returns what could not be written, or nothing when all was.
std::optional<std::string> write_actions_files(
    const std::string& markdown, const std::vector<std::pair<std::string, std::string>>& outputs);

// Watches the step's Actions files ($GITHUB_OUTPUT, $GITHUB_ENV, ...) while the code under test
// runs. Children never get their names, but they run as the same user and may find the files;
// a change while they ran is reported (a ::warning:: in the job log and a line on stderr), since
// a later step may then read outputs, variables or a PATH benchpr did not write.
class ActionsFilesWatch {
 public:
  ActionsFilesWatch();  // records each file's size and hash
  // Warns once per file that differs now; returns the variables whose file changed.
  std::vector<std::string> warn_if_changed() const;

 private:
  std::vector<github::ActionsFileState> before_;
};

}  // namespace benchpr::app
