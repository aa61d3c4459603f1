#include "benchpr/app/config_loader.hpp"

#include <fstream>
#include <sstream>

#include "benchpr/app/user_error.hpp"
#include "benchpr/config/config_parser.hpp"

namespace benchpr::app {

namespace {

constexpr const char* kMinimalConfig =
    "  build: cmake -S . -B build -DCMAKE_BUILD_TYPE=Release && cmake --build build\n"
    "  suites:\n"
    "    - name: core\n"
    "      run: build/bench/core_bench --benchmark_min_time=0.2\n"
    "      format: google-benchmark";

}  // namespace

Config load_config(const RunOptions& options, git::Repository& repo, const std::string& base_sha) {
  std::string text;
  std::string name;
  if (!options.config_file.empty()) {
    std::ifstream in(options.config_file);
    if (!in) throw UserError("--config " + options.config_file + ": cannot read the file");
    std::ostringstream ss;
    ss << in.rdbuf();
    text = ss.str();
    name = options.config_file;
  } else {
    auto content = repo.read_file(base_sha, ".benchpr.yml");
    if (!content) {
      throw UserError("no .benchpr.yml in the base revision " + base_sha.substr(0, 7) +
                      ": commit one to the base branch (or pass --config FILE), for example:\n" +
                      kMinimalConfig);
    }
    text = *content;
    name = ".benchpr.yml";
  }
  Config c;
  try {
    c = config::parse_config(text, name);
  } catch (const config::ConfigError& e) {
    throw UserError(e.what());
  }
  if (options.rounds) {
    if (*options.rounds < 2 || *options.rounds > 1000)
      throw UserError("--rounds: expected 2 to 1000, got " + std::to_string(*options.rounds));
    c.rounds = *options.rounds;
  }
  if (options.warmup_rounds) {
    if (*options.warmup_rounds < 0 || *options.warmup_rounds > 100)
      throw UserError("--warmup: expected 0 to 100");
    c.warmup_rounds = *options.warmup_rounds;
  }
  if (!options.threshold.empty()) {
    auto t = config::parse_percentage(options.threshold);
    if (!t || *t <= 0 || *t >= 0.5)
      throw UserError("--threshold: expected a percentage like 2%, got '" + options.threshold +
                      "'");
    c.threshold = *t;
  }
  if (!options.budget.empty()) {
    auto b = config::parse_duration(options.budget);
    if (!b || *b <= 0)
      throw UserError("--budget: expected a duration like 20m, got '" + options.budget + "'");
    c.budget_seconds = *b;
  }
  c.rounds += c.rounds % 2;
  return c;
}

}  // namespace benchpr::app
