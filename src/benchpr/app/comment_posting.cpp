#include "benchpr/app/comment_posting.hpp"

#include "benchpr/app/github_access.hpp"
#include "benchpr/github/github_error.hpp"
#include "benchpr/github/repo_slug.hpp"

namespace benchpr::app {

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
    const auto result = client->upsert_sticky_comment(slug->owner, slug->name, pr.number,
                                                      request.markdown, request.key);
    outcome.state = PostOutcome::State::Posted;
    outcome.url = result.html_url;
    progress.line("comment " + std::string(github::to_string(result.action)) + ": " +
                  (result.html_url.empty() ? where : result.html_url));
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
