// Instructions per iteration of one Google Benchmark benchmark, counted by Callgrind without
// changes to the benchmark's code. Callgrind zeroes its counters when the benchmark's timer
// starts (entry of benchmark::State::ResumeTiming, whose own cost is not collected), and writes
// a dump when it stops (entry of PauseTiming or FinishKeepRunning). So each dump holds exactly
// what Google Benchmark times: the iterations of the loop, never the setup before it, the work
// between PauseTiming and ResumeTiming, the process's start-up or the reporting. The method and
// its figures are in docs/instructions.md.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "benchpr/core/model/model.hpp"

namespace benchpr::runner {

// Repetitions per process: the first warms up (lazy symbol binding, first allocations), the
// others are counted. Each benchmark runs in two processes: the first at one iteration per
// repetition (--benchmark_min_time=0), the second at the iterations Google Benchmark chooses for
// kCallgrindLongMinTime seconds under Callgrind. The difference of their counts over the
// difference of their iterations is the count per iteration: what a repetition costs once (a
// lazy initialisation, the first refill of a random generator's state, the loop's entry and
// exit) cancels out, and what recurs every k iterations is spread over many.
inline constexpr int kCallgrindRepetitions = 3;
inline constexpr double kCallgrindLongMinTime = 0.05;

// valgrind's arguments (without the program): Callgrind, children traced (the suite's command
// runs through sh), dumps named `out_prefix`.<pid>.<n>. Besides the timer's dumps, one before
// each reporter's ReportRuns: Google Benchmark reports a benchmark once all its repetitions
// ran, so these dumps mark where one benchmark ends when several run in one process.
// `cache_sim`: also simulate the caches (the estimated cycles, core/evidence/cycle_estimate.hpp),
// of one fixed geometry (kCacheGeometry) whatever the machine's, so every runner, and every shard
// of a comparison, simulates the same caches. `instrument_at_start` false: --instr-atstart=no, for
// a process whose instrumentation the preloaded library turns on (runner/instrument_on_open.hpp).
std::string callgrind_arguments(const std::string& out_prefix, bool cache_sim = false,
                                bool instrument_at_start = true);

// The simulated caches: 32 KiB 8-way L1 instruction and data caches and an 8 MiB 16-way last
// level, 64-byte lines (Valgrind's own default when it cannot read the machine's is close).
inline constexpr const char* kCacheGeometry = "--I1=32768,8,64 --D1=32768,8,64 --LL=8388608,16,64";

// Google Benchmark's arguments for the benchmarks `names` (one, or a group that shares one
// process and so pays the suite's start-up once), JSON out: one iteration per repetition
// (min_time 0, the first process) or as many as `min_time` seconds take (the second).
std::string callgrind_benchmark_arguments(const std::vector<std::string>& names,
                                          const std::string& json_path, double min_time = 0);

struct CallgrindDump {
  enum class Trigger { Pause, Finish, Report, Other } trigger = Trigger::Other;
  double instructions = 0;
  // The dump's other events by name ("D1mr", ...; empty when only Ir was collected).
  std::map<std::string, double> events;
};

// One dump file's trigger and totals ("summary:", Ir found by its place on the "events:" line,
// the first without one), or nothing for a file that is not a dump of a benchmark's timer or
// report (the profile written at exit).
std::optional<CallgrindDump> parse_callgrind_dump(std::string_view text);

// The dumps of a process that ran several benchmarks, benchmark by benchmark: a benchmark's
// timer dumps are those before its report (one or more Report dumps in a row: the console's and
// the JSON file's, of the repetitions and of their aggregates). One entry per report, in order,
// each the indices of its timer dumps (empty for a benchmark that never entered its loop);
// dumps after the last report (a process cut short) belong to no benchmark.
std::vector<std::vector<std::size_t>> dumps_by_benchmark(const std::vector<CallgrindDump>& dumps);

// The dumps of the counted repetitions: Google Benchmark's dumps of one process (in order)
// grouped into repetitions, the first left out (it warms up), those of the last
// `repetitions` - 1 kept. The instruction counts and the function profiles both add these up.
struct CountedDumps {
  std::vector<std::size_t> dumps;                       // indices into the dumps given
  std::vector<std::vector<std::size_t>> by_repetition;  // the same, per counted repetition
  std::size_t repetitions = 0;                          // how many repetitions they make up
  std::size_t seen = 0;                                 // repetitions seen in all
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

// The two processes' dumps and iterations per repetition (from the benchmark's JSON).
struct CallgrindRun {
  std::vector<CallgrindDump> dumps;
  long long iterations = 0;
};

// How much each dump weighs in the count per iteration: the count (and a profile, function by
// function) is the sum of weight × dump over both processes. With N1 < N2 iterations per
// repetition, S the first process's mean counted repetition and L the second's:
// (L − S) / (N2 − N1). With N1 = N2 (a benchmark that fixes its own iterations) the mean of all
// counted repetitions over N. `check`: the count from each of the second process's counted
// repetitions alone (the same formula with that repetition for L): the counts that must agree.
struct IterationWeights {
  std::vector<double> first;        // per dump of the first process (0: not counted)
  std::vector<double> second;       // per dump of the second
  std::vector<double> check_first;  // the weights of the check count farthest from the count
  std::vector<double> check_second;
  long long first_iterations = 0, second_iterations = 0;
  std::optional<std::string> failure;  // no count: why
};
IterationWeights iteration_weights(const CallgrindRun& first, const CallgrindRun& second,
                                   int repetitions);

// Σ weight × dump.instructions.
double weighted_instructions(const std::vector<CallgrindDump>& dumps,
                             const std::vector<double>& weights);

// Σ weight × dump.events[e] for each event e every weighed dump holds.
std::map<std::string, double> weighted_events(const std::vector<CallgrindDump>& dumps,
                                              const std::vector<double>& weights);

// The count per iteration of two processes, and the check count (kMissing when there is none);
// the other events per iteration the same way (the check's with the check's weights), for the
// events both processes' counted dumps hold.
struct TwoRunCount {
  double instructions = kMissing;
  double check = kMissing;
  std::map<std::string, double> events;
  std::map<std::string, double> check_events;
  std::optional<std::string> failure;
};
TwoRunCount instructions_per_iteration(const CallgrindRun& first, const CallgrindRun& second,
                                       int repetitions);

// The reason a benchmark could not be counted, from what Valgrind printed (nothing when nothing
// Valgrind-specific is recognised): an instruction Valgrind does not know, for example.
std::optional<std::string> valgrind_failure(std::string_view output);

// "BM_X/threads:4" runs several threads, whose counts Callgrind cannot attribute to one loop.
bool is_multithreaded_benchmark(std::string_view name);

}  // namespace benchpr::runner
