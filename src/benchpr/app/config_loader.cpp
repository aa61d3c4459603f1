#include "benchpr/app/config_loader.hpp"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include <fmt/format.h>

#include "benchpr/app/user_error.hpp"
#include "benchpr/config/config_parser.hpp"
#include "benchpr/core/plan/schedule.hpp"
#include "benchpr/runner/zero_config.hpp"

namespace benchpr::app {

std::optional<Config> load_config(const RunOptions& options, git::Repository& repo,
                                  const std::string& base_sha) {
  std::string text;
  std::string name;
  if (!options.config_file.empty()) {
    std::ifstream in(options.config_file);
    if (!in)
      throw UserError("--config " + options.config_file + ": cannot read the file: " +
                      std::strerror(errno) + " (check the path, relative to where benchpr runs)");
    std::ostringstream ss;
    ss << in.rdbuf();
    text = ss.str();
    name = options.config_file;
  } else {
    auto content = repo.read_file(base_sha, ".benchpr.yml");
    if (!content) return std::nullopt;
    text = *content;
    name = ".benchpr.yml";
  }
  Config c = config::parse_config(text, name);  // a ConfigError ends the run with exit 2
  apply_overrides(c, options);
  return c;
}

Config zero_config_for(const RunOptions& options, const std::string& base_worktree) {
  Config c;
  try {
    c = runner::zero_config(base_worktree);  // a ConfigError (what to add) ends with exit 2
  } catch (const std::filesystem::filesystem_error& e) {
    // The project's files could not be scanned: a file benchpr reads, nothing measured yet.
    throw Error(ErrorCategory::Input,
                fmt::format("cannot scan {} for benchmarks: {}", base_worktree, e.what()));
  }
  apply_overrides(c, options);
  return c;
}

void apply_overrides(Config& c, const RunOptions& options) {
  if (options.rounds) {
    if (*options.rounds < config::kMinRounds || *options.rounds > config::kMaxRounds)
      throw UserError(fmt::format("--rounds: must be between {} and {}, got {}", config::kMinRounds,
                                  config::kMaxRounds, *options.rounds));
    c.rounds = *options.rounds;
  }
  if (options.warmup_rounds) {
    if (*options.warmup_rounds < 0 || *options.warmup_rounds > 100)
      throw UserError("--warmup: must be between 0 and 100, got " +
                      std::to_string(*options.warmup_rounds));
    c.warmup_rounds = *options.warmup_rounds;
  }
  if (!options.threshold.empty()) {
    auto t = config::parse_percentage(options.threshold);
    if (!t)
      throw UserError("--threshold: expected a percentage like 2%, got '" + options.threshold +
                      "'");
    if (*t < config::kMinThreshold || *t > config::kMaxThreshold)
      throw UserError("--threshold: must be between 0.1% and 50%, got '" + options.threshold + "'");
    c.threshold = *t;
  }
  if (!options.budget.empty()) {
    auto b = config::parse_duration(options.budget);
    if (!b || *b <= 0)
      throw UserError("--budget: expected a duration like 20m, got '" + options.budget + "'");
    c.budget_seconds = *b;
  }
  check_name_pattern("--filter", options.filter);
  if (!options.filter.empty()) c.filter = options.filter;
  check_name_pattern("--why", options.why);
  if (!options.bench_args.empty()) c.bench_args = options.bench_args;
  if (options.instructions) c.instructions = InstructionCounting::On;
  if (options.no_instructions) c.instructions = InstructionCounting::Off;
  if (options.no_cycle_estimate) c.cycle_estimate = false;
  if (options.no_placement_control) c.placement_control = false;
  c.rounds = round_up_even(c.rounds);
}

void check_name_pattern(const std::string& flag, const std::string& pattern) {
  if (pattern.empty()) return;
  // std::regex compiles and matches by recursion: an unbounded pattern could overflow the stack.
  constexpr std::size_t kMaxFilterChars = 1000;
  if (pattern.size() > kMaxFilterChars)
    throw UserError(fmt::format("{}: {} characters, more than {}; shorten the pattern", flag,
                                pattern.size(), kMaxFilterChars));
  try {
    std::regex check(pattern, std::regex::ECMAScript);
  } catch (const std::regex_error& e) {
    throw UserError(flag + ": '" + pattern + "' is not a regular expression (" + e.what() + ")");
  }
}

}  // namespace benchpr::app
