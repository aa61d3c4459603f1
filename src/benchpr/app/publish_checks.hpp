// The publishing job of the fork-safe split holds a write token and receives its results file
// from a run that executed the pull request's code. Before posting, the pull request the file
// names must be the one that run measured, or a hostile pull request could make benchpr comment
// on any other issue.
#pragma once

#include <string>

#include "benchpr/app/progress.hpp"
#include "benchpr/core/model.hpp"

namespace benchpr::app {

struct PublishCheck {
  // Post: go ahead (also outside workflow_run jobs). Skip: nothing wrong, nothing to post (the
  // measuring run did not succeed, or the pull request moved on and a newer run will publish).
  // Refuse: the file names what the run did not measure.
  enum class Verdict { Post, Skip, Refuse };
  Verdict verdict = Verdict::Post;
  std::string why;
};

// Inside a `workflow_run` job ($GITHUB_EVENT_NAME): the repository must be the event's, the
// number among the event's pull requests (when GitHub lists them; it does not for forks), and
// the pull request's head commit (asked from the API) the commit the run measured. Inside an
// `issue_comment` job (/benchmark), the file must name the pull request the command was on.
PublishCheck check_against_workflow_run(const Results& results, const std::string& api_url,
                                        const Progress& progress);

}  // namespace benchpr::app
