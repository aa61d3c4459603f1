// Posting the report as the pull request's sticky comment (and the commit status), and deciding
// not to: in a dry run, without a token (the unprivileged half of the fork-safe split, which only
// measures), or when the comment policy says the news is not worth a comment.
#pragma once

#include <string>

#include "benchpr/app/progress.hpp"
#include "benchpr/core/model/model.hpp"

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
  CommentPolicy policy = CommentPolicy::Always;
  bool news = true;    // some verdict is not `unchanged` (on-change posts only then)
  std::string author;  // whose marked comment is ours; "" = the token's login
  // The commit status on pull_request.head_sha, with the comment (else fallback_url) as target.
  bool status = false;
  RecommendationKind recommendation = RecommendationKind::Merge;
  std::string reason;
  std::string fallback_url;
};

// Fills the request from what `run` and `publish` share (option fields named alike).
template <typename Options>
PostRequest post_request(const Options& o, const Results& results, const Analysis& analysis,
                         const std::string& markdown) {
  PostRequest r;
  if (results.pull_request) r.pull_request = *results.pull_request;
  r.markdown = markdown;
  r.key = o.key;
  r.api_url = o.api_url;
  r.dry_run = o.dry_run;
  r.policy = o.comment.value_or(results.config.comment);
  r.news = analysis.benchmarks.empty();
  for (const auto& b : analysis.benchmarks) r.news = r.news || b.verdict != Verdict::Unchanged;
  r.author = o.comment_author;
  r.status = o.status;
  r.recommendation = analysis.recommendation.kind;
  r.reason = analysis.recommendation.reason;
  r.fallback_url = results.workflow_run_url;
  return r;
}

// The commit status for a recommendation: merge → success, do-not-merge → failure, failed → error,
// inconclusive → success whose description says "inconclusive" (it must not block a merge on a
// noisy runner). The description is the recommendation's sentence, without markdown.
struct StatusText {
  std::string state;
  std::string description;
};
StatusText status_for(RecommendationKind kind, const std::string& reason);
// "benchpr" for the default key, else "benchpr/KEY".
std::string status_context(const std::string& key);

// Never throws for GitHub's failures: they come back as State::Failed, so the caller can still
// write everything else before exiting with 1.
PostOutcome post_comment(const PostRequest& request, const Progress& progress);

}  // namespace benchpr::app
