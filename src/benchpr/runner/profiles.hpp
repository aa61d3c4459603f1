// The function-level profiles that explain a change (docs/why.md): after the verdicts, every
// Google Benchmark benchmark labelled `regression` or `improvement` (by time or by instructions),
// and every one `--why` names, runs once per side under Callgrind exactly as the instruction
// counts run it (collection bounded by the benchmark's timer), and its per-function counts per
// iteration go into Results::profiles. Within what is left of the time budget: a benchmark that
// would not fit is recorded as skipped, with the reason.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <unordered_map>

#include "benchpr/core/model/model.hpp"
#include "benchpr/exec/process.hpp"
#include "benchpr/runner/elf_symbols.hpp"
#include "benchpr/runner/instruction_counts.hpp"

namespace benchpr::runner {

struct ProfileSetup {
  std::string base_dir;  // materialised worktrees
  std::string head_dir;
  std::string work_dir;  // per benchmark and side: Callgrind's files (kept), JSON and log
  // The instruction counts' sealed runs (InstructionSetup::sealed), reused as profiles when
  // their files are unchanged; null = none.
  const SealedRuns* counted = nullptr;
  std::string why;  // --why: a regular expression of benchmark names ("" = none)
  std::string valgrind = "valgrind";
  // Seconds the profiles may take: what is left of the budget (a negative value: no budget).
  double seconds_left = -1;
  // A test's stand-in for the clock (seconds, increasing); unset: the wall clock.
  std::function<double()> now;
};

// The fraction of a side's count under which functions and calls are left out of the results.
inline constexpr double kProfileKeepFraction = 0.001;

// Which benchmarks to profile, and why: (suite, name, "regression" | "improvement" | "--why"),
// from the session's analysis, in the analysis' order, each benchmark once.
struct ProfileRequest {
  std::string suite;
  std::string name;
  std::string requested_by;
};
std::vector<ProfileRequest> profile_requests(const Results& results, const Analysis& analysis,
                                             const std::string& why);

// A counted run read per iteration: the function profile, and each function's executed
// instructions (by the profile's function names; empty when the run has no instruction
// positions).
struct CountedProfile {
  FunctionProfile profile;
  std::unordered_map<std::string, ExecutedInstructions> executed;
};

// The per-iteration profile of `name` on `side` from the instruction counts' sealed Callgrind
// run (suite: the time suite's name), when every file is as it was when counted.
std::optional<CountedProfile> counted_profile(
    const SealedRuns* counted, const std::string& suite, Side side, const std::string& name,
    const std::function<void(const std::string&)>& progress);

// Profiles the requested benchmarks into results.profiles; false when interrupted.
bool profile_benchmarks(exec::ProcessRunner& processes, Results& results,
                        const std::vector<ProfileRequest>& requests, const ProfileSetup& setup,
                        const std::function<void(const std::string&)>& progress);

}  // namespace benchpr::runner
