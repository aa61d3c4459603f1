// The publishing job of the fork-safe split holds a write token and receives its results file
// from a run that executed the pull request's code. Before posting, the pull request the file
// names must be the one that run measured, or a hostile pull request could make benchpr comment
// on any other issue; and what is posted where (the commit the status goes on, every link) comes
// from the event or the API, never from the file.
#pragma once

#include <optional>
#include <string>

#include "benchpr/app/progress.hpp"
#include "benchpr/core/model/model.hpp"
#include "benchpr/github/api_types.hpp"

namespace benchpr::app {

struct PublishCheck {
  // Post: go ahead. Skip: nothing wrong, nothing to post (the measuring run did not succeed, or
  // the pull request moved on and a newer run will publish). Refuse: the file names what the
  // run did not measure.
  enum class Verdict { Post, Skip, Refuse };
  Verdict verdict = Verdict::Post;
  std::string why;
  // With Post, what replaces the file's own word before anything is rendered or posted:
  std::optional<github::PullRequest> live;  // the pull request as the API reports it now
  std::string head_sha;  // the only commit a status may go on (the event's or the API's)
  std::string run_url;   // the measuring run's page: the event's, this run's, or "" (none)
};

// Asks the API for the pull request the file names and checks the file against it and against
// the job's event ($GITHUB_EVENT_NAME):
// - workflow_run: the repository must be the event's, the number among the event's pull
//   requests (when GitHub lists them; it does not for forks), the file's head commit the one the
//   run measured, and the pull request still at it (else Skip: a newer push);
// - issue_comment (/benchmark): the pull request must be the one the command was written on and
//   the file's head commit its head now (a push after the command is refused: the results
//   describe another commit);
// - anything else: the file's head commit must be the pull request's head now.
// Without a token nothing is asked (posting then fails for the lack of it).
PublishCheck check_publish_target(const Results& results, const std::string& api_url,
                                  const Progress& progress);

// The commit a results file says it measured: pull_request.head_sha, else head.sha.
std::string measured_head(const Results& results);

}  // namespace benchpr::app
