#include "benchpr/app/actions_event.hpp"

#include <cstdlib>

#include "benchpr/github/workflow_commands.hpp"

namespace benchpr::app {

std::string env_or_empty(const char* name) {
  const char* value = std::getenv(name);
  return value ? std::string(value) : std::string();
}

std::string this_workflow_run_url() {
  const std::string server = env_or_empty("GITHUB_SERVER_URL");
  const std::string repo = env_or_empty("GITHUB_REPOSITORY");
  const std::string run_id = env_or_empty("GITHUB_RUN_ID");
  if (server.empty() || repo.empty() || run_id.empty()) return "";
  return server + "/" + repo + "/actions/runs/" + run_id;
}

bool pull_request_job_for_fork() {
  if (env_or_empty("GITHUB_ACTIONS") != "true" ||
      env_or_empty("GITHUB_EVENT_NAME") != "pull_request")
    return false;
  try {
    return read_actions_event(github::parse_pull_request_event).from_fork();
  } catch (const Error&) {
    return false;  // not a pull request event after all: nothing to say about forks
  }
}

std::string fork_notice(std::string_view what_was_done) {
  return github::notice_command(
      "benchpr: this pull request comes from a fork, and a pull_request job gets a read-only "
      "token for it: benchpr " +
      std::string(what_was_done) +
      " and posted nothing. To get the comment on pull requests from forks, use the fork-safe "
      "pair of workflows (measure on pull_request, publish on workflow_run) in benchpr's "
      "docs/github.md.");
}

}  // namespace benchpr::app
