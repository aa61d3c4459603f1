// The parts of GitHub's REST answers that benchpr uses.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace benchpr::github {

struct PullRequest {
  int number = 0;
  std::string title;
  std::string state;  // "open" or "closed"
  std::string html_url;
  std::string base_ref;
  std::string base_sha;
  std::string base_clone_url;  // base.repo.clone_url: where the pull request's refs are fetched
  std::string head_ref;
  std::string head_sha;
  std::string head_repo_full_name;  // empty when head.repo is null (the fork was deleted)
  // head.repo.pushed_at: when GitHub last took a push to the head repository (any branch), as
  // GitHub writes it ("2024-05-01T12:30:00Z"); "" when not given.
  std::string head_repo_pushed_at;
  std::vector<std::string> labels;
};

struct IssueComment {
  std::int64_t id = 0;  // comment ids no longer fit in 32 bits
  std::string body;
  std::string html_url;
  std::string user_login;
};

// Skipped: there was no comment to update and the caller allowed none to be created.
enum class StickyAction { Created, Updated, Unchanged, Skipped };
// "created", "updated", "unchanged", "skipped"
std::string_view to_string(StickyAction action);

// Which comment is benchpr's own: the marker of `key` on the first line AND written by `author`.
// Anyone can post a comment that starts with the marker; only the token's own comment is edited.
struct StickyOptions {
  std::string key = "default";
  std::string author;  // "" = the token's login (GitHubClient::token_login)
  bool create = true;  // false: update an existing comment only (comment policy on-change)
};

// A commit status (GET/POST /repos/{o}/{r}/statuses/{sha}); branch protection can require it.
struct CommitStatus {
  std::string state;        // "success", "failure", "error" or "pending"
  std::string context;      // "benchpr" or "benchpr/KEY"
  std::string description;  // at most 140 characters (cut here when longer)
  std::string target_url;   // "" = none
};

struct StickyResult {
  StickyAction action = StickyAction::Created;
  std::int64_t id = 0;
  std::string html_url;
};

}  // namespace benchpr::github
