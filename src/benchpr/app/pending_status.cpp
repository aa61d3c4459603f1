#include "benchpr/app/pending_status.hpp"

#include "benchpr/app/comment_posting.hpp"
#include "benchpr/app/github_access.hpp"
#include "benchpr/core/base/text.hpp"
#include "benchpr/github/github_error.hpp"
#include "benchpr/github/repo_slug.hpp"

namespace benchpr::app {

void set_pending_status(const std::string& api_url, const std::string& token,
                        const PullRequestInfo& pr, const std::string& key,
                        const std::string& target_url, const Progress& progress) {
  const auto slug = github::parse_repo_slug(pr.repo);
  if (!slug || pr.head_sha.empty() || token.empty()) return;
  github::CommitStatus status;
  status.state = "pending";
  status.context = status_context(key);
  status.description = "Measuring: base and PR in interleaved rounds";
  status.target_url = target_url;
  try {
    auto client =
        make_github_client(api_url, token, [&progress](const std::string& m) { progress.line(m); });
    client->set_commit_status(slug->owner, slug->name, pr.head_sha, status);
    progress.line("commit status " + status.context + ": pending on " + short_sha(pr.head_sha));
  } catch (const github::GitHubError& e) {
    progress.line(std::string("warning: the pending commit status was not set: ") + e.what());
  }
}

}  // namespace benchpr::app
