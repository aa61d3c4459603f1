// Turns one benchmark's raw series into the paired per-round log ratios the statistics use,
// with the cold-round check applied.
#pragma once

#include <optional>
#include <vector>

#include "benchpr/core/model/model.hpp"

namespace benchpr {

struct AnalysedRound {
  int round = 0;   // index into the series (plan index)
  int number = 0;  // 1-based among analysed rounds, as people count them
  bool head_second = false;
  // Under the placement control (Results::placement_shifts): the cycle of placements this round
  // belongs to (core/plan/schedule.hpp placement_cycle) and how many rounds a cycle has; -1, 0
  // without it.
  int cycle = -1;
  int cycle_rounds = 0;
};

// The analysed rounds completed so far, in order (warm-up excluded).
std::vector<AnalysedRound> analysed_rounds(const Results& results);

struct PairedRounds {
  std::vector<double> d;     // ln(head/base), sign flipped when higher is better: + = worse
  std::vector<int> s;        // +1 when the PR ran second, -1 when first
  std::vector<int> numbers;  // 1-based analysed-round number of each entry
  std::vector<double> base;  // raw values of the used rounds
  std::vector<double> head;
  bool cold_first = false;     // the first analysed round looked cold
  std::optional<int> dropped;  // analysed-round number left out as cold
  double cold_p = kMissing;    // the cold test's one-sided p (NaN when not tested)
};

// Pairs the rounds where both sides have a positive value. Under the placement control only the
// cycles the benchmark ran whole are read: one it left after its last look, or one still running,
// would weigh the placements unequally, and a change one placement makes would read as the PR's.
// A round a cycle lost (a failed or left-out run) only leaves a hole: centre_placements weighs
// the placements equally whatever each holds. The first analysed round is "cold"
// when its level (the mean log value of both sides) is worse than the later rounds predict:
// a one-sided t test of round 1 against a straight line through the others (the mean with
// fewer than 6 of them), at p < 0.002. The line keeps a slow drift of the machine from
// looking like a cold start, and a t test (not a robust z from a handful of rounds) keeps the
// false flags at the test's level: 0.2% of benchmarks under normal noise and any linear drift.
// A cold round is left out when at least 4 rounds remain.
// `cold_check` false: the test's p is still recorded, but no round is flagged or left out (the
// family did not show a cold start: cold_start_shared()).
PairedRounds pair_rounds(const BenchmarkSeries& series, const std::vector<AnalysedRound>& rounds,
                         bool cold_check = true);

// Under the placement control: the rounds' log ratios with each placement's own mean taken out and
// the mean of the placements' means put back (each placement weighs the same, also with a hole),
// and the degrees of freedom that costs (one per placement after the first). The four placements
// are all the 16-byte offsets of a 64-byte line, so the change read is their mean and a placement's
// own level is not noise about it: taken out, the spread between placements leaves the interval, as
// fixed effects of a balanced design leave an estimate unchanged (each placement runs once in each
// order per cycle). `shifts` below 2 (no control): `r.d` as it is, at no cost.
struct PlacementCentred {
  std::vector<double> d;
  int df_cost = 0;
};
PlacementCentred centre_placements(const PairedRounds& r, int shifts);

// Whether the family of benchmarks shares a cold first round, from each one's cold-test p
// (NaN for those not tested): a one-sided sign test at 5% that round 1 lay above the line for
// more than half of them. A cold start is the machine's (caches, frequency, page cache) and
// moves every benchmark; one benchmark's heavy-tailed noise moves only that one, and with 50 of
// them a per-benchmark test alone put a false note on a quarter to half of the pull requests.
// With fewer than 8 tested benchmarks the family says nothing and each benchmark is judged alone.
bool cold_start_shared(const std::vector<double>& cold_ps);

// One-sided p that `first` (at position x0) is above what the values `ys` at positions `xs`
// predict: a least-squares line with at least 6 points, their mean with 3-5; NaN with fewer
// or when they do not vary.
double cold_p(double first, double x0, const std::vector<double>& xs,
              const std::vector<double>& ys);

}  // namespace benchpr
