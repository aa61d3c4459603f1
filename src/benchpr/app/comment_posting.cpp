#include "benchpr/app/comment_posting.hpp"

#include "benchpr/app/github_access.hpp"
#include "benchpr/core/base/text.hpp"
#include "benchpr/github/github_error.hpp"
#include "benchpr/github/repo_slug.hpp"

namespace benchpr::app {

namespace {

std::string plain(const std::string& markdown) {
  std::string out;
  for (char c : markdown)
    if (c != '`' && c != '*') out += c;
  return out;
}

}  // namespace

StatusText status_for(RecommendationKind kind, const std::string& reason) {
  const std::string why = plain(reason);
  switch (kind) {
    case RecommendationKind::Merge:
      return {"success", "Merge: " + why};
    case RecommendationKind::DoNotMerge:
      return {"failure", "Don't merge: " + why};
    case RecommendationKind::Failed:  // benchpr could not judge: GitHub's state for that
      return {"error", "Failed: " + why};
    case RecommendationKind::Inconclusive:
      return {"success", "Inconclusive (not blocking): " + why};
  }
  return {"failure", why};
}

std::string status_context(const std::string& key) {
  return key == "default" ? std::string("benchpr") : "benchpr/" + key;
}

PostOutcome post_comment(const PostRequest& request, const Progress& progress) {
  PostOutcome outcome;
  const PullRequestInfo& pr = request.pull_request;
  const std::string where = pr.repo + "#" + std::to_string(pr.number);
  if (request.dry_run) {
    progress.line("dry run: nothing posted to " + where);
    return outcome;
  }
  const std::string token = github::token_from_environment();
  if (token.empty() && request.require_token) {
    outcome.state = PostOutcome::State::Failed;
    outcome.error = "no GITHUB_TOKEN or GH_TOKEN is set (pass --dry-run to only print)";
    return outcome;
  }
  if (token.empty()) {
    progress.line("no GITHUB_TOKEN or GH_TOKEN: the comment for " + where +
                  " was not posted (benchpr publish RESULTS.json posts it later)");
    return outcome;
  }
  auto slug = github::parse_repo_slug(pr.repo);
  if (!slug || pr.number <= 0) {
    outcome.state = PostOutcome::State::Failed;
    outcome.error = "no valid pull request to post to ('" + where + "')";
    return outcome;
  }
  try {
    auto client = make_github_client(request.api_url, token,
                                     [&progress](const std::string& m) { progress.line(m); });
    if (request.policy == CommentPolicy::Never) {
      progress.line("comment policy never: no comment for " + where);
    } else {
      github::StickyOptions sticky;
      sticky.key = request.key;
      sticky.author = request.author;
      // on-change: nothing new is not worth a new comment, but an existing one must not keep
      // showing old numbers.
      sticky.create = request.policy != CommentPolicy::OnChange || request.news;
      const auto result = client->upsert_sticky_comment(slug->owner, slug->name, pr.number,
                                                        request.markdown, sticky);
      if (result.action == github::StickyAction::Skipped) {
        progress.line("comment policy on-change: every benchmark is unchanged, no comment for " +
                      where);
      } else {
        outcome.state = PostOutcome::State::Posted;
        outcome.url = result.html_url;
        progress.line("comment " + std::string(github::to_string(result.action)) + ": " +
                      (result.html_url.empty() ? where : result.html_url));
      }
    }
    if (request.status) {
      if (pr.head_sha.empty()) {
        outcome.state = PostOutcome::State::Failed;
        outcome.error = "--status: the pull request's head commit is not known";
        return outcome;
      }
      const StatusText text = status_for(request.recommendation, request.reason);
      github::CommitStatus status;
      status.state = text.state;
      status.description = text.description;
      status.context = status_context(request.key);
      status.target_url = outcome.url.empty() ? request.fallback_url : outcome.url;
      try {
        client->set_commit_status(slug->owner, slug->name, pr.head_sha, status);
      } catch (const github::GitHubError& e) {
        outcome.state = PostOutcome::State::Failed;
        outcome.error = std::string("setting the commit status failed: ") + e.what() +
                        (e.status() == 403 || e.status() == 404
                             ? " (the workflow needs permissions: statuses: write)"
                             : "");
        return outcome;
      }
      progress.line("commit status " + status.context + ": " + status.state + " on " +
                    short_sha(pr.head_sha));
      if (outcome.state == PostOutcome::State::Skipped) outcome.state = PostOutcome::State::Posted;
    }
  } catch (const github::GitHubError& e) {
    outcome.state = PostOutcome::State::Failed;
    outcome.error = e.what();
  } catch (const std::invalid_argument& e) {  // a key the marker cannot hold
    outcome.state = PostOutcome::State::Failed;
    outcome.error = e.what();
  }
  return outcome;
}

}  // namespace benchpr::app
