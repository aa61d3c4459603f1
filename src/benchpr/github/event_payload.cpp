#include "benchpr/github/event_payload.hpp"

#include <nlohmann/json.hpp>

#include <fstream>
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
  auto number = pr->find("number");
  if (number == pr->end() || !number->is_number_integer()) {
    throw EventError("the event's pull_request has no number");
  }
  event.number = number->get<int>();
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
  event.run_id = run->value("id", std::int64_t{0});
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
      if (pr.is_object() && pr.contains("number") && pr["number"].is_number_integer()) {
        event.pull_request_numbers.push_back(pr["number"].get<int>());
      }
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
  auto number = issue->find("number");
  if (number == issue->end() || !number->is_number_integer())
    throw EventError("the event's issue has no number");
  event.number = number->get<int>();
  event.on_pull_request = object_at(*issue, "pull_request") != nullptr;
  auto id = comment->find("id");
  if (id == comment->end() || !id->is_number_integer())
    throw EventError("the event's comment has no id");
  event.comment_id = id->get<std::int64_t>();
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
