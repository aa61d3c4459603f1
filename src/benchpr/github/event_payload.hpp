// The GitHub Actions event that started the job (the JSON file at $GITHUB_EVENT_PATH).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "benchpr/core/base/error.hpp"

namespace benchpr::github {

// The payload is unreadable or not of the expected event.
class EventError : public Error {
 public:
  explicit EventError(const std::string& message) : Error(ErrorCategory::Input, message) {}
};

struct PullRequestEvent {
  std::string action;  // "opened", "synchronize", "reopened", "labeled", ...
  int number = 0;
  std::string title;
  std::string html_url;
  std::string base_sha;
  std::string base_ref;
  std::string head_sha;
  std::string head_ref;
  std::string repo_full_name;       // the base repository, where the comment goes
  std::string head_repo_full_name;  // "" when the fork was deleted; differs from repo for forks
  std::vector<std::string> labels;
  bool from_fork() const { return head_repo_full_name != repo_full_name; }
};

// A `pull_request` or `pull_request_target` payload. Throws EventError when the JSON is invalid
// or holds no pull request (a `push` event, say), naming what is missing. Every number read
// (pull request, issue, comment, run) is a positive integer in range, or not read at all.
PullRequestEvent parse_pull_request_event(std::string_view json_text);

// The part of a `workflow_run` payload that a publishing job needs to check what it is told by
// the run that produced the results (which ran untrusted code).
struct WorkflowRunEvent {
  std::int64_t run_id = 0;  // 0 when the payload gives none
  std::string name;
  std::string event;       // the triggering event of that run, e.g. "pull_request"
  std::string conclusion;  // "success", "failure", ...
  std::string html_url;
  std::string head_sha;
  std::string head_branch;
  std::string head_repo_full_name;
  std::string repo_full_name;
  std::vector<int> pull_request_numbers;  // empty for pull requests from forks
};

WorkflowRunEvent parse_workflow_run_event(std::string_view json_text);

// An `issue_comment` payload: a comment on an issue or pull request (the `/benchmark` command).
struct IssueCommentEvent {
  std::string action;  // "created", "edited", "deleted"
  int number = 0;      // the issue or pull request
  bool on_pull_request = false;
  std::int64_t comment_id = 0;
  std::string body;
  std::string author;              // the commenter's login
  std::string author_association;  // "OWNER", "MEMBER", "COLLABORATOR", "CONTRIBUTOR", "NONE", ...
  std::string repo_full_name;
  std::string created_at;  // comment.created_at, as GitHub writes it; "" when absent
};

IssueCommentEvent parse_issue_comment_event(std::string_view json_text);

// Reads the whole file (e.g. $GITHUB_EVENT_PATH); throws EventError naming the path.
std::string read_event_file(const std::string& path);

}  // namespace benchpr::github
