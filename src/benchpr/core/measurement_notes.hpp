// What the comment says about how the values were measured, beside the statistics: which time
// each Google Benchmark suite compared, benchmarks whose wall time moved while their CPU time did
// not (the PR added or removed waiting), and whether the machine was busy. Pure: read from the
// raw results, so `publish` reproduces them.
#pragma once

#include <string>
#include <vector>

#include "benchpr/core/model.hpp"

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

// Per analysed round: the CPU share the benchmark processes got (their CPU time over their wall
// time, both sides together), the share of each side, and the CPUs other processes kept busy.
struct RoundLoad {
  int number = 0;           // 1-based analysed round
  double share = kMissing;  // CPU seconds / wall seconds of the round's runs
  double base_share = kMissing;
  double head_share = kMissing;
  double others_cpus = kMissing;  // wall-weighted mean over the round's runs
};
std::vector<RoundLoad> round_loads(const Results& results);

// A round was busy when its processes got less than 80% of the CPU they would use alone and
// other processes were running (or their load is unknown). A process that sleeps by design also
// gets a low share: the load of the others tells the two apart.
bool round_busy(const RoundLoad& load);
// A busy round in which one side got less than half the other's share.
bool round_lopsided(const RoundLoad& load);

// The results with the values of lopsided rounds removed from the benchmarks compared on wall
// time: such a round compares one side's work with the other's work plus a neighbour's, and
// the study found leaving it out raises the power a lot for little more false alarms
// (docs/method.md, "Contention"). CPU-time comparisons keep every round, and so does a session
// where more than a quarter of the rounds are lopsided (then it is the PR, not a neighbour).
Results without_lopsided_rounds(const Results& results);

// "rounds 2–6", "rounds 1, 3 and 5–7", "round 4".
std::string round_ranges(const std::vector<int>& numbers);

// Adds to `analysis`: per-suite "compared CPU time for ... real time for ..." notes, the waiting
// flag ("waiting") and note, and the busy-machine note. Call after the verdicts are final.
void add_measurement_notes(const Results& results, Analysis& analysis);

}  // namespace benchpr
