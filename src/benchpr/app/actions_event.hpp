// What a GitHub Actions job learns from its environment: variables, and the event that started
// it (the JSON file at $GITHUB_EVENT_PATH).
#pragma once

#include <string>
#include <string_view>

#include "benchpr/app/user_error.hpp"
#include "benchpr/github/event_payload.hpp"

namespace benchpr::app {

// The variable's value; an unset variable reads as empty, as the shell would.
std::string env_or_empty(const char* name);

// This workflow run's page ($GITHUB_SERVER_URL/$GITHUB_REPOSITORY/actions/runs/$GITHUB_RUN_ID),
// or "" outside Actions.
std::string this_workflow_run_url();

// The event at $GITHUB_EVENT_PATH as `parse` (a github::parse_*_event) reads it. A file that
// cannot be read (EventError) or holds another event (UserError) is named in the message.
template <typename Parse>
auto read_actions_event(Parse parse) -> decltype(parse(std::string_view())) {
  const std::string path = env_or_empty("GITHUB_EVENT_PATH");
  const std::string text = github::read_event_file(path);  // its error names the path
  try {
    return parse(text);
  } catch (const github::EventError& e) {
    throw UserError(std::string(e.what()) + " (" + path + ")");
  }
}

// Inside a `pull_request` job for a pull request from a fork (or a deleted one), where GitHub
// gives the job a read-only token whatever the workflow asks for: posting would only fail (403).
// False outside Actions, for other events, and when the event file cannot be read.
bool pull_request_job_for_fork();

// The notice `run` and `publish` print instead of posting in such a job (a workflow command).
std::string fork_notice(std::string_view what_was_done);

}  // namespace benchpr::app
