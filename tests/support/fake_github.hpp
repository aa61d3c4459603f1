// A fake GitHub REST API on 127.0.0.1 for tests: behaves like GitHub where benchpr depends on it
// (token and User-Agent checks, pull requests, paginated issue comments with Link headers,
// creating and editing comments, the 65536-character limit, 404s) and can inject failures
// (5xx, primary and secondary rate limits, slow answers). Every request is recorded.
// Thread-safe: the server answers from its own threads.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace httplib {
class Server;
struct Request;
struct Response;
}  // namespace httplib

namespace benchpr::testing {

struct RecordedRequest {
  std::string method;
  std::string path;                                          // without the query
  std::string query;                                         // "per_page=100&page=2", as sent
  std::vector<std::pair<std::string, std::string>> headers;  // as received
  std::string body;

  std::string header(const std::string& name) const;  // case-insensitive; "" when absent
  bool has_header(const std::string& name) const;
  std::string param(const std::string& name) const;  // from the query; "" when absent
};

struct FakePullRequest {
  int number = 1;
  std::string title = "Speed up the parser";
  std::string state = "open";
  std::vector<std::string> labels;
  std::string base_ref = "main";
  std::string base_sha = "1111111111111111111111111111111111111111";
  std::string head_ref = "feature";
  std::string head_sha = "2222222222222222222222222222222222222222";
  // Full name of the head repository; "" means the base repository itself, nullopt makes
  // head.repo null as for a deleted fork.
  std::optional<std::string> head_repo = "";
  // head.repo.pushed_at: when the head repository last took a push.
  std::string head_pushed_at = "2024-01-01T00:00:00Z";
  // base.repo.clone_url; "" reports https://github.com/OWNER/NAME.git as GitHub does.
  std::string clone_url;
};

struct FakeComment {
  std::int64_t id = 0;
  std::string body;
  std::string login;
  std::string html_url;
};

struct FakeStatus {
  std::string sha;
  std::string state;
  std::string context;
  std::string description;
  std::string target_url;
};

struct FakeReaction {
  std::int64_t comment_id = 0;
  std::string content;  // "eyes", "rocket", "confused", ...
};

class FakeGitHub {
 public:
  explicit FakeGitHub(std::string token = "ghs_FakeTokenFor_benchpr_Tests_0123456789");
  ~FakeGitHub();
  FakeGitHub(const FakeGitHub&) = delete;
  FakeGitHub& operator=(const FakeGitHub&) = delete;

  std::string url() const;  // "http://127.0.0.1:PORT"
  // Another valid token that may write only where `writes` says: "pull-requests" (comments,
  // reactions) and "statuses"; any other write gets 403 "Resource not accessible by
  // integration", as GitHub answers a job whose `permissions:` lack it (or a fork's read-only
  // pull_request token, with no writes at all).
  void add_token(const std::string& token, const std::vector<std::string>& writes);
  const std::string& token() const { return token_; }

  // repo is "owner/name".
  void add_pull_request(const std::string& repo, const FakePullRequest& pr);
  // Pre-seeds a comment (also makes issue `number` exist); returns its id.
  std::int64_t add_comment(const std::string& repo, int number, const std::string& body,
                           const std::string& login = "octocat");
  // Who the token is for GET /user. Default "": answer 403 "Resource not accessible by
  // integration", as GitHub does for Actions' GITHUB_TOKEN (whose comments are by
  // github-actions[bot]). A login makes the token a user's: /user names it and new comments are
  // by it.
  void set_token_login(const std::string& login);
  // GET /repos/{repo}/collaborators/{login}/permission answers `permission` (admin, maintain,
  // write, triage, read); a login not set here has read permission, as anyone has on a public
  // repository.
  void set_permission(const std::string& repo, const std::string& login, const std::string& role);
  // App-token mode: the token is a GitHub App's installation token. GET /user answers 403 (as
  // for any installation token) and new comments are by "<app_slug>[bot]", not
  // github-actions[bot], so a client that assumes the Actions bot never finds its own comment.
  void set_app_token(const std::string& app_slug);
  // POST /graphql answers `viewer { login }` with the token's login (the bot account for an
  // installation token); closed, it answers 403 as for a token that may not ask.
  void set_graphql_viewer_closed(bool closed);
  std::vector<FakeStatus> statuses() const;
  std::vector<FakeReaction> reactions() const;
  std::vector<FakeComment> comments(const std::string& repo, int number) const;

  // GitHub caps per_page at 100; tests can lower the cap to force pagination.
  void set_max_per_page(int max_per_page);

  // Faults, consumed one per request in the order they were added.
  void fail_next(int count, int status = 502, std::string body = R"({"message":"Server Error"})");
  // 403 (or 429) with x-ratelimit-remaining: 0 and x-ratelimit-reset (default: now + 1 s).
  void primary_rate_limit_next(std::optional<std::int64_t> reset_epoch = std::nullopt,
                               int status = 403);
  // 403 (or 429) with retry-after and GitHub's "secondary rate limit" message.
  void secondary_rate_limit_next(int status = 403, int retry_after_seconds = 1);
  // 429 with neither retry-after nor x-ratelimit-remaining: 0 (GitHub asks to wait at least a
  // minute then).
  void too_many_requests_next(int count = 1);
  // The next `count` requests are answered normally, but only after `delay` (or when the fake
  // is destroyed, whichever comes first: a test can hold an answer for longer than any client
  // waits without waiting that long itself).
  void delay_next(int count, std::chrono::milliseconds delay);
  // The next request is carried out (a POST stores its comment) and then answered with `status`
  // (e.g. 502) instead of its real answer; with status 0, answered only after `delay` (so a
  // client with a shorter timeout gives up although the write landed).
  void carry_out_then_fail_next(int status, std::chrono::milliseconds delay = {});

  std::vector<RecordedRequest> requests() const;
  void clear_requests();

 private:
  struct Fault {
    int status = 0;  // 0 = only a delay
    std::string body;
    std::vector<std::pair<std::string, std::string>> headers;
    std::chrono::milliseconds delay{0};
    bool carry_out = false;  // handle the request, then answer with the fault
  };
  struct Issue {
    std::optional<FakePullRequest> pull_request;
    std::vector<FakeComment> comments;
  };

  void route(const httplib::Request& req, httplib::Response& res);
  void get_pull(const std::string& repo, int number, httplib::Response& res);
  void list_comments(const std::string& repo, int number, const httplib::Request& req,
                     httplib::Response& res);
  void create_comment(const std::string& repo, int number, const httplib::Request& req,
                      httplib::Response& res);
  void edit_comment(const std::string& repo, std::int64_t id, const httplib::Request& req,
                    httplib::Response& res);
  void create_status(const std::string& repo, const std::string& sha, const httplib::Request& req,
                     httplib::Response& res);
  void create_reaction(const std::string& repo, std::int64_t id, const httplib::Request& req,
                       httplib::Response& res);
  void handle(const httplib::Request& req, httplib::Response& res);
  void hold(std::chrono::milliseconds delay);
  std::string comment_url(const std::string& repo, int number, std::int64_t id) const;

  std::string token_;
  std::unique_ptr<httplib::Server> server_;
  int port_ = 0;
  std::thread thread_;

  mutable std::mutex mutex_;
  std::condition_variable stopping_changed_;
  bool stopping_ = false;
  std::map<std::pair<std::string, int>, Issue> issues_;
  std::deque<Fault> faults_;
  std::vector<RecordedRequest> requests_;
  std::int64_t next_comment_id_ = 5'000'000'001;  // beyond 32 bits, like GitHub's today
  int max_per_page_ = 100;
  int rate_remaining_ = 5000;
  std::string token_login_;
  std::map<std::string, std::vector<std::string>> scoped_tokens_;
  std::string bot_login_ = "github-actions[bot]";
  bool graphql_viewer_closed_ = false;  // who comments when /user answers 403
  std::vector<FakeStatus> statuses_;
  std::map<std::pair<std::string, std::string>, std::string> permissions_;  // (repo, login)
  std::vector<FakeReaction> reactions_;
};

}  // namespace benchpr::testing
