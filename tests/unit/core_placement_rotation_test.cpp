// The placement control's rotation and reading: which relinked program each round runs, and that
// only whole cycles of placements are read, so that what one placement does weighs as much as
// each other's whatever round a benchmark stopped at. Hand-checked numbers.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "benchpr/core/model/placement_rotation.hpp"
#include "benchpr/core/plan/schedule.hpp"
#include "benchpr/core/stats/paired_rounds.hpp"
#include "benchpr/core/verdicts/analysis.hpp"

namespace benchpr {
namespace {

TEST(PlacementRotation, EachBlockOfTwoRoundsRunsOnePlacementInBothOrders) {
  // Four offsets: rounds 1-2 at the first, 3-4 the second, ... 9-10 the first again.
  const std::vector<int> slots = {0, 0, 1, 1, 2, 2, 3, 3, 0, 0};
  for (int number = 1; number <= 10; ++number)
    EXPECT_EQ(placement_slot(number, 4), slots[static_cast<std::size_t>(number - 1)]) << number;
  EXPECT_EQ(placement_cycle(1, 4), 0);
  EXPECT_EQ(placement_cycle(8, 4), 0);
  EXPECT_EQ(placement_cycle(9, 4), 1);
  // No control (or one program): always the program as built, and no cycles.
  EXPECT_EQ(placement_slot(5, 0), 0);
  EXPECT_EQ(placement_slot(5, 1), 0);
  EXPECT_EQ(placement_cycle(5, 1), -1);

  // Rounds come in whole cycles: the nearest count of them, at least one; without the control,
  // in AB/BA blocks.
  EXPECT_EQ(whole_placement_cycles(6, 4), 8);
  EXPECT_EQ(whole_placement_cycles(10, 4), 8);
  EXPECT_EQ(whole_placement_cycles(12, 4), 16);
  EXPECT_EQ(whole_placement_cycles(0, 4), 8);
  EXPECT_EQ(whole_placement_cycles(7, 0), 8);
  EXPECT_EQ(whole_placement_cycles(0, 1), 2);

  // In a schedule, warm-up rounds run the programs as built and do not count; every block's two
  // rounds have opposite orders, so each placement runs once in each order.
  const std::vector<RoundPlan> plan = make_schedule(16, 1, 99);
  ASSERT_EQ(plan.size(), 17u);
  EXPECT_EQ(placement_slot_of_round(plan, 0, 4), 0);
  for (int i = 1; i < 17; i += 2) {
    const int slot = placement_slot_of_round(plan, i, 4);
    EXPECT_EQ(slot, ((i - 1) / 2) % 4) << i;
    EXPECT_EQ(placement_slot_of_round(plan, i + 1, 4), slot);
    EXPECT_NE(plan[static_cast<std::size_t>(i)].first, plan[static_cast<std::size_t>(i + 1)].first);
  }
}

// A series whose base is 100 in every round and whose PR is 100 * (1 + effect[slot]).
Results rotated(int rounds, const std::vector<double>& effect, bool control) {
  Results r;
  r.plan = make_schedule(rounds, 1, 5);
  r.rounds_done = rounds + 1;
  if (control) r.placement_shifts = {0, 16, 32, 48};
  BenchmarkSeries s;
  s.suite = "micro";
  s.name = "BM_A";
  s.unit = "ns";
  for (const RoundPlan& p : r.plan) {
    int number = 0;
    for (const RoundPlan& q : r.plan)
      if (!q.warmup && q.index <= p.index) ++number;
    const int slot = p.warmup ? 0 : placement_slot(number, 4);
    s.base.push_back(100);
    s.head.push_back(100 * (1 + effect[static_cast<std::size_t>(slot)]));
  }
  r.series.push_back(s);
  return r;
}

double mean(const std::vector<double>& v) {
  double sum = 0;
  for (double x : v) sum += x;
  return sum / static_cast<double>(v.size());
}

TEST(PlacementRotation, OnlyWholeCyclesAreReadSoEveryPlacementWeighsTheSame) {
  // One placement makes the PR 12% slower, the others nothing: over a whole cycle the change is
  // the mean of the four, ln(1.12) / 4 = 2.83% in logs.
  const std::vector<double> effect = {0.12, 0, 0, 0};
  // 12 analysed rounds: one whole cycle (8) and half of the next, which ran the 12% placement
  // twice more. Read whole, that would weigh it 4 in 12, not 2 in 8.
  const Results r = rotated(12, effect, true);
  const std::vector<AnalysedRound> rounds = analysed_rounds(r);
  ASSERT_EQ(rounds.size(), 12u);
  EXPECT_EQ(rounds[7].cycle, 0);
  EXPECT_EQ(rounds[8].cycle, 1);
  EXPECT_EQ(rounds[0].cycle_rounds, 8);
  const PairedRounds paired = pair_rounds(r.series[0], rounds, false);
  ASSERT_EQ(paired.d.size(), 8u);
  EXPECT_NEAR(mean(paired.d), std::log(1.12) / 4, 1e-12);
  EXPECT_EQ(paired.numbers.back(), 8);

  // Without the control every round is read: the first placement's rounds weigh 4 in 12.
  const Results plain = rotated(12, effect, false);
  const PairedRounds all = pair_rounds(plain.series[0], analysed_rounds(plain), false);
  ASSERT_EQ(all.d.size(), 12u);
  EXPECT_NEAR(mean(all.d), std::log(1.12) * 4 / 12, 1e-12);

  // A cycle with a round missing (a failed run) is not read at all: its placements would weigh
  // unequally. 16 rounds, round 11 lost: only the first cycle is read.
  Results holed = rotated(16, effect, true);
  holed.series[0].head[11] = kMissing;  // plan index 11 = analysed round 11 (one warm-up first)
  const PairedRounds kept = pair_rounds(holed.series[0], analysed_rounds(holed), false);
  ASSERT_EQ(kept.d.size(), 8u);
  EXPECT_EQ(kept.numbers.back(), 8);
}

TEST(PlacementRotation, APRsChangeSurvivesEveryPlacementAndOnePlacementsEffectWidensTheInterval) {
  // The PR is 10% faster at every placement: the analysis reads -10%, decided.
  AnalysisOptions options;
  Results faster = rotated(16, {-0.10, -0.10, -0.10, -0.10}, true);
  faster.config.threshold = 0.02;
  faster.complete = true;
  // The machine's noise: a small wobble on the base so the fit has a variance.
  for (std::size_t i = 0; i < faster.series[0].base.size(); ++i)
    faster.series[0].base[i] *= 1 + 0.002 * static_cast<double>(static_cast<int>(i % 3) - 1);
  const Analysis a = analyse(faster, options);
  ASSERT_EQ(a.benchmarks.size(), 1u);
  EXPECT_NEAR(a.benchmarks[0].change, -0.10, 0.005);
  EXPECT_EQ(a.benchmarks[0].verdict, Verdict::Improvement);

  // One placement 12% slower, the other three flat: the mean over placements is +2.9%, and the
  // spread between them is in the interval, which reaches below zero: not the PR's regression.
  Results one = rotated(16, {0.12, 0, 0, 0}, true);
  one.config.threshold = 0.02;
  one.complete = true;
  for (std::size_t i = 0; i < one.series[0].base.size(); ++i)
    one.series[0].base[i] *= 1 + 0.002 * static_cast<double>(static_cast<int>(i % 3) - 1);
  const Analysis b = analyse(one, options);
  ASSERT_EQ(b.benchmarks.size(), 1u);
  EXPECT_NEAR(b.benchmarks[0].change, std::exp(std::log(1.12) / 4) - 1, 0.003);
  // Shown above zero (the mean over these four placements is slower) but not beyond the
  // threshold: `slower`, with the spread between placements in an interval 5.8 points wide
  // (+0.02 … +5.8%).
  EXPECT_EQ(b.benchmarks[0].verdict, Verdict::Slower);
  EXPECT_GT(b.benchmarks[0].ci_high - b.benchmarks[0].ci_low, 0.05);
  EXPECT_NEAR(b.benchmarks[0].ci_low, 0.0002, 0.001);

  // The same program read at its one slow placement alone, as without the control: a +12%
  // regression of the PR's, which the next relink may turn into nothing.
  Results alone = rotated(16, {0.12, 0.12, 0.12, 0.12}, false);
  alone.config.threshold = 0.02;
  alone.complete = true;
  for (std::size_t i = 0; i < alone.series[0].base.size(); ++i)
    alone.series[0].base[i] *= 1 + 0.002 * static_cast<double>(static_cast<int>(i % 3) - 1);
  EXPECT_EQ(analyse(alone, options).benchmarks[0].verdict, Verdict::Regression);
}

}  // namespace
}  // namespace benchpr
