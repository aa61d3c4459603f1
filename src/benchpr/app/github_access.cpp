#include "benchpr/app/github_access.hpp"

#include <cstdlib>

#include <fmt/format.h>

#include "benchpr/app/user_error.hpp"
#include "benchpr/github/comment_body.hpp"
#include "benchpr/github/curl_transport.hpp"

namespace benchpr::app {

github::RepoSlug resolve_repo_slug(const std::string& repo_flag,
                                   const std::function<std::string()>& origin_url) {
  if (!repo_flag.empty()) {
    if (auto slug = github::parse_repo_slug(repo_flag)) return *slug;
    throw UserError("--repo " + repo_flag + ": expected OWNER/NAME, e.g. octo-org/widgets");
  }
  if (const char* env = std::getenv("GITHUB_REPOSITORY"); env && *env) {
    if (auto slug = github::parse_repo_slug(env)) return *slug;
    throw UserError(std::string("GITHUB_REPOSITORY=") + env + " is not OWNER/NAME");
  }
  const std::string url = origin_url ? origin_url() : std::string();
  if (auto slug = github::slug_from_remote_url(url)) return *slug;
  throw UserError(url.empty()
                      ? "which GitHub repository? pass --repo OWNER/NAME (there is no origin "
                        "remote and GITHUB_REPOSITORY is not set)"
                      : "which GitHub repository? the origin remote's URL does not name one: "
                        "pass --repo OWNER/NAME");
}

std::unique_ptr<github::GitHubClient> make_github_client(
    const std::string& api_url, const std::string& token,
    std::function<void(const std::string&)> log) {
  github::ClientOptions options;
  options.api_url = api_url;
  options.token = token;
  options.log = std::move(log);
  return std::make_unique<github::GitHubClient>(std::make_shared<github::CurlTransport>(),
                                                std::move(options));
}

void check_comment_key(const std::string& key) {
  if (!valid_comment_key(key))
    throw UserError(
        fmt::format("--key {}: use letters, digits, '.', '_' and '-' only, at most {} characters",
                    key, kMaxCommentKeyChars));
}

}  // namespace benchpr::app
