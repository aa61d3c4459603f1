// Posting the report as the pull request's sticky comment, and deciding not to: in a dry run,
// or without a token (the unprivileged half of the fork-safe split, which only measures).
#pragma once

#include <string>

#include "benchpr/app/progress.hpp"
#include "benchpr/core/model.hpp"

namespace benchpr::app {

struct PostOutcome {
  enum class State { Skipped, Posted, Failed };
  State state = State::Skipped;
  std::string url;    // the comment's html_url when posted
  std::string error;  // why posting failed (never contains the token)
};

struct PostRequest {
  PullRequestInfo pull_request;
  std::string markdown;
  std::string key = "default";
  std::string api_url;  // "" = $GITHUB_API_URL or https://api.github.com
  bool dry_run = false;
  // `publish` exists to post: there a missing token is a failure, not a measuring-only job.
  bool require_token = false;
};

// Never throws for GitHub's failures: they come back as State::Failed, so the caller can still
// write everything else before exiting with 1.
PostOutcome post_comment(const PostRequest& request, const Progress& progress);

}  // namespace benchpr::app
