// The instruction-count phase of a session: every benchmark of the suites that ask for it
// (`metric: instructions`, `instructions: true`) runs alone under Callgrind, once per side,
// several at a time on the machine's cores. Counts are exact, so one run per side is enough.
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "benchpr/core/model/model.hpp"
#include "benchpr/exec/process.hpp"
#include "benchpr/runner/callgrind.hpp"
#include "benchpr/runner/clock.hpp"

namespace benchpr::runner {

// The SHA-256 of each file of a counted run that a count reads, by its path below the run's
// folder, taken from the bytes read.
using FileDigests = std::map<std::string, std::string>;

// The runs counted, sealed: their folders and digests, recorded as each side's outputs were read,
// before the other side's code ran. The profiles reuse a run only when every file is unchanged.
struct SealedRun {
  std::string dir;
  FileDigests digests;
  bool late_instrumentation = false;  // its suite's start-up ran uninstrumented
};
using SealedRuns =
    std::map<std::tuple<std::string, Side, std::string>, SealedRun>;  // suite, side, name

struct InstructionSetup {
  std::string base_dir;  // materialised worktrees
  std::string head_dir;
  // Holds one folder per side with an unpredictable name (made afresh, mode 0700): per-benchmark
  // scripts, Callgrind dumps, JSON and logs.
  std::string work_dir;
  std::string log_dir;
  int parallel = 1;    // benchmarks under Callgrind at once
  double started = 0;  // seconds since the session began, for RunRecord::started
  std::string valgrind = "valgrind";
  // A shard's share of the work: of a suite listed in `only`, only those benchmarks; none of
  // `skipped_suites`. Null: every benchmark (no shard).
  const std::map<std::string, std::vector<std::string>>* only = nullptr;
  const std::set<std::string>* skipped_suites = nullptr;
  // Receives each counted run's folder and digests (for the profiles); null: not kept.
  SealedRuns* sealed = nullptr;
  // Wall seconds the counting may take, both sides (0: no limit beyond the timeouts): counts
  // nobody asked for get a share of the budget. The base may use half, the PR what is left.
  double deadline_seconds = 0;
  // The budget that share is of (0: the share stays as given): where the base's listings show
  // start-ups that make the share too little for both sides but half the budget enough, the
  // share is half the budget (runner/counting_share.hpp).
  double budget_seconds = 0;
  // The clock the deadline is read on (null: the steady clock); a test sets the time.
  const Clock* clock = nullptr;
  // After a side's counting runs (its own code may change its own files), and before the base
  // is counted again after the PR's runs, which must find the base's programs and tracked files
  // as they were (throws TamperError otherwise). Empty: nothing to check.
  std::function<void(Side)> after_side;
  std::function<void()> before_base_again;
};

// How to tell when Valgrind is missing, so the error can name the package (run before
// anything is built).
inline constexpr const char* kValgrindPackage = "valgrind";
std::string valgrind_missing_message();

// Whether `valgrind --version` runs (within a minute): the one probe for Valgrind, made before
// anything is built when instructions are counted, and before the profiles.
bool valgrind_installed(exec::ProcessRunner& processes, const std::string& valgrind = "valgrind");

// The shell script of one Callgrind job, as the counts and the profiles run it: in `worktree`,
// the benchmarks `names` (one, or a group sharing one process) under Callgrind at one iteration
// per repetition (files in `job_dir`/1), then, when that worked, at kCallgrindLongMinTime
// (`job_dir`/2); Valgrind's output in `job_dir`/log, "exit-code start end" in `job_dir`/rc.
// Each process may take callgrind_process_timeout(). `preload`: the path of the written
// instrument-on-open library, for late instrumentation (runner/instrument_on_open.hpp); empty:
// instrumented from the start.
std::string callgrind_job_script(const SuiteConfig& suite, const Config& config,
                                 const std::vector<std::string>& names, const std::string& worktree,
                                 const std::string& job_dir, const std::string& valgrind,
                                 const std::string& preload = {});

// How long one Callgrind process of `benchmarks` benchmarks may run: the suite's timeout for
// each (a group gets what its benchmarks would get alone), whole seconds, at least one.
double callgrind_process_timeout(double suite_timeout, std::size_t benchmarks);

// The iterations of each repetition of `name`, or its error_occurred message, from Google
// Benchmark's JSON (0 iterations when the file has none).
struct BenchmarkIterations {
  long long count = 0;
  std::optional<std::string> error;
};
BenchmarkIterations benchmark_iterations(const std::string& json_text, const std::string& name);

// One counted benchmark's two Callgrind processes as read from its folder (1/ at one iteration
// per repetition, 2/ at more): each one's dumps in order and iterations, and the dumps' texts
// when `keep_texts`. Every file is read once. `expected`: the digests recorded when the run was
// counted; a file changed, added or gone since is a failure naming it. `record`: receives the
// digest of every file read.
struct CountedRunFiles {
  CallgrindRun first, second;
  std::vector<std::string> first_texts, second_texts;  // parallel to the dumps
  std::optional<std::string> failure;
  FailureKind failure_kind = FailureKind::None;
};
CountedRunFiles read_counted_run(const std::string& job_dir, const std::string& name,
                                 bool keep_texts, const FileDigests* expected, FileDigests* record);

// What a finished job left: the count per iteration and the check count, or why there is none
// (timeout, Valgrind's failure, exit code, unreadable files); with `keep_texts`, the files read.
struct CallgrindJobResult {
  double instructions = kMissing;
  double check = kMissing;
  std::map<std::string, double> events;  // cache events per iteration (with cache simulation)
  std::optional<std::string> failure;
  FailureKind kind = FailureKind::None;
  double seconds = 0;
  CountedRunFiles files;
};
CallgrindJobResult read_callgrind_job(const std::string& job_dir, const std::string& name,
                                      double timeout, bool keep_texts, FileDigests* record);

// Adds one instruction series per benchmark (suite instruction_suite_name(...), metric
// "instructions", the count per iteration at index 0 of base and head, or the reason it has
// none; at index 1 the check count, see IterationWeights) and one RunRecord per benchmark and
// side. Each side runs as its own batch, and its outputs are read and sealed before the other
// side's code runs (the base first). Returns false when interrupted.
bool count_instructions(exec::ProcessRunner& processes, Results& results,
                        const InstructionSetup& setup,
                        const std::function<void(const std::string&)>& progress);

}  // namespace benchpr::runner
