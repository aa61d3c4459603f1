// libFuzzer target: the `/benchmark` comment command, written by anyone who may comment on a pull
// request. Any comment must end in a command whose accepted arguments are in range (a budget that
// `benchpr run --budget` reads alike, a lower-case sha) and a refusal reply of valid UTF-8 whose
// quotes of the comment stay in their code spans; the time check never takes a malformed time.
#include <cctype>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "benchpr/config/config_parser.hpp"
#include "benchpr/core/base/valid_utf8.hpp"
#include "benchpr/github/benchmark_comment.hpp"
#include "fuzz_check.hpp"

namespace {

bool is_digit(char c) { return c >= '0' && c <= '9'; }

// GitHub's times have digits where the date and time have them, whatever follows the seconds.
bool digits_where_a_time_has_them(std::string_view t) {
  for (std::size_t i : {0, 1, 2, 3, 5, 6, 8, 9, 11, 12, 14, 15, 17, 18})
    if (i >= t.size() || !is_digit(t[i])) return false;
  return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace benchpr::github;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const SlashCommand c = parse_benchmark_command(text);
  if (!c.present) {
    FUZZ_CHECK(!c.rounds && c.filter.empty() && c.budget.empty() && c.sha.empty() &&
               c.refused.empty());
  }
  if (c.rounds) FUZZ_CHECK(*c.rounds >= kMinCommandRounds && *c.rounds <= kMaxCommandRounds);
  if (!c.budget.empty()) {
    const auto seconds = benchpr::config::parse_duration(c.budget);
    FUZZ_CHECK(seconds && *seconds > 0 && *seconds <= kMaxCommandBudgetSeconds);
  }
  if (!c.sha.empty()) {
    FUZZ_CHECK(c.sha.size() >= 7 && c.sha.size() <= 40);
    for (char ch : c.sha) FUZZ_CHECK(is_digit(ch) || (ch >= 'a' && ch <= 'f'));
  }
  for (char ch : c.filter) FUZZ_CHECK(ch != ' ' && ch != '\'' && ch != '"' && ch != '`');
  for (const std::string& word : c.refused) {
    FUZZ_CHECK(!word.empty());
    for (char ch : word) FUZZ_CHECK(!std::isspace(static_cast<unsigned char>(ch)));
  }
  if (!c.refused.empty()) {
    const std::string reply = refusal_reply(c);
    FUZZ_CHECK(benchpr::is_valid_utf8(reply));
    // Five quoted words at most, each within 60 bytes and its ellipsis: the reply is bounded
    // whatever the comment's length.
    FUZZ_CHECK(reply.size() < 1200);
  }

  // The same bytes as the two times decide_head compares, cut in two.
  const std::string_view pushed = text.substr(0, size / 2), commented = text.substr(size / 2);
  for (std::string_view t : {text, pushed, commented})
    if (parse_github_time(t)) FUZZ_CHECK(digits_where_a_time_has_them(t));
  const std::string head = "0123456789abcdef0123456789abcdef01234567";
  const HeadDecision d = decide_head(c, head, std::string(pushed), std::string(commented));
  FUZZ_CHECK(d.head_sha.empty() != d.reply.empty());
  FUZZ_CHECK(d.head_sha.empty() || d.head_sha == head);
  FUZZ_CHECK(benchpr::is_valid_utf8(d.reply));
  return 0;
}
