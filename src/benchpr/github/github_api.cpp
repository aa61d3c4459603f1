// The REST calls of GitHubClient: URLs, JSON in and out, pagination, the sticky comment.
#include <nlohmann/json.hpp>

#include <algorithm>
#include <optional>
#include <set>

#include "benchpr/github/comment_body.hpp"
#include "benchpr/github/github_client.hpp"
#include "benchpr/github/link_header.hpp"

namespace benchpr::github {
namespace {

using nlohmann::json;

// Path segments come from users (--repo); GitHub's names need no escaping, anything else must not
// change the path.
std::string segment(const std::string& text) {
  static const char* hex = "0123456789ABCDEF";
  std::string out;
  for (unsigned char c : text) {
    bool unreserved = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                      c == '-' || c == '_' || c == '.' || c == '~';
    if (unreserved) {
      out += static_cast<char>(c);
    } else {
      out += '%';
      out += hex[c >> 4];
      out += hex[c & 15];
    }
  }
  return out;
}

std::string repo_path(const std::string& owner, const std::string& repo) {
  return "/repos/" + segment(owner) + "/" + segment(repo);
}

std::string string_at(const json& object, const char* key) {
  auto it = object.find(key);
  return it != object.end() && it->is_string() ? it->get<std::string>() : std::string();
}

json parse_answer(const HttpResponse& response, const std::string& what) {
  auto parsed = json::parse(response.body, nullptr, /*allow_exceptions=*/false);
  if (parsed.is_discarded()) {
    throw GitHubError(response.status, "GitHub's answer to " + what + " is not JSON");
  }
  return parsed;
}

// Runs `map` over an answer's JSON; a field of an unexpected type becomes a GitHubError.
template <typename Map>
auto mapped(const HttpResponse& response, const std::string& what, Map map) {
  json j = parse_answer(response, what);
  try {
    return map(j);
  } catch (const json::exception& e) {
    throw GitHubError(response.status,
                      "GitHub's answer to " + what + " has an unexpected shape: " + e.what());
  }
}

IssueComment comment_from(const json& j) {
  IssueComment comment;
  comment.id = j.value("id", std::int64_t{0});
  comment.body = string_at(j, "body");
  comment.html_url = string_at(j, "html_url");
  if (j.contains("user") && j["user"].is_object())
    comment.user_login = string_at(j["user"], "login");
  return comment;
}

void check_length(const std::string& body) {
  std::size_t characters = comment_characters(body);
  if (characters > kMaxCommentCharacters) {
    throw GitHubError(0, "the comment has " + std::to_string(characters) +
                             " characters, more than the " + std::to_string(kMaxCommentCharacters) +
                             " GitHub accepts; nothing was posted");
  }
}

std::string comment_payload(const std::string& body) { return json{{"body", body}}.dump(); }

}  // namespace

std::string_view to_string(StickyAction action) {
  switch (action) {
    case StickyAction::Created:
      return "created";
    case StickyAction::Updated:
      return "updated";
    case StickyAction::Unchanged:
      return "unchanged";
    case StickyAction::Skipped:
      return "skipped";
  }
  return "created";
}

PullRequest GitHubClient::get_pull_request(const std::string& owner, const std::string& repo,
                                           int number) {
  std::string path = repo_path(owner, repo) + "/pulls/" + std::to_string(number);
  return mapped(request("GET", path), "GET " + path, [number](const json& j) {
    if (!j.is_object()) throw json::type_error::create(302, "not an object", &j);
    PullRequest pr;
    pr.number = j.value("number", number);
    pr.title = string_at(j, "title");
    pr.state = string_at(j, "state");
    pr.html_url = string_at(j, "html_url");
    if (j.contains("base") && j["base"].is_object()) {
      pr.base_ref = string_at(j["base"], "ref");
      pr.base_sha = string_at(j["base"], "sha");
      if (j["base"].contains("repo") && j["base"]["repo"].is_object())
        pr.base_clone_url = string_at(j["base"]["repo"], "clone_url");
    }
    if (j.contains("head") && j["head"].is_object()) {
      const json& head = j["head"];
      pr.head_ref = string_at(head, "ref");
      pr.head_sha = string_at(head, "sha");
      if (head.contains("repo") && head["repo"].is_object()) {
        pr.head_repo_full_name = string_at(head["repo"], "full_name");
        pr.head_repo_pushed_at = string_at(head["repo"], "pushed_at");
      }
    }
    if (j.contains("labels") && j["labels"].is_array()) {
      for (const auto& label : j["labels"]) {
        if (label.is_object()) pr.labels.push_back(string_at(label, "name"));
      }
    }
    return pr;
  });
}

std::vector<IssueComment> GitHubClient::list_issue_comments(const std::string& owner,
                                                            const std::string& repo, int number) {
  std::vector<IssueComment> comments;
  std::string url =
      repo_path(owner, repo) + "/issues/" + std::to_string(number) + "/comments?per_page=100";
  std::set<std::string> seen;  // a server that links back to a page already read cannot loop us
  while (!url.empty() && seen.insert(url).second) {
    HttpResponse response = request("GET", url);
    auto page = mapped(response, "GET " + url, [](const json& j) {
      if (!j.is_array()) throw json::type_error::create(302, "not a list", &j);
      std::vector<IssueComment> items;
      for (const auto& item : j) {
        if (item.is_object()) items.push_back(comment_from(item));
      }
      return items;
    });
    comments.insert(comments.end(), page.begin(), page.end());
    url = next_link(response.header("link")).value_or("");
  }
  return comments;
}

IssueComment GitHubClient::create_comment(const std::string& owner, const std::string& repo,
                                          int number, const std::string& body,
                                          const std::function<bool()>& landed) {
  check_length(body);
  std::string path = repo_path(owner, repo) + "/issues/" + std::to_string(number) + "/comments";
  HttpResponse response = request("POST", path, comment_payload(body), landed);
  if (response.status == 0) return IssueComment{};  // landed: the caller knows which comment
  return mapped(response, "POST " + path, comment_from);
}

IssueComment GitHubClient::update_comment(const std::string& owner, const std::string& repo,
                                          std::int64_t comment_id, const std::string& body) {
  check_length(body);
  std::string path = repo_path(owner, repo) + "/issues/comments/" + std::to_string(comment_id);
  return mapped(request("PATCH", path, comment_payload(body)), "PATCH " + path, comment_from);
}

StickyResult GitHubClient::upsert_sticky_comment(const std::string& owner, const std::string& repo,
                                                 int number, const std::string& body,
                                                 const std::string& key) {
  StickyOptions options;
  options.key = key;
  return upsert_sticky_comment(owner, repo, number, body, options);
}

StickyResult GitHubClient::upsert_sticky_comment(const std::string& owner, const std::string& repo,
                                                 int number, const std::string& body,
                                                 const StickyOptions& options) {
  const std::string full_body = with_sticky_marker(body, options.key);
  check_length(full_body);  // before reading anything: fail fast and write nothing
  std::string author = options.author.empty() ? token_login() : options.author;
  auto find_own = [&]() -> std::optional<IssueComment> {
    std::vector<IssueComment> by_bots;
    for (IssueComment& existing : list_issue_comments(owner, repo, number)) {
      if (!has_sticky_marker(existing.body, options.key)) continue;
      if (!author.empty() && existing.user_login == author) return existing;
      if (author.empty() && existing.user_login.ends_with("[bot]"))
        by_bots.push_back(std::move(existing));
    }
    if (by_bots.empty()) return std::nullopt;
    // An installation token cannot read its own login (GET /user answers 403). Only apps
    // installed on the repository post as a bot, so a marked comment by one is taken for ours.
    std::vector<std::string> bots;
    for (const IssueComment& c : by_bots)
      if (std::find(bots.begin(), bots.end(), c.user_login) == bots.end())
        bots.push_back(c.user_login);
    if (bots.size() > 1 && options_.log) {
      std::string names;
      for (const std::string& b : bots) names += (names.empty() ? "" : ", ") + b;
      options_.log("warning: marked comments of key " + options.key + " by several apps (" + names +
                   ") and the token cannot tell which app it is: updating the one by " +
                   bots.front() +
                   "; pass --comment-author (action input comment-author) to name it");
    }
    return by_bots.front();
  };
  auto update = [&](const IssueComment& existing, StickyAction action) -> StickyResult {
    if (existing.body == full_body) return {action, existing.id, existing.html_url};
    IssueComment updated = update_comment(owner, repo, existing.id, full_body);
    return {action, existing.id, updated.html_url.empty() ? existing.html_url : updated.html_url};
  };
  if (auto existing = find_own()) {
    return update(*existing,
                  existing->body == full_body ? StickyAction::Unchanged : StickyAction::Updated);
  }
  if (!options.create) return {StickyAction::Skipped, 0, ""};
  // A POST that timed out or got a 5xx may still have created the comment: look before
  // sending it again.
  std::optional<IssueComment> appeared;
  auto landed = [&] {
    appeared = find_own();
    return appeared.has_value();
  };
  IssueComment created = create_comment(owner, repo, number, full_body, landed);
  if (appeared) return update(*appeared, StickyAction::Created);
  if (author.empty() && !created.user_login.empty()) {
    // GitHub's answer names the author: the login /user would not give, for later calls.
    login_ = created.user_login;
    if (options_.log)
      options_.log("benchpr's comments are by " + created.user_login +
                   " (learnt from the comment just posted; GET /user is closed to this token)");
  }
  return {StickyAction::Created, created.id, created.html_url};
}

std::string GitHubClient::graphql_url() const {
  // GitHub Enterprise Server serves REST under /api/v3 and GraphQL at /api/graphql.
  constexpr std::string_view kRestSuffix = "/api/v3";
  if (api_url_.ends_with(kRestSuffix))
    return api_url_.substr(0, api_url_.size() - kRestSuffix.size()) + "/api/graphql";
  return api_url_ + "/graphql";
}

std::string GitHubClient::token_login() {
  if (login_) return *login_;
  try {
    login_ = mapped(request("GET", "/user"), "GET /user",
                    [](const json& j) { return j.at("login").get<std::string>(); });
    return *login_;
  } catch (const GitHubError& e) {
    // Installation tokens (Actions' GITHUB_TOKEN, any GitHub App's) may not read /user.
    if (e.status() != 403) throw;
    login_ = std::string();
  }
  // GraphQL's viewer answers for installation tokens too: the app's bot account.
  try {
    const json query = {{"query", "query { viewer { login } }"}};
    const std::string login = mapped(
        request("POST", graphql_url(), query.dump()), "POST /graphql",
        [](const json& j) { return j.at("data").at("viewer").at("login").get<std::string>(); });
    // Only an installation token gets here (a user's token may read /user), and its comments
    // are by the app's bot account, which REST names `<slug>[bot]`.
    if (!login.empty()) login_ = login.ends_with("[bot]") ? login : login + "[bot]";
  } catch (const GitHubError& e) {
    // Unknown still: learnt from the first comment posted, or a marked comment by a bot.
    if (options_.log)
      options_.log(std::string("GET /user and GraphQL's viewer are closed to this token (") +
                   e.what() +
                   "); pass --comment-author (action input comment-author) to name "
                   "the account benchpr's comments are by");
  }
  return *login_;
}

void GitHubClient::set_commit_status(const std::string& owner, const std::string& repo,
                                     const std::string& sha, const CommitStatus& status) {
  json payload = {{"state", status.state}, {"context", status.context}};
  std::string description = status.description;
  if (comment_characters(description) > 140) {
    // Cut at a character boundary: GitHub refuses longer descriptions with 422.
    std::size_t bytes = 0, characters = 0;
    while (bytes < description.size() && characters < 139) {
      ++bytes;
      while (bytes < description.size() &&
             (static_cast<unsigned char>(description[bytes]) & 0xC0) == 0x80)
        ++bytes;
      ++characters;
    }
    description = description.substr(0, bytes) + "\u2026";
  }
  if (!description.empty()) payload["description"] = description;
  if (!status.target_url.empty()) payload["target_url"] = status.target_url;
  std::string path = repo_path(owner, repo) + "/statuses/" + segment(sha);
  request("POST", path, payload.dump());
}

void GitHubClient::add_reaction(const std::string& owner, const std::string& repo,
                                std::int64_t comment_id, const std::string& content) {
  std::string path =
      repo_path(owner, repo) + "/issues/comments/" + std::to_string(comment_id) + "/reactions";
  request("POST", path, json{{"content", content}}.dump());
}

}  // namespace benchpr::github
