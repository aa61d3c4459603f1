// Talking to GitHub from the commands: which repository, which token, and a client that logs its
// retries and waits as progress lines.
#pragma once

#include <functional>
#include <memory>
#include <string>

#include "benchpr/github/github_client.hpp"
#include "benchpr/github/repo_slug.hpp"

namespace benchpr::app {

// OWNER/NAME from --repo, else $GITHUB_REPOSITORY, else the URL of the origin remote
// (`origin_url` is asked only when needed). Throws UserError saying which to pass.
github::RepoSlug resolve_repo_slug(const std::string& repo_flag,
                                   const std::function<std::string()>& origin_url);

// A client on the real libcurl transport; `log` receives retry and rate-limit messages.
std::unique_ptr<github::GitHubClient> make_github_client(
    const std::string& api_url, const std::string& token,
    std::function<void(const std::string&)> log);

// Rejects a sticky-comment key the marker cannot hold (UserError).
void check_comment_key(const std::string& key);

}  // namespace benchpr::app
