#include "benchpr/github/event_payload.hpp"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <fstream>
#include <limits>
#include <optional>
#include <sstream>

namespace benchpr::github {
namespace {

using nlohmann::json;

json parse(std::string_view text) {
  auto j = json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded() || !j.is_object())
    throw EventError("the event payload is not a JSON object");
  return j;
}

std::string string_at(const json& object, const char* key) {
  auto it = object.find(key);
  return it != object.end() && it->is_string() ? it->get<std::string>() : std::string();
}

const json* object_at(const json& object, const char* key) {
  auto it = object.find(key);
  return it != object.end() && it->is_object() ? &*it : nullptr;
}

// A pull request, issue, comment or run number: a positive integer that fits T, else nothing
// (absent, another type, or out of range). Never a value cut to fit: 4294967303 read as an int is
// pull request 7, and a float read as an integer is undefined behaviour.
template <class T>
std::optional<T> positive_at(const json& object, const char* key) {
  auto it = object.find(key);
  if (it == object.end()) return std::nullopt;
  constexpr auto kMax = static_cast<std::uint64_t>(std::numeric_limits<T>::max());
  if (it->is_number_unsigned()) {
    const auto v = it->get<std::uint64_t>();
    if (v == 0 || v > kMax) return std::nullopt;
    return static_cast<T>(v);
  }
  if (it->is_number_integer()) {
    const auto v = it->get<std::int64_t>();
    if (v <= 0 || static_cast<std::uint64_t>(v) > kMax) return std::nullopt;
    return static_cast<T>(v);
  }
  return std::nullopt;
}

}  // namespace

PullRequestEvent parse_pull_request_event(std::string_view json_text) {
  json j = parse(json_text);
  const json* pr = object_at(j, "pull_request");
  if (pr == nullptr) {
    throw EventError(
        "the event payload has no \"pull_request\" object: run benchpr on pull_request events, "
        "or pass --pr NUMBER");
  }
  PullRequestEvent event;
  event.action = string_at(j, "action");
  const std::optional<int> number = positive_at<int>(*pr, "number");
  if (!number) throw EventError("the event's pull_request has no number (a positive integer)");
  event.number = *number;
  event.title = string_at(*pr, "title");
  event.html_url = string_at(*pr, "html_url");
  const json* base = object_at(*pr, "base");
  const json* head = object_at(*pr, "head");
  if (base == nullptr || head == nullptr) {
    throw EventError("the event's pull_request has no base or head");
  }
  event.base_sha = string_at(*base, "sha");
  event.base_ref = string_at(*base, "ref");
  event.head_sha = string_at(*head, "sha");
  event.head_ref = string_at(*head, "ref");
  if (event.base_sha.empty() || event.head_sha.empty()) {
    throw EventError("the event's pull_request lacks base.sha or head.sha");
  }
  if (const json* repo = object_at(*head, "repo"))
    event.head_repo_full_name = string_at(*repo, "full_name");
  if (const json* repo = object_at(j, "repository")) {
    event.repo_full_name = string_at(*repo, "full_name");
  } else if (const json* repo = object_at(*base, "repo")) {
    event.repo_full_name = string_at(*repo, "full_name");
  }
  if (auto labels = pr->find("labels"); labels != pr->end() && labels->is_array()) {
    for (const auto& label : *labels) {
      if (label.is_object()) event.labels.push_back(string_at(label, "name"));
    }
  }
  return event;
}

WorkflowRunEvent parse_workflow_run_event(std::string_view json_text) {
  json j = parse(json_text);
  const json* run = object_at(j, "workflow_run");
  if (run == nullptr) throw EventError("the event payload has no \"workflow_run\" object");
  WorkflowRunEvent event;
  event.run_id = positive_at<std::int64_t>(*run, "id").value_or(0);  // 0: not said
  event.name = string_at(*run, "name");
  event.event = string_at(*run, "event");
  event.conclusion = string_at(*run, "conclusion");
  event.html_url = string_at(*run, "html_url");
  event.head_sha = string_at(*run, "head_sha");
  event.head_branch = string_at(*run, "head_branch");
  if (const json* repo = object_at(*run, "head_repository")) {
    event.head_repo_full_name = string_at(*repo, "full_name");
  }
  if (const json* repo = object_at(j, "repository"))
    event.repo_full_name = string_at(*repo, "full_name");
  if (auto prs = run->find("pull_requests"); prs != run->end() && prs->is_array()) {
    for (const auto& pr : *prs) {
      if (!pr.is_object()) continue;
      if (const std::optional<int> number = positive_at<int>(pr, "number"))
        event.pull_request_numbers.push_back(*number);
    }
  }
  return event;
}

IssueCommentEvent parse_issue_comment_event(std::string_view json_text) {
  json j = parse(json_text);
  const json* issue = object_at(j, "issue");
  const json* comment = object_at(j, "comment");
  if (issue == nullptr || comment == nullptr)
    throw EventError("the event payload has no \"issue\" and \"comment\" objects");
  IssueCommentEvent event;
  event.action = string_at(j, "action");
  const std::optional<int> number = positive_at<int>(*issue, "number");
  if (!number) throw EventError("the event's issue has no number (a positive integer)");
  event.number = *number;
  event.on_pull_request = object_at(*issue, "pull_request") != nullptr;
  const std::optional<std::int64_t> id = positive_at<std::int64_t>(*comment, "id");
  if (!id) throw EventError("the event's comment has no id (a positive integer)");
  event.comment_id = *id;
  event.body = string_at(*comment, "body");
  event.author_association = string_at(*comment, "author_association");
  event.created_at = string_at(*comment, "created_at");
  if (const json* user = object_at(*comment, "user")) event.author = string_at(*user, "login");
  if (const json* repo = object_at(j, "repository"))
    event.repo_full_name = string_at(*repo, "full_name");
  return event;
}

std::string read_event_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw EventError("cannot read the event payload " + path);
  std::ostringstream content;
  content << in.rdbuf();
  return content.str();
}

}  // namespace benchpr::github
