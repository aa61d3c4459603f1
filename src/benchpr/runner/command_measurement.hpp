// The `command` format: benchpr runs the suite's command itself, K times in a row, and measures
// the process (wall time, CPU time, peak memory) instead of parsing what the command prints.
// For build steps, CLI tools and end-to-end runs that have no benchmark harness of their own.
#pragma once

#include <string>
#include <string_view>

#include "benchpr/core/model/model.hpp"
#include "benchpr/exec/process.hpp"

namespace benchpr::runner {

// The metrics a command suite can compare (SuiteConfig::metric; "" = wall_time).
inline constexpr std::string_view kCommandMetrics = "wall_time, cpu_time, max_rss";

// What the runs looked like as processes, for the session's run record.
struct CommandRunInfo {
  int runs = 0;                // processes started (stops at the first failing one)
  double seconds = 0;          // wall time of all of them together
  double cpu_seconds = 0;      // CPU time (user + system) of all of them together
  int leftover_processes = 0;  // processes the runs left behind, killed after them
  std::string failure;         // "run 2 of 3: exit code 1"; "" when every run succeeded
  std::string output_tail;     // output of the last run (the failing one, if any)
  // The failure's kind; None when every run succeeded.
  FailureKind failure_kind = FailureKind::None;
};

// Runs `spec` `repetitions` times (at least once) and returns one measurement named after the
// suite: the median over the runs of the selected metric —
//   wall_time (default): wall-clock time, ns;
//   cpu_time: user + system CPU time of the command and its waited-for children, ns;
//   max_rss: peak resident set size of the largest process, KiB;
// lower is better unless the suite's `better` says otherwise. A run that fails (non-zero exit,
// signal, timeout, could not start) stops the series and the suite gets a BenchmarkFailure with
// the reason instead; so does an unknown metric (without running anything) or a value of zero
// (a command faster than the clock resolves). Never throws for failures of the command.
// `info`, when given, receives what the session records about the run.
ParsedRun measure_command(exec::ProcessRunner& processes, const exec::ProcessSpec& spec,
                          int repetitions, const SuiteConfig& suite,
                          CommandRunInfo* info = nullptr);

}  // namespace benchpr::runner
