// GitHub REST client: the calls benchpr needs (read a pull request, find/create/update its
// sticky comment) with GitHub's etiquette built in: required headers, retries with backoff for
// server and network errors, waiting out short rate limits, spacing write requests, and error
// messages that say what to fix. Not thread-safe.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "benchpr/github/api_types.hpp"
#include "benchpr/github/github_error.hpp"
#include "benchpr/github/http.hpp"

namespace benchpr::github {

inline constexpr std::string_view kDefaultApiUrl = "https://api.github.com";

struct ClientOptions {
  std::string api_url;               // "" = $GITHUB_API_URL, else https://api.github.com
  std::string token;                 // "" = no Authorization header
  int max_attempts = 4;              // per request, first try included
  double first_backoff_seconds = 1;  // doubles after each failed attempt: 1, 2, 4
  double max_wait_seconds = 60;      // longer primary rate-limit waits fail instead
  // Secondary rate limits: a retry-after longer than this fails instead of waiting, and the
  // exponential waits without one (60 s, 120 s, 240 s, ...) stop growing here.
  double max_secondary_wait_seconds = 600;
  double min_write_interval_seconds = 1;  // GitHub asks for a pause between writes
  // Injected so tests neither wait nor depend on the real time. Defaults: the real ones.
  std::function<void(double seconds)> sleep;
  std::function<double()> now;  // seconds since the epoch
  // Told about retries and waits ("GitHub answered 502; retrying in 2 s"); never sees the token.
  std::function<void(const std::string&)> log;
};

// How long to wait after the (waits_so_far + 1)-th secondary rate limit answer of one request
// that names no retry-after: 60 s, then twice as long each time (GitHub: "wait for an
// exponentially increasing amount of time between retries"), never more than max_seconds.
double secondary_limit_wait(int waits_so_far, double max_seconds);

// The explicit URL if not empty, else $GITHUB_API_URL if set, else https://api.github.com;
// without trailing slashes. GitHub Enterprise Server is just another base: https://HOST/api/v3.
std::string resolve_api_url(std::string_view explicit_url);

// $GITHUB_TOKEN, else $GH_TOKEN, else the token held by hold_token_from_environment(), else "".
std::string token_from_environment();

// Keeps the token in memory and returns it, so the variables can be erased from the process's
// environment (root can read /proc/<pid>/environ whatever PR_SET_DUMPABLE says).
std::string hold_token_from_environment();

// Keeps `token` (read from a file benchpr was handed) as the one token_from_environment() returns
// when neither variable is set.
void hold_token(std::string token);

class GitHubClient {
 public:
  GitHubClient(std::shared_ptr<HttpTransport> transport, ClientOptions options = {});

  const std::string& api_url() const { return api_url_; }

  PullRequest get_pull_request(const std::string& owner, const std::string& repo, int number);

  // All comments of an issue or pull request, oldest first (per_page=100, following
  // `Link: rel="next"`).
  std::vector<IssueComment> list_issue_comments(const std::string& owner, const std::string& repo,
                                                int number);

  // Both refuse a body longer than kMaxCommentCharacters before sending anything.
  // `landed` (see request) makes a retried POST look for the comment it may already have made.
  IssueComment create_comment(const std::string& owner, const std::string& repo, int number,
                              const std::string& body, const std::function<bool()>& landed = {});
  IssueComment update_comment(const std::string& owner, const std::string& repo,
                              std::int64_t comment_id, const std::string& body);

  // Updates the first comment whose first line holds the marker of `key` (see comment_body.hpp)
  // and whose author is the token's own login (or options.author; when neither is known, the
  // first marked comment by a bot, with a warning when several apps made one), or creates one. A
  // marked comment by anyone else is never edited. The marker is added to `body` when missing. An
  // identical body is left alone (action Unchanged, no write request). When the POST that creates
  // the comment gets no clear answer (timeout, 5xx), the comments are listed again before it is
  // retried, and a comment that appeared meanwhile is updated instead of made twice.
  StickyResult upsert_sticky_comment(const std::string& owner, const std::string& repo, int number,
                                     const std::string& body, const StickyOptions& options);
  StickyResult upsert_sticky_comment(const std::string& owner, const std::string& repo, int number,
                                     const std::string& body, const std::string& key = "default");

  // The login the token acts as: GET /user, asked once. An installation token (Actions'
  // GITHUB_TOKEN, a GitHub App's) may not call /user (403): then GraphQL's `viewer { login }`
  // names its bot account (`my-app[bot]`). Only when both are refused: "" until a comment this
  // client posts names its author, and upsert_sticky_comment takes a marked comment by a bot
  // account for its own (with a warning when several apps made one).
  std::string token_login();

  // POST /repos/{o}/{r}/statuses/{sha}.
  void set_commit_status(const std::string& owner, const std::string& repo, const std::string& sha,
                         const CommitStatus& status);

  // POST /repos/{o}/{r}/issues/comments/{id}/reactions; content is "eyes", "rocket",
  // "confused", "+1", ...
  void add_reaction(const std::string& owner, const std::string& repo, std::int64_t comment_id,
                    const std::string& content);

  // One API request with headers, retries and rate-limit handling. `path_or_url` is a path under
  // the API base ("/repos/o/r") or an absolute URL on the same host (pagination links).
  // Returns 2xx answers; throws GitHubError otherwise.
  // `landed`, for a write that must not happen twice: asked before the request is sent again
  // after an answer that leaves open whether GitHub carried it out (no answer, a timeout, 5xx).
  // When it returns true the write did land: request() returns a response with status 0 instead
  // of sending it again.
  HttpResponse request(const std::string& method, const std::string& path_or_url,
                       const std::string& body = "", const std::function<bool()>& landed = {});

 private:
  std::string absolute_url(const std::string& path_or_url) const;
  std::string graphql_url() const;
  std::string describe(const std::string& method, const std::string& url) const;
  void wait(double seconds, const std::string& why);
  void space_writes();
  GitHubError error(long status, const std::string& message) const;

  std::shared_ptr<HttpTransport> transport_;
  ClientOptions options_;
  std::string api_url_;
  std::optional<double> last_write_;
  std::optional<std::string> login_;
};

// The login GitHub shows for comments made with Actions' GITHUB_TOKEN.
inline constexpr std::string_view kActionsBotLogin = "github-actions[bot]";

}  // namespace benchpr::github
