// The `/benchmark` comment command on a pull request: who may start a run, which arguments it
// takes, and the reply that refuses anything else. Pure: no IO.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace benchpr::github {

struct SlashCommand {
  bool present = false;  // the comment's first line is `/benchmark` or `/benchmark ARGS`
  std::optional<int> rounds;
  std::string filter;                // a regular expression over benchmark names
  std::string budget;                // e.g. "20m"
  std::string sha;                   // sha=HEX: the head commit the commenter means (7-40 hex)
  std::vector<std::string> refused;  // arguments that are not allowed, as written
};

inline constexpr int kMinCommandRounds = 2;
inline constexpr int kMaxCommandRounds = 1000;
// The longest a GitHub-hosted job may run.
inline constexpr double kMaxCommandBudgetSeconds = 6 * 3600;

// Reads the first line of a comment. Arguments: rounds=N (2..1000), filter=REGEX (no spaces or
// quotes), budget=DURATION (30s, 20m, 1.5h; at most 6h), sha=HEX (7 to 40 hex digits, kept in
// lower case), each at most once; anything else lands in refused.
SlashCommand parse_benchmark_command(std::string_view comment_body);

// Only OWNER, MEMBER and COLLABORATOR comments start a run: a run builds and executes the pull
// request's code on the repository's runners.
bool may_start_runs(std::string_view author_association);

// The markdown reply to a command with refused arguments: what was not understood (quoted
// safely) and what is allowed.
std::string refusal_reply(const SlashCommand& command);

// Which head commit a command measures, decided from what the API says of the pull request now.
// With sha=, the pull request's head must be that commit. The bare command means the head when
// the comment was written: GitHub keeps no time for a pull request's head, so the head
// repository's last push (head.repo.pushed_at, set by GitHub, not by the commit) must be before
// the comment (comment.created_at); a later push (to any branch of that repository), or either
// time missing, refuses the command, naming the head to ask for with sha=.
struct HeadDecision {
  std::string head_sha;  // the full SHA to measure; "" when refused
  std::string reply;     // the markdown reply of a refusal
};
HeadDecision decide_head(const SlashCommand& command, const std::string& live_head_sha,
                         const std::string& head_repo_pushed_at,
                         const std::string& comment_created_at);

// Seconds since the epoch of GitHub's "2024-05-01T12:30:00Z" (an offset such as +02:00 is
// honoured); nullopt for anything else.
std::optional<long long> parse_github_time(std::string_view text);

// The `benchpr run` arguments of an accepted command for pull request `number` at the head
// commit `head_sha` (--pr-head: a push after the command is not measured).
std::vector<std::string> run_arguments(const SlashCommand& command, int number,
                                       const std::string& head_sha);

}  // namespace benchpr::github
