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
  std::string head_ref;
  std::string head_sha;
  std::string head_repo_full_name;  // empty when head.repo is null (the fork was deleted)
  std::vector<std::string> labels;
};

struct IssueComment {
  std::int64_t id = 0;  // comment ids no longer fit in 32 bits
  std::string body;
  std::string html_url;
  std::string user_login;
};

enum class StickyAction { Created, Updated, Unchanged };
std::string_view to_string(StickyAction action);  // "created", "updated", "unchanged"

struct StickyResult {
  StickyAction action = StickyAction::Created;
  std::int64_t id = 0;
  std::string html_url;
};

}  // namespace benchpr::github
