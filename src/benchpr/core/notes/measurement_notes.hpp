// What the comment says about how the values were measured, beside the statistics: which time
// each Google Benchmark suite compared, benchmarks whose wall time moved while their CPU time did
// not (the PR added or removed waiting), and whether the machine was busy. Pure: read from the
// raw results, so `publish` reproduces them.
#pragma once

#include <string>
#include <vector>

#include "benchpr/core/model/model.hpp"

namespace benchpr {

// One benchmark's wall-vs-CPU check: w_r = ln(real_head/real_base) - ln(cpu_head/cpu_base) per
// analysed round, fitted like the compared metric (crossover model, so a position effect of
// contention cancels). `offsets` (empty: none), per entry of `rounds`, is taken off both w_r and
// the real-time change: on a busy round, the gap the suite's other benchmarks showed in that
// round, i.e. what the neighbours' load did to the wall time of that round's processes.
struct WaitingCheck {
  int rounds = 0;
  double wait_change = kMissing;  // exp(mean w) - 1: wall time beyond what CPU time explains
  double real_change = kMissing;  // exp(mean ln(real_head/real_base)) - 1
  double cpu_change = kMissing;
  double p = kMissing;       // two-sided, of "no waiting change"
  int same_sign_rounds = 0;  // rounds where w_r has the sign of the mean
  int busy_rounds = 0;       // of `rounds`, those judged against the suite's other benchmarks
};
WaitingCheck waiting_check(const std::vector<double>& base_real,
                           const std::vector<double>& head_real,
                           const std::vector<double>& base_cpu, const std::vector<double>& head_cpu,
                           const std::vector<int>& rounds, const std::vector<int>& signs,
                           const std::vector<double>& offsets = {});

// The guard's rule, shared with the method study: significant after Benjamini-Hochberg at
// 5% over the family (p_adjusted), both the waiting change and the real-time change at
// least `threshold` in the same direction, and consistent in at least 3 of 4 rounds. Where busy
// rounds were used (judged against the suite's other benchmarks), the bar is higher: 0.2%, a
// waiting change of at least 5 thresholds, consistent in 9 of 10 rounds.
// Contention lengthens single rounds of either side at random; it does not make the gap
// consistent, so it does not pass this rule (docs/method.md, "Contention").
bool waiting_noted(const WaitingCheck& c, double p_adjusted, double threshold);

// Google Benchmark's CPU time counts the thread that runs the benchmark loop only. A benchmark
// whose CPU time changed by at least the threshold while its wall time did not follow (the
// wall-vs-CPU gap moved the other way by at least the threshold: the work went to another
// thread, or into waiting) has a CPU time that misses work. The same test and bars as the
// waiting guard: significant after Benjamini-Hochberg at 5% over the family, consistent in 3
// of 4 rounds, and the stricter bar where busy rounds were judged against the suite's other
// benchmarks.
bool cpu_missed_work(const WaitingCheck& c, double p_adjusted, double threshold);

// One suite's processes' CPU time (user + system from wait4, all their threads), head against
// base, per analysed round: ln(head cpu_seconds / base cpu_seconds), fitted like the compared
// metric. Google Benchmark sizes each benchmark's iterations to a fixed CPU time of the calling
// thread (the min time), so a faster or slower loop leaves this about where it was; CPU time
// spent on other threads (a helper the benchmark starts) moves it. A neighbour's load barely
// does: it is CPU time, not wall time.
struct ProcessCpuCheck {
  int rounds = 0;
  double change = kMissing;  // exp(mean) - 1
  double p = kMissing;       // two-sided, of "no change"
  int same_sign_rounds = 0;
};
ProcessCpuCheck process_cpu_check(const Results& results, const std::string& suite);
// Significant at 5%, at least `threshold`, the same direction in 3 of 4 rounds.
bool process_cpu_moved(const ProcessCpuCheck& c, double threshold);

struct MissedWork {
  std::string suite;
  std::string name;
  WaitingCheck check;
};
// The benchmarks `metric: auto` compared on CPU time whose CPU time missed work (a metric the
// configuration chose is kept): those cpu_missed_work finds, and where the suite's processes'
// CPU time moved (process_cpu_moved: work went to or came from other threads, evidence a
// neighbour's load cannot make), each benchmark whose own CPU time moved the other way by the
// threshold while its wall time, over every round, did not follow it by at least the
// threshold. A loaded machine scatters the wall time too much to test the gap there; the wall
// time then says what is known.
std::vector<MissedWork> cpu_time_missing_work(const Results& results);

// The results with the compared values of `missed` taken from their wall time (metric
// real_time): what the user waits for, which the work on another thread lengthens too.
Results compared_on_wall_time(const Results& results, const std::vector<MissedWork>& missed);

// Per analysed round: the CPU share the benchmark processes got (their CPU time over their wall
// time, both sides together), the share of each side, and the CPUs other processes kept busy.
struct RoundLoad {
  int number = 0;           // 1-based analysed round
  double share = kMissing;  // CPU seconds / wall seconds of the round's runs
  double base_share = kMissing;
  double head_share = kMissing;
  // The share of a CPU the neighbours left each side: its share with the side's own waiting
  // (read from its runs no neighbour ran beside) taken out. A PR that waits more or less
  // lowers its share in every round; this it does not move.
  double base_left = kMissing;
  double head_left = kMissing;
  double others_cpus = kMissing;  // wall-weighted mean over the round's runs
};
std::vector<RoundLoad> round_loads(const Results& results);

// A round was busy when its processes got less than 80% of the CPU they would use alone and
// other processes were running (or their load is unknown). A process that sleeps by design also
// gets a low share: the load of the others tells the two apart.
bool round_busy(const RoundLoad& load);
// A busy round in which the neighbours left one side less than half of what they left the other
// (base_left, head_left). The raw shares would select on the outcome: for wall-time metrics a
// PR that waits more has a lower share in every round, so its starved rounds (its slowest)
// were left out more often than the base's, and in the study 24.7% of added waiting read
// +16.2% where keeping every round read +20.3% (docs/method.md, "Contention").
bool round_lopsided(const RoundLoad& load);

// The results with the values of lopsided rounds removed from the benchmarks compared on wall
// time: such a round compares one side's work with the other's work plus a neighbour's, and
// the study found leaving it out raises the power a lot for little more false alarms
// (docs/method.md, "Contention"). CPU-time comparisons keep every round, and so does a session
// where more than a quarter of the rounds are lopsided (then the load is no passing neighbour,
// and leaving out that many rounds would cost more than it brings).
Results without_lopsided_rounds(const Results& results);

// The values a session's benchmarks are compared on, made in the one order the analysis needs:
// the benchmarks whose CPU time missed work (cpu_time_missing_work), the results with those on
// their wall time (compared_on_wall_time: what the notes describe), and those results without
// lopsided rounds (without_lopsided_rounds: what the looks and the verdicts read).
struct ComparedValues {
  std::vector<MissedWork> missed;
  Results compared;
  Results fair;
};
ComparedValues values_as_compared(const Results& results);

// "rounds 2–6", "rounds 1, 3 and 5–7", "round 4".
std::string round_ranges(const std::vector<int>& numbers);

// Adds to `analysis`: per-suite "compared CPU time for ... real time for ..." notes, the waiting
// flag ("waiting") and note, the busy-machine note, and for `missed` (benchmarks compared on
// wall time because their CPU time missed work) the flag "wall-time" and a note naming them.
// Call after the verdicts are final, with the results as compared.
void add_measurement_notes(const Results& results, Analysis& analysis,
                           const std::vector<MissedWork>& missed = {});

}  // namespace benchpr
