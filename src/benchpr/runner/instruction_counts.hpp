// The instruction-count phase of a session: every benchmark of the suites that ask for it
// (`metric: instructions`, `instructions: true`) runs alone under Callgrind, once per side,
// several at a time on the machine's cores. Counts are exact, so one run per side is enough.
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "benchpr/core/model.hpp"
#include "benchpr/exec/process.hpp"

namespace benchpr::runner {

struct InstructionSetup {
  std::string base_dir;  // materialised worktrees
  std::string head_dir;
  std::string work_dir;  // per-benchmark scripts, Callgrind dumps, JSON and logs
  std::string log_dir;
  int parallel = 1;    // benchmarks under Callgrind at once
  double started = 0;  // seconds since the session began, for RunRecord::started
  std::string valgrind = "valgrind";
  // A shard's share of the work: of a suite listed in `only`, only those benchmarks; none of
  // `skipped_suites`. Null: every benchmark (no shard).
  const std::map<std::string, std::vector<std::string>>* only = nullptr;
  const std::set<std::string>* skipped_suites = nullptr;
};

// How to tell when Valgrind is missing, so the error can name the package (run before
// anything is built).
inline constexpr const char* kValgrindPackage = "valgrind";
std::string valgrind_missing_message();

// The suite's command for one benchmark alone under Callgrind, as the counts run it (the
// function profiles run it the same way).
std::string callgrind_benchmark_command(const SuiteConfig& suite, const Config& config,
                                        const std::string& name, const std::string& json_path);

// The iterations of each repetition of `name`, or its error_occurred message, from Google
// Benchmark's JSON (0 iterations when the file has none).
struct BenchmarkIterations {
  long long count = 0;
  std::optional<std::string> error;
};
BenchmarkIterations benchmark_iterations(const std::string& json_text, const std::string& name);

// Adds one instruction series per benchmark (suite instruction_suite_name(...), metric
// "instructions", the count per iteration at index 0 of base and head, or the reason it has
// none) and one RunRecord per Callgrind process. Returns false when interrupted.
bool count_instructions(exec::ProcessRunner& processes, Results& results,
                        const InstructionSetup& setup,
                        const std::function<void(const std::string&)>& progress);

}  // namespace benchpr::runner
