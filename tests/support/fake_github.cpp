#include "support/fake_github.hpp"

#include <httplib.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <regex>
#include <stdexcept>

namespace benchpr::testing {
namespace {

using nlohmann::json;

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

std::int64_t epoch_now() {
  return std::chrono::duration_cast<std::chrono::seconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

std::size_t characters(const std::string& text) {
  return static_cast<std::size_t>(std::count_if(text.begin(), text.end(), [](char c) {
    return (static_cast<unsigned char>(c) & 0xC0) != 0x80;
  }));
}

void send_json(httplib::Response& res, int status, const json& body) {
  res.status = status;
  res.set_content(body.dump(), "application/json; charset=utf-8");
}

void not_found(httplib::Response& res) {
  send_json(res, 404,
            {{"message", "Not Found"}, {"documentation_url", "https://docs.github.com/rest"}});
}

json comment_json(const FakeComment& c) {
  return {{"id", c.id},
          {"node_id", "IC_fake" + std::to_string(c.id)},
          {"html_url", c.html_url},
          {"body", c.body},
          {"user", {{"login", c.login}, {"type", c.login.ends_with("[bot]") ? "Bot" : "User"}}},
          {"created_at", "2024-05-01T12:00:00Z"},
          {"updated_at", "2024-05-01T12:00:00Z"}};
}

// Validates a comment request body like GitHub: JSON with a string "body" of at most 65536
// characters. Returns the body, or nullopt after answering with the error.
std::optional<std::string> comment_body_of(const httplib::Request& req, httplib::Response& res) {
  auto j = json::parse(req.body, nullptr, false);
  if (j.is_discarded() || !j.is_object()) {
    send_json(res, 400, {{"message", "Problems parsing JSON"}});
    return std::nullopt;
  }
  if (!j.contains("body") || !j["body"].is_string()) {
    send_json(res, 422, {{"message", "Invalid request.\n\n\"body\" wasn't supplied."}});
    return std::nullopt;
  }
  std::string body = j["body"].get<std::string>();
  if (characters(body) > 65536) {
    send_json(res, 422,
              {{"message", "Validation Failed"},
               {"errors",
                {{{"resource", "IssueComment"},
                  {"code", "custom"},
                  {"field", "body"},
                  {"message", "body is too long (maximum is 65536 characters)"}}}},
               {"documentation_url",
                "https://docs.github.com/rest/issues/comments#create-an-issue-comment"}});
    return std::nullopt;
  }
  return body;
}

}  // namespace

std::string RecordedRequest::header(const std::string& name) const {
  for (const auto& [key, value] : headers) {
    if (lower(key) == lower(name)) return value;
  }
  return "";
}

bool RecordedRequest::has_header(const std::string& name) const {
  return std::any_of(headers.begin(), headers.end(),
                     [&](const auto& h) { return lower(h.first) == lower(name); });
}

std::string RecordedRequest::param(const std::string& name) const {
  std::size_t pos = 0;
  while (pos <= query.size()) {
    std::size_t end = query.find('&', pos);
    if (end == std::string::npos) end = query.size();
    std::string pair = query.substr(pos, end - pos);
    std::size_t eq = pair.find('=');
    if (pair.substr(0, eq) == name) return eq == std::string::npos ? "" : pair.substr(eq + 1);
    pos = end + 1;
  }
  return "";
}

FakeGitHub::FakeGitHub(std::string token)
    : token_(std::move(token)), server_(std::make_unique<httplib::Server>()) {
  server_->set_keep_alive_timeout(1);  // so stop() does not wait on idle kept-alive connections
  // Route by hand from catch-all handlers: the request body is only read once a handler is
  // chosen, so a pre-routing handler would not see it.
  auto handler = [this](const httplib::Request& req, httplib::Response& res) { route(req, res); };
  server_->Get(".*", handler);
  server_->Post(".*", handler);
  server_->Patch(".*", handler);
  server_->Put(".*", handler);
  server_->Delete(".*", handler);
  port_ = server_->bind_to_any_port("127.0.0.1");
  if (port_ <= 0) throw std::runtime_error("FakeGitHub: cannot bind a port on 127.0.0.1");
  // bind_to_any_port already listens, so requests made before the thread runs just queue.
  thread_ = std::thread([this] { server_->listen_after_bind(); });
  // stop() is a no-op until the accept loop runs, so a destructor right after construction
  // would otherwise wait forever.
  for (int i = 0; i < 5000 && !server_->is_running(); ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  if (!server_->is_running()) {
    server_->stop();
    thread_.join();
    throw std::runtime_error("FakeGitHub: the server did not start");
  }
}

FakeGitHub::~FakeGitHub() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  stopping_changed_.notify_all();  // a held answer ends now, so stop() need not wait for it
  server_->stop();
  if (thread_.joinable()) thread_.join();
}

std::string FakeGitHub::url() const { return "http://127.0.0.1:" + std::to_string(port_); }

void FakeGitHub::add_pull_request(const std::string& repo, const FakePullRequest& pr) {
  std::lock_guard lock(mutex_);
  issues_[{repo, pr.number}].pull_request = pr;
}

std::int64_t FakeGitHub::add_comment(const std::string& repo, int number, const std::string& body,
                                     const std::string& login) {
  std::lock_guard lock(mutex_);
  FakeComment comment{next_comment_id_++, body, login, ""};
  comment.html_url = comment_url(repo, number, comment.id);
  issues_[{repo, number}].comments.push_back(comment);
  return comment.id;
}

std::vector<FakeComment> FakeGitHub::comments(const std::string& repo, int number) const {
  std::lock_guard lock(mutex_);
  auto it = issues_.find({repo, number});
  return it == issues_.end() ? std::vector<FakeComment>{} : it->second.comments;
}

void FakeGitHub::set_max_per_page(int max_per_page) {
  std::lock_guard lock(mutex_);
  max_per_page_ = std::max(1, max_per_page);
}

void FakeGitHub::fail_next(int count, int status, std::string body) {
  std::lock_guard lock(mutex_);
  for (int i = 0; i < count; ++i) faults_.push_back({status, body, {}, {}});
}

void FakeGitHub::primary_rate_limit_next(std::optional<std::int64_t> reset_epoch, int status) {
  std::lock_guard lock(mutex_);
  std::int64_t reset = reset_epoch.value_or(epoch_now() + 1);
  faults_.push_back(
      {status,
       json{{"message", "API rate limit exceeded for installation ID 1."},
            {"documentation_url",
             "https://docs.github.com/rest/overview/resources-in-the-rest-api#rate-limiting"}}
           .dump(),
       {{"x-ratelimit-limit", "5000"},
        {"x-ratelimit-remaining", "0"},
        {"x-ratelimit-used", "5000"},
        {"x-ratelimit-reset", std::to_string(reset)},
        {"x-ratelimit-resource", "core"}},
       {}});
}

void FakeGitHub::secondary_rate_limit_next(int status, int retry_after_seconds) {
  std::lock_guard lock(mutex_);
  faults_.push_back(
      {status,
       json{{"message",
             "You have exceeded a secondary rate limit. Please wait a few minutes before you try "
             "again."},
            {"documentation_url",
             "https://docs.github.com/rest/overview/resources-in-the-rest-api#secondary-rate-"
             "limits"}}
           .dump(),
       {{"retry-after", std::to_string(retry_after_seconds)}},
       {}});
}

void FakeGitHub::carry_out_then_fail_next(int status, std::chrono::milliseconds delay) {
  std::lock_guard lock(mutex_);
  faults_.push_back({status, R"({"message":"Server Error"})", {}, delay, true});
}

void FakeGitHub::set_token_login(const std::string& login) {
  std::lock_guard lock(mutex_);
  token_login_ = login;
}

void FakeGitHub::set_permission(const std::string& repo, const std::string& login,
                                const std::string& role) {
  std::lock_guard lock(mutex_);
  permissions_[{repo, login}] = role;
}

void FakeGitHub::add_token(const std::string& token, const std::vector<std::string>& writes) {
  std::lock_guard lock(mutex_);
  scoped_tokens_[token] = writes;
}

void FakeGitHub::set_graphql_viewer_closed(bool closed) {
  std::lock_guard lock(mutex_);
  graphql_viewer_closed_ = closed;
}

void FakeGitHub::set_app_token(const std::string& app_slug) {
  std::lock_guard lock(mutex_);
  token_login_.clear();
  bot_login_ = app_slug + "[bot]";
}

void FakeGitHub::too_many_requests_next(int count) {
  std::lock_guard lock(mutex_);
  for (int i = 0; i < count; ++i)
    faults_.push_back(
        {429,
         R"({"message":"Too Many Requests","documentation_url":"https://docs.github.com/rest/using-the-rest-api/rate-limits-for-the-rest-api"})",
         {},
         {}});
}

std::vector<FakeStatus> FakeGitHub::statuses() const {
  std::lock_guard lock(mutex_);
  return statuses_;
}

std::vector<FakeReaction> FakeGitHub::reactions() const {
  std::lock_guard lock(mutex_);
  return reactions_;
}

void FakeGitHub::delay_next(int count, std::chrono::milliseconds delay) {
  std::lock_guard lock(mutex_);
  for (int i = 0; i < count; ++i) faults_.push_back({0, "", {}, delay});
}

std::vector<RecordedRequest> FakeGitHub::requests() const {
  std::lock_guard lock(mutex_);
  return requests_;
}

void FakeGitHub::clear_requests() {
  std::lock_guard lock(mutex_);
  requests_.clear();
}

std::string FakeGitHub::comment_url(const std::string& repo, int number, std::int64_t id) const {
  auto it = issues_.find({repo, number});
  bool is_pull = it != issues_.end() && it->second.pull_request.has_value();
  return "https://github.com/" + repo + (is_pull ? "/pull/" : "/issues/") + std::to_string(number) +
         "#issuecomment-" + std::to_string(id);
}

void FakeGitHub::route(const httplib::Request& req, httplib::Response& res) {
  RecordedRequest record;
  record.method = req.method;
  record.path = req.path;
  auto question = req.target.find('?');
  if (question != std::string::npos) record.query = req.target.substr(question + 1);
  for (const auto& [name, value] : req.headers) record.headers.emplace_back(name, value);
  record.body = req.body;

  std::optional<Fault> fault;
  {
    std::lock_guard lock(mutex_);
    requests_.push_back(record);
    if (!faults_.empty()) {
      fault = faults_.front();
      faults_.pop_front();
    }
  }
  res.set_header("x-github-request-id", "FAKE:" + std::to_string(requests().size()));
  if (fault && fault->carry_out) {
    handle(req, res);
    if (fault->delay.count() > 0) hold(fault->delay);
    if (fault->status != 0) {
      res.status = fault->status;
      res.set_content(fault->body, "application/json; charset=utf-8");
    }
    return;
  }
  if (fault) {
    if (fault->delay.count() > 0) hold(fault->delay);
    if (fault->status != 0) {
      for (const auto& [name, value] : fault->headers) res.set_header(name, value);
      res.status = fault->status;
      res.set_content(fault->body, "application/json; charset=utf-8");
      return;
    }
  }
  handle(req, res);
}

void FakeGitHub::hold(std::chrono::milliseconds delay) {
  std::unique_lock lock(mutex_);
  stopping_changed_.wait_for(lock, delay, [this] { return stopping_; });
}

void FakeGitHub::handle(const httplib::Request& req, httplib::Response& res) {
  RecordedRequest record;
  for (const auto& [name, value] : req.headers) record.headers.emplace_back(name, value);
  // GitHub refuses requests without a User-Agent outright.
  if (!record.has_header("User-Agent")) {
    res.status = 403;
    res.set_content(
        "Request forbidden by administrative rules. Please make sure your request has a "
        "User-Agent header (https://docs.github.com/en/rest/overview/resources-in-the-rest-api"
        "#user-agent-required). Check https://developer.github.com for other possible causes.\n",
        "text/plain");
    return;
  }
  std::string auth = record.header("Authorization");
  std::optional<std::vector<std::string>> scopes;  // nullopt: the main token, which may do all
  if (auth != "Bearer " + token_ && auth != "token " + token_) {
    std::lock_guard lock(mutex_);
    const std::string given =
        auth.substr(auth.find(' ') == std::string::npos ? auth.size() : auth.find(' ') + 1);
    auto it = scoped_tokens_.find(given);
    if (given.empty() || it == scoped_tokens_.end()) {
      send_json(
          res, 401,
          {{"message", "Bad credentials"}, {"documentation_url", "https://docs.github.com/rest"}});
      return;
    }
    scopes = it->second;
  }
  const bool graphql = req.method == "POST" && req.path == "/graphql";
  if (scopes && req.method != "GET" && !graphql) {
    const std::string needed =
        req.path.find("/statuses/") != std::string::npos ? "statuses" : "pull-requests";
    if (std::find(scopes->begin(), scopes->end(), needed) == scopes->end()) {
      send_json(res, 403,
                {{"message", "Resource not accessible by integration"},
                 {"documentation_url", "https://docs.github.com/rest"}});
      return;
    }
  }
  {
    std::lock_guard lock(mutex_);
    if (rate_remaining_ > 1) --rate_remaining_;
    res.set_header("x-ratelimit-limit", "5000");
    res.set_header("x-ratelimit-remaining", std::to_string(rate_remaining_));
    res.set_header("x-ratelimit-reset", std::to_string(epoch_now() + 3600));
  }

  static const std::regex pull(R"(/repos/([^/]+/[^/]+)/pulls/(\d+))");
  static const std::regex issue_comments(R"(/repos/([^/]+/[^/]+)/issues/(\d+)/comments)");
  static const std::regex one_comment(R"(/repos/([^/]+/[^/]+)/issues/comments/(\d+))");
  static const std::regex statuses(R"(/repos/([^/]+/[^/]+)/statuses/([0-9a-f]+))");
  static const std::regex reactions(R"(/repos/([^/]+/[^/]+)/issues/comments/(\d+)/reactions)");
  static const std::regex permission(R"(/repos/([^/]+/[^/]+)/collaborators/([^/]+)/permission)");
  std::smatch m;
  const std::string& path = req.path;
  if (req.method == "GET" && std::regex_match(path, m, permission)) {
    std::lock_guard lock(mutex_);
    const auto it = permissions_.find({m[1], m[2]});
    const std::string role = it == permissions_.end() ? "read" : it->second;
    // GitHub's `permission` folds maintain into write and triage into read.
    const std::string folded = role == "maintain" ? "write" : role == "triage" ? "read" : role;
    return send_json(res, 200,
                     {{"permission", folded}, {"role_name", role}, {"user", {{"login", m[2]}}}});
  }
  if (req.method == "GET" && path == "/user") {
    std::lock_guard lock(mutex_);
    if (token_login_.empty()) {
      return send_json(res, 403,
                       {{"message", "Resource not accessible by integration"},
                        {"documentation_url",
                         "https://docs.github.com/rest/users/users#get-the-authenticated-user"}});
    }
    return send_json(res, 200, {{"login", token_login_}, {"type", "User"}});
  }
  if (graphql) {
    // Only `viewer { login }`: who the token is, installation tokens included (their app's bot
    // account). A closed viewer (set_graphql_viewer_closed) answers as GitHub does to a token
    // that may not ask: 403.
    std::lock_guard lock(mutex_);
    if (graphql_viewer_closed_)
      return send_json(res, 403, {{"message", "Resource not accessible by integration"}});
    if (req.body.find("viewer") == std::string::npos)
      return send_json(res, 200, {{"errors", {{{"message", "not served by this fake"}}}}});
    return send_json(
        res, 200,
        {{"data", {{"viewer", {{"login", token_login_.empty() ? bot_login_ : token_login_}}}}}});
  }
  if (req.method == "POST" && std::regex_match(path, m, statuses)) {
    return create_status(m[1], m[2], req, res);
  }
  if (req.method == "POST" && std::regex_match(path, m, reactions)) {
    return create_reaction(m[1], std::stoll(m[2]), req, res);
  }
  if (req.method == "GET" && std::regex_match(path, m, pull)) {
    return get_pull(m[1], std::stoi(m[2]), res);
  }
  if (std::regex_match(path, m, issue_comments)) {
    if (req.method == "GET") return list_comments(m[1], std::stoi(m[2]), req, res);
    if (req.method == "POST") return create_comment(m[1], std::stoi(m[2]), req, res);
  }
  if (req.method == "PATCH" && std::regex_match(path, m, one_comment)) {
    return edit_comment(m[1], std::stoll(m[2]), req, res);
  }
  not_found(res);
}

void FakeGitHub::get_pull(const std::string& repo, int number, httplib::Response& res) {
  std::lock_guard lock(mutex_);
  auto it = issues_.find({repo, number});
  if (it == issues_.end() || !it->second.pull_request) return not_found(res);
  const FakePullRequest& pr = *it->second.pull_request;
  json labels = json::array();
  for (const auto& name : pr.labels) labels.push_back({{"name", name}, {"color", "ededed"}});
  json head_repo = nullptr;
  if (pr.head_repo) {
    std::string full = pr.head_repo->empty() ? repo : *pr.head_repo;
    head_repo = {{"full_name", full},
                 {"name", full.substr(full.find('/') + 1)},
                 {"pushed_at", pr.head_pushed_at}};
  }
  json body = {
      {"url", url() + "/repos/" + repo + "/pulls/" + std::to_string(number)},
      {"number", number},
      {"state", pr.state},
      {"title", pr.title},
      {"html_url", "https://github.com/" + repo + "/pull/" + std::to_string(number)},
      {"user", {{"login", "contributor"}}},
      {"labels", labels},
      {"draft", false},
      {"base",
       {{"label", "owner:" + pr.base_ref},
        {"ref", pr.base_ref},
        {"sha", pr.base_sha},
        {"repo",
         {{"full_name", repo},
          {"name", repo.substr(repo.find('/') + 1)},
          {"clone_url",
           pr.clone_url.empty() ? "https://github.com/" + repo + ".git" : pr.clone_url}}}}},
      {"head",
       {{"label", "contributor:" + pr.head_ref},
        {"ref", pr.head_ref},
        {"sha", pr.head_sha},
        {"repo", head_repo}}},
  };
  send_json(res, 200, body);
}

void FakeGitHub::list_comments(const std::string& repo, int number, const httplib::Request& req,
                               httplib::Response& res) {
  std::lock_guard lock(mutex_);
  auto it = issues_.find({repo, number});
  if (it == issues_.end()) return not_found(res);
  auto int_param = [&req](const char* name, int fallback) {
    if (!req.has_param(name)) return fallback;
    try {
      return std::stoi(req.get_param_value(name));
    } catch (const std::exception&) {
      return fallback;
    }
  };
  int per_page = std::clamp(int_param("per_page", 30), 1, max_per_page_);
  int page = std::max(1, int_param("page", 1));
  const auto& all = it->second.comments;
  int count = static_cast<int>(all.size());
  int last_page = std::max(1, (count + per_page - 1) / per_page);

  json items = json::array();
  for (int i = (page - 1) * per_page; i < std::min(count, page * per_page); ++i) {
    items.push_back(comment_json(all[static_cast<std::size_t>(i)]));
  }
  auto page_url = [&](int p) {
    return "<" + url() + req.path + "?per_page=" + std::to_string(per_page) +
           "&page=" + std::to_string(p) + ">";
  };
  std::vector<std::string> links;
  if (page > 1) links.push_back(page_url(page - 1) + "; rel=\"prev\"");
  if (page < last_page) links.push_back(page_url(page + 1) + "; rel=\"next\"");
  if (page < last_page) links.push_back(page_url(last_page) + "; rel=\"last\"");
  if (page > 1) links.push_back(page_url(1) + "; rel=\"first\"");
  if (!links.empty()) {
    std::string header;
    for (const auto& link : links) header += (header.empty() ? "" : ", ") + link;
    res.set_header("Link", header);
  }
  send_json(res, 200, items);
}

void FakeGitHub::create_comment(const std::string& repo, int number, const httplib::Request& req,
                                httplib::Response& res) {
  auto body = comment_body_of(req, res);
  if (!body) return;
  std::lock_guard lock(mutex_);
  auto it = issues_.find({repo, number});
  if (it == issues_.end()) return not_found(res);
  FakeComment comment{next_comment_id_++, *body, token_login_.empty() ? bot_login_ : token_login_,
                      ""};
  comment.html_url = comment_url(repo, number, comment.id);
  it->second.comments.push_back(comment);
  res.set_header("Location",
                 url() + "/repos/" + repo + "/issues/comments/" + std::to_string(comment.id));
  send_json(res, 201, comment_json(comment));
}

void FakeGitHub::create_status(const std::string& repo, const std::string& sha,
                               const httplib::Request& req, httplib::Response& res) {
  auto j = json::parse(req.body, nullptr, false);
  static const std::vector<std::string> states = {"error", "failure", "pending", "success"};
  if (j.is_discarded() || !j.is_object() || !j.contains("state") || !j["state"].is_string() ||
      std::find(states.begin(), states.end(), j["state"].get<std::string>()) == states.end()) {
    return send_json(res, 422, {{"message", "Validation Failed"}});
  }
  std::string description = j.value("description", std::string());
  if (characters(description) > 140) {
    return send_json(res, 422,
                     {{"message", "Validation Failed"},
                      {"errors",
                       {{{"resource", "Status"},
                         {"code", "custom"},
                         {"field", "description"},
                         {"message", "description is too long (maximum is 140 characters)"}}}}});
  }
  std::lock_guard lock(mutex_);
  (void)repo;
  FakeStatus status{sha, j["state"], j.value("context", std::string("default")), description,
                    j.value("target_url", std::string())};
  statuses_.push_back(status);
  send_json(res, 201,
            {{"state", status.state},
             {"context", status.context},
             {"description", status.description},
             {"target_url", status.target_url}});
}

void FakeGitHub::create_reaction(const std::string& repo, std::int64_t id,
                                 const httplib::Request& req, httplib::Response& res) {
  auto j = json::parse(req.body, nullptr, false);
  if (j.is_discarded() || !j.is_object() || !j.contains("content") || !j["content"].is_string())
    return send_json(res, 422, {{"message", "Validation Failed"}});
  std::lock_guard lock(mutex_);
  for (const auto& [key, issue] : issues_) {
    if (key.first != repo) continue;
    for (const auto& comment : issue.comments) {
      if (comment.id != id) continue;
      reactions_.push_back({id, j["content"]});
      return send_json(res, 201, {{"id", reactions_.size()}, {"content", j["content"]}});
    }
  }
  not_found(res);
}

void FakeGitHub::edit_comment(const std::string& repo, std::int64_t id, const httplib::Request& req,
                              httplib::Response& res) {
  auto body = comment_body_of(req, res);
  if (!body) return;
  std::lock_guard lock(mutex_);
  for (auto& [key, issue] : issues_) {
    if (key.first != repo) continue;
    for (auto& comment : issue.comments) {
      if (comment.id != id) continue;
      comment.body = *body;
      return send_json(res, 200, comment_json(comment));
    }
  }
  not_found(res);
}

}  // namespace benchpr::testing
