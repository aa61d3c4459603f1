// The publishing job of the fork-safe split holds a write token and receives its results file
// from a run that executed the pull request's code. Before posting, the pull request the file
// names must be the one that run measured, or a hostile pull request could make benchpr comment
// on any other issue.
#pragma once

#include <string>

#include "benchpr/app/progress.hpp"
#include "benchpr/core/model.hpp"

namespace benchpr::app {

// Inside a `workflow_run` job ($GITHUB_EVENT_NAME): the repository must be the event's, the
// number among the event's pull requests (when GitHub lists them; it does not for forks), and
// the pull request's head commit (asked from the API) the commit the run measured. Returns ""
// when the file may be posted (also outside workflow_run jobs), else why not.
std::string check_against_workflow_run(const Results& results, const std::string& api_url,
                                       const Progress& progress);

}  // namespace benchpr::app
