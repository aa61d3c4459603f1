#include "benchpr/github/slash_command.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>

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

// 30, 30s, 20m, 1.5h: digits, at most one dot, an optional unit.
bool budget_ok(std::string_view text) {
  if (text.empty() || text.size() > 12) return false;
  std::string_view number = text;
  if (std::string_view("smh").find(text.back()) != std::string_view::npos) number.remove_suffix(1);
  if (number.empty() || number.front() == '.' || number.back() == '.') return false;
  int dots = 0;
  for (char c : number) {
    if (c == '.') {
      ++dots;
    } else if (!std::isdigit(static_cast<unsigned char>(c))) {
      return false;
    }
  }
  return dots <= 1 && number.find_first_not_of("0.") != std::string_view::npos;
}

// For quoting untrusted text in a code span: no backticks, no line breaks, bounded.
std::string code_span(std::string_view text) {
  std::string out;
  for (char c : text) {
    if (out.size() >= 60) {
      out += "…";
      break;
    }
    out += (c == '`' || c == '\n' || c == '\r') ? '?' : c;
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
         "- `budget=DURATION`: time budget for adaptive rounds, e.g. `20m`\n\n"
         "For example: `/benchmark rounds=20 filter=BM_Codec`\n";
}

std::vector<std::string> run_arguments(const SlashCommand& command, int number) {
  std::vector<std::string> args = {"--pr", std::to_string(number)};
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
