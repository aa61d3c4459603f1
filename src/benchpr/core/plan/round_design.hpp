// Rounds designed from the noise that is there: the min time and repetitions of a round chosen to
// give the most information per second of budget. Pure: the runner estimates the noise and the
// costs from what it measured (the warm-up, then each look) and runs what this chooses.
//
// A benchmark's per-round change (the log ratio of one process per side) has the variance
//   2 · (between + g(R) · within(m))
// where `between` is what differs from one process to the next (code layout and address
// randomisation, a fresh copy of the executable, frequency, neighbours) and no repetition inside
// the process removes, `within(m)` the variance of one repetition at min time m (it falls as
// (kReferenceMinTime / m)^kWithinExponent: a longer repetition averages more of the fluctuations
// inside a process), and g(R) the variance of the run's value over R repetitions in units of one
// repetition's (value_variance_factor). A round costs the processes of both sides
// (time_plan's cost model: a fixed part per process, plus the benchmarks' repetitions at min
// time m) and benchpr's own work per round (the fresh copies). Within a budget the variance of
// a benchmark's mean change after n rounds is that per-round variance over n, n being what the
// budget affords at that cost, capped at the rounds the plan still looks at. The design minimises
// the geometric mean of that variance over the open benchmarks, so each counts alike however
// noisy it is: when between-process noise dominates, many short processes beat fewer long ones;
// when within-process noise dominates and processes are costly to start, longer ones win.
#pragma once

#include <string>
#include <vector>

#include "benchpr/core/model/model.hpp"
#include "benchpr/core/plan/time_plan.hpp"

namespace benchpr {

// The min time at which a benchmark's within-process variance is stated.
inline constexpr double kReferenceMinTime = 0.05;
// How within-process variance falls with the min time: (reference / m)^this. Independent noise
// inside a repetition would average out as 1 / m (exponent 1); measured on cctz it hardly does:
// one repetition's variance fell by a factor 10^0.19 from 0.01 s to 0.1 s (docs/method.md, "Rounds
// designed from the noise that is there"): what differs between repetitions is mostly not
// averaged away by a longer one, but it is by more of them.
inline constexpr double kWithinExponent = 0.2;
// Before any round, nothing has measured the between-process noise: it is taken as this multiple
// of the within-process variance of one repetition at the reference min time (the median ratio
// measured on cctz: 0.20), and replaced by the measured value at the first look.
inline constexpr double kPriorBetweenOverWithin = 0.2;

struct BenchmarkNoise {
  double within = kMissing;   // variance of one repetition's log value at kReferenceMinTime
  double between = kMissing;  // variance of a process's log value that repetitions leave
};

// The variance of a run's value over `repetitions` repetitions, in units of one repetition's:
// 1, 1/2, 0.449, 0.343, 0.287 for 1 to 5, then π / (2R), the median's under normal noise. The
// value is the least time of the repetitions (formats/google_benchmark_format.cpp), whose factor
// depends on the noise: for R = 1, 2, 3, 5 and 10, 1, 0.68, 0.56, 0.45 and 0.34 under normal
// noise; under the one-sided bursts measured on cctz a whole round's variance fell as 1, 0.51,
// 0.37, 0.17 and 0.046 (docs/method.md, "The run's value"). The median's factors lie between the
// two: they neither promise the bursts' gains on a quiet machine nor forgo them on a shared one.
double value_variance_factor(int repetitions);

// The variance of one round's log ratio (both sides) at min time m with R repetitions.
double round_change_variance(const BenchmarkNoise& noise, double min_time, int repetitions,
                             double within_exponent = kWithinExponent);

struct RoundDesign {
  double min_time = kPlannedMinTime;
  int repetitions = 3;
  double round_seconds = 0;  // one round, both sides, benchpr's own work included
  int rounds = 0;            // what the budget affords at this cost (capped; even)
  // Geometric mean over the benchmarks of the variance of the mean change after `rounds`.
  double variance = kMissing;
};

struct RoundDesignInput {
  std::vector<BenchmarkNoise> benchmarks;  // the open ones; entries without both parts are skipped
  // The processes of a round, priced at the latest measured design (time_plan's SuiteCost with
  // `benchmarks` the open ones each suite will run).
  std::vector<SuiteCost> suites;
  double overhead_seconds_per_round = 0;  // benchpr's own work per round (copies, persisting)
  double seconds_left = 0;
  int max_rounds = 100;  // rounds the plan still looks at
  int min_rounds = 2;    // rounds the design must leave room for (the next look)
  RoundDesign current;   // the design of the latest rounds: kept unless another is clearly better
  std::vector<double> min_times = {0.01, 0.02, 0.05, 0.1, 0.2};
  // Ten: the run's value is the least time of its repetitions, whose gain from more of them
  // under the bursts of a shared machine the normal model above does not see (cctz: rounds varied
  // by 18.8% at 2, 11.5% at 5 and 5.3% at 10, re-read from one session's raw output). Left to
  // the model, a session on cctz went from 5 repetitions to 2 after its first look; offered 5 or
  // 10, sessions went from 10 to 5 "for 1.1x less variance", and the rounds' SD (median over the
  // benchmarks) doubled: 8.1% over rounds 1-10 at 10, 16.7% over rounds 11-40 at 5 (docs/method.md,
  // "The run's value"). The design chooses the min time.
  std::vector<int> repetitions = {10};
  double within_exponent = kWithinExponent;
};

// The chosen design. A candidate must leave room for `min_rounds`; when none does, the cheapest
// round wins. Without a benchmark with both noise parts, or without a sized suite, the current
// design stays. Another design replaces the current one only when its variance is at least
// kDesignSwitchGain times smaller (estimates from a few rounds should not flip it back and forth).
inline constexpr double kDesignSwitchGain = 1.1;
RoundDesign choose_round_design(const RoundDesignInput& in);

// A benchmark's noise from the rounds measured so far. `within` is its mean within-process
// variance at the reference min time (from the repetitions of every base-side process that had
// two or more: the head side's are printed by the pull request's code; kMissing without any). For
// each analysed round with values on both sides, `designs` gives the (min time, repetitions) that
// round ran at; the between-process part is half the variance of the per-round log ratios less the
// within part those designs leave, at least 0. Without `within`, or with fewer than 3 such rounds,
// `between` is the prior.
struct RoundRan {
  int round = 0;  // index into the series (warm-up included)
  double min_time = kPlannedMinTime;
  int repetitions = 3;
};
BenchmarkNoise estimate_noise(const BenchmarkSeries& series, const std::vector<RoundRan>& rounds,
                              double within, double within_exponent = kWithinExponent);

// A suite's process as measured (at its min time and repetitions, running `measured.benchmarks`)
// priced for one that runs `benchmarks` of them: the same fixed part, the same CPU share, the
// sized part for that many (0: the suite is not run). Suites benchpr does not size are unchanged.
SuiteCost for_benchmarks(const SuiteCost& measured, int benchmarks);

// "0.01s × 2 repetitions, rounds of about 9s: 1.8× the information per second of 0.05s × 3"
std::string describe_design(const RoundDesign& chosen, const RoundDesign& current);

}  // namespace benchpr
