#include "benchpr/github/benchmark_comment.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>

#include "benchpr/core/base/valid_utf8.hpp"

namespace benchpr::github {
namespace {

constexpr std::string_view kCommand = "/benchmark";

std::vector<std::string> words(std::string_view line) {
  std::vector<std::string> out;
  std::size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && std::isspace(static_cast<unsigned char>(line[i]))) ++i;
    std::size_t start = i;
    while (i < line.size() && !std::isspace(static_cast<unsigned char>(line[i]))) ++i;
    if (i > start) out.emplace_back(line.substr(start, i - start));
  }
  return out;
}

std::optional<int> small_int(std::string_view text) {
  int value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value;
}

// Characters of a regular expression over benchmark names; no quotes, backslashes, backticks
// or spaces, so the value stays one plain argument wherever it goes.
bool filter_ok(std::string_view text) {
  if (text.empty() || text.size() > 200) return false;
  return std::all_of(text.begin(), text.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) ||
           std::string_view("_/.:*+?^$|()[]{}<>=,-").find(c) != std::string_view::npos;
  });
}

// 30, 30s, 20m, 1.5h: digits, at most one dot, an optional unit; more than zero and at most
// kMaxCommandBudgetSeconds (a budget no runner can spend is no budget).
bool budget_ok(std::string_view text) {
  if (text.empty() || text.size() > 12) return false;
  std::string_view number = text;
  double unit = 1;
  if (const char u = text.back(); std::string_view("smh").find(u) != std::string_view::npos) {
    number.remove_suffix(1);
    unit = u == 'h' ? 3600 : u == 'm' ? 60 : 1;
  }
  if (number.empty() || number.front() == '.' || number.back() == '.') return false;
  int dots = 0;
  for (char c : number) {
    if (c == '.') {
      ++dots;
    } else if (!std::isdigit(static_cast<unsigned char>(c))) {
      return false;
    }
  }
  if (dots > 1 || number.find_first_not_of("0.") == std::string_view::npos) return false;
  double value = 0;
  auto [end, ec] = std::from_chars(number.data(), number.data() + number.size(), value);
  return ec == std::errc() && end == number.data() + number.size() &&
         value * unit <= kMaxCommandBudgetSeconds;
}

// For quoting untrusted text in a code span: no backticks, no line breaks, at most 60 bytes, cut
// between two characters (a cut inside one would leave GitHub a broken character to show).
std::string code_span(std::string_view text) {
  constexpr std::size_t kMaxBytes = 60;
  std::string out;
  for (std::size_t i = 0; i < text.size();) {
    const std::size_t n = utf8_sequence_length(text, i);
    if (out.size() + std::max<std::size_t>(n, 1) > kMaxBytes) {
      out += "…";
      break;
    }
    if (n == 0) {  // not UTF-8 (GitHub sends none; a test might)
      out += '?';
      ++i;
      continue;
    }
    const char c = text[i];
    if (n == 1)
      out += (c == '`' || c == '\n' || c == '\r') ? '?' : c;
    else
      out.append(text.substr(i, n));
    i += n;
  }
  return "`" + out + "`";
}

}  // namespace

SlashCommand parse_benchmark_command(std::string_view body) {
  SlashCommand command;
  std::string_view line = body.substr(0, body.find('\n'));
  while (!line.empty() && std::isspace(static_cast<unsigned char>(line.front())))
    line.remove_prefix(1);
  if (!line.starts_with(kCommand)) return command;
  std::string_view rest = line.substr(kCommand.size());
  if (!rest.empty() && !std::isspace(static_cast<unsigned char>(rest.front())))
    return command;  // /benchmarks, /benchmarking: not this command
  command.present = true;
  for (const std::string& word : words(rest)) {
    const std::size_t eq = word.find('=');
    const std::string key = word.substr(0, eq);
    const std::string value = eq == std::string::npos ? "" : word.substr(eq + 1);
    bool ok = eq != std::string::npos;
    if (ok && key == "rounds" && !command.rounds) {
      auto n = small_int(value);
      ok = n && *n >= kMinCommandRounds && *n <= kMaxCommandRounds;
      if (ok) command.rounds = n;
    } else if (ok && key == "filter" && command.filter.empty()) {
      ok = filter_ok(value);
      if (ok) command.filter = value;
    } else if (ok && key == "budget" && command.budget.empty()) {
      ok = budget_ok(value);
      if (ok) command.budget = value;
    } else if (ok && key == "sha" && command.sha.empty()) {
      ok = value.size() >= 7 && value.size() <= 40 &&
           std::all_of(value.begin(), value.end(),
                       [](char c) { return std::isxdigit(static_cast<unsigned char>(c)); });
      if (ok)
        for (char c : value) command.sha += static_cast<char>(std::tolower(c));
    } else {
      ok = false;
    }
    if (!ok) command.refused.push_back(word);
  }
  return command;
}

bool may_start_runs(std::string_view association) {
  return association == "OWNER" || association == "MEMBER" || association == "COLLABORATOR";
}

std::string refusal_reply(const SlashCommand& command) {
  std::string refused;
  const std::size_t shown = std::min<std::size_t>(command.refused.size(), 5);
  for (std::size_t i = 0; i < shown; ++i)
    refused += (i == 0 ? "" : ", ") + code_span(command.refused[i]);
  if (command.refused.size() > shown) refused += ", …";
  return "benchpr did not start a run: " + refused +
         (command.refused.size() == 1 ? " is" : " are") +
         " not an argument it takes.\n\n"
         "`/benchmark` takes, each at most once:\n"
         "- `rounds=N`: analysed rounds, " +
         std::to_string(kMinCommandRounds) + " to " + std::to_string(kMaxCommandRounds) +
         "\n"
         "- `filter=REGEX`: only benchmarks whose names match (no spaces or quotes)\n"
         "- `budget=DURATION`: time budget for adaptive rounds, e.g. `20m`, at most `6h`\n"
         "- `sha=COMMIT`: the head commit to measure (7 to 40 hex digits); without it, the "
         "head when you commented\n\n"
         "For example: `/benchmark rounds=20 filter=BM_Codec`\n";
}

std::optional<long long> parse_github_time(std::string_view text) {
  // YYYY-MM-DDTHH:MM:SS, then Z or +HH:MM / -HH:MM (fractions of a second are dropped).
  if (text.size() < 20 || text[4] != '-' || text[7] != '-' || text[10] != 'T' || text[13] != ':' ||
      text[16] != ':')
    return std::nullopt;
  // Digits only: from_chars alone would take "-1" for an hour.
  auto number = [&](std::size_t at, std::size_t n) -> std::optional<int> {
    const std::string_view digits = text.substr(at, n);
    if (digits.size() != n || !std::all_of(digits.begin(), digits.end(), [](char c) {
          return std::isdigit(static_cast<unsigned char>(c)) != 0;
        }))
      return std::nullopt;
    int v = 0;
    std::from_chars(digits.data(), digits.data() + n, v);
    return v;
  };
  const auto year = number(0, 4), month = number(5, 2), day = number(8, 2), hour = number(11, 2),
             minute = number(14, 2), second = number(17, 2);
  if (!year || !month || !day || !hour || !minute || !second || *month < 1 || *month > 12 ||
      *day < 1 || *day > 31 || *hour > 23 || *minute > 59 || *second > 60)
    return std::nullopt;
  std::string_view zone = text.substr(19);
  if (!zone.empty() && zone.front() == '.') {
    zone.remove_prefix(1);
    while (!zone.empty() && std::isdigit(static_cast<unsigned char>(zone.front())))
      zone.remove_prefix(1);
  }
  long long offset = 0;
  if (zone == "Z") {
    offset = 0;
  } else if (zone.size() == 6 && (zone[0] == '+' || zone[0] == '-') && zone[3] == ':') {
    const std::size_t at = text.size() - 6;
    const auto oh = number(at + 1, 2), om = number(at + 4, 2);
    if (!oh || !om) return std::nullopt;
    offset = (zone[0] == '+' ? 1 : -1) * (*oh * 3600LL + *om * 60LL);
  } else {
    return std::nullopt;
  }
  // Days from the civil date (Howard Hinnant's algorithm).
  const int y = *year - (*month <= 2 ? 1 : 0);
  const int era = (y >= 0 ? y : y - 399) / 400;
  const int yoe = y - era * 400;
  const int doy = (153 * (*month + (*month > 2 ? -3 : 9)) + 2) / 5 + *day - 1;
  const int doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  const long long days = static_cast<long long>(era) * 146097 + doe - 719468;
  return days * 86400 + *hour * 3600LL + *minute * 60LL + *second - offset;
}

HeadDecision decide_head(const SlashCommand& command, const std::string& live_head_sha,
                         const std::string& head_repo_pushed_at,
                         const std::string& comment_created_at) {
  const std::string head = live_head_sha.substr(0, 7);
  const std::string ask = "To measure the head it is at now, " + code_span(head) + ", comment " +
                          code_span("/benchmark sha=" + head) + " (with your other arguments).\n";
  if (!command.sha.empty()) {
    if (live_head_sha.starts_with(command.sha)) return {live_head_sha, ""};
    return {"", "benchpr did not start a run: the pull request's head is " + code_span(head) +
                    ", not " + code_span(command.sha) + ". " + ask};
  }
  const auto pushed = parse_github_time(head_repo_pushed_at);
  const auto commented = parse_github_time(comment_created_at);
  if (!pushed || !commented)
    return {"", std::string("benchpr did not start a run: GitHub did not say when ") +
                    (!commented ? "the command was written"
                                : "the pull request's branch was last pushed") +
                    ", so it cannot tell whether the head moved after your comment. " + ask};
  // The same second counts as after: the push may have followed the comment within it.
  if (*pushed >= *commented)
    return {"",
            "benchpr did not start a run: the pull request's repository was last pushed to at " +
                code_span(head_repo_pushed_at) + ", after your command (" +
                code_span(comment_created_at) + "), so its head may not be the commit you saw. " +
                ask};
  return {live_head_sha, ""};
}

std::vector<std::string> run_arguments(const SlashCommand& command, int number,
                                       const std::string& head_sha) {
  std::vector<std::string> args = {"--pr", std::to_string(number), "--pr-head", head_sha};
  if (command.rounds) {
    args.push_back("--rounds");
    args.push_back(std::to_string(*command.rounds));
  }
  if (!command.filter.empty()) {
    args.push_back("--filter");
    args.push_back(command.filter);
  }
  if (!command.budget.empty()) {
    args.push_back("--budget");
    args.push_back(command.budget);
  }
  return args;
}

}  // namespace benchpr::github
