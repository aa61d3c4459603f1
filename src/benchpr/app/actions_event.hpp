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

}  // namespace benchpr::app
