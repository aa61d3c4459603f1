// Instructions per iteration of one Google Benchmark benchmark, counted by Callgrind without
// changes to the benchmark's code. Callgrind zeroes its counters when the benchmark's timer
// starts (entry of benchmark::State::ResumeTiming, whose own cost is not collected), and writes
// a dump when it stops (entry of PauseTiming or FinishKeepRunning). So each dump holds exactly
// what Google Benchmark times: the iterations of the loop, never the setup before it, the work
// between PauseTiming and ResumeTiming, the process's start-up or the reporting. The method and
// its figures are in docs/instructions.md.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "benchpr/core/model.hpp"

namespace benchpr::runner {

// Repetitions per process: the first warms up (lazy symbol binding, first allocations), the
// others are counted. Each runs one iteration (--benchmark_min_time=0) unless the benchmark
// fixes its own count.
inline constexpr int kCallgrindRepetitions = 3;

// valgrind's arguments (without the program): Callgrind, children traced (the suite's command
// runs through sh), dumps named `out_prefix`.<pid>.<n>.
std::string callgrind_arguments(const std::string& out_prefix);

// Google Benchmark's arguments for one benchmark alone, one iteration per repetition, JSON out.
std::string callgrind_benchmark_arguments(const std::string& name, const std::string& json_path);

struct CallgrindDump {
  enum class Trigger { Pause, Finish, Other } trigger = Trigger::Other;
  double instructions = 0;
};

// One dump file's trigger and total ("summary:"), or nothing for a file that is not a dump of
// a benchmark's timer (the profile written at exit).
std::optional<CallgrindDump> parse_callgrind_dump(std::string_view text);

// The dumps of the counted repetitions: Google Benchmark's dumps of one process (in order)
// grouped into repetitions, the first left out (it warms up), those of the last
// `repetitions` - 1 kept. The instruction counts and the function profiles both add these up.
struct CountedDumps {
  std::vector<std::size_t> dumps;  // indices into the dumps given
  std::size_t repetitions = 0;     // how many repetitions they make up
  std::size_t seen = 0;            // repetitions seen in all
};
CountedDumps counted_dumps(const std::vector<CallgrindDump>& dumps, int repetitions);

struct PerIteration {
  double instructions = kMissing;      // per iteration; kMissing when failure is set
  std::optional<std::string> failure;  // why there is no count
};

// Groups the dumps of one process (in order) into repetitions, leaves out the first
// repetition, and divides by the iterations: each repetition ran `iterations` (from the
// benchmark's JSON). `repetitions` is what was asked for.
PerIteration instructions_per_iteration(const std::vector<CallgrindDump>& dumps, int repetitions,
                                        long long iterations);

// The reason a benchmark could not be counted, from what Valgrind printed (nothing when nothing
// Valgrind-specific is recognised): an instruction Valgrind does not know, for example.
std::optional<std::string> valgrind_failure(std::string_view output);

// "BM_X/threads:4" runs several threads, whose counts Callgrind cannot attribute to one loop.
bool is_multithreaded_benchmark(std::string_view name);

}  // namespace benchpr::runner
