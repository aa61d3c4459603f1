// The placement control's rotation and reading: which relinked program each round runs, and that
// only whole cycles of placements are read, so that what one placement does weighs as much as
// each other's whatever round a benchmark stopped at. Hand-checked numbers.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <vector>

#include "benchpr/core/model/placement_rotation.hpp"
#include "benchpr/core/plan/schedule.hpp"
#include "benchpr/core/stats/paired_rounds.hpp"
#include "benchpr/core/stats/stats.hpp"
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

  // A cycle the benchmark ran whole but that lost a round (a failed run) is read with its hole,
  // each placement still weighing a quarter once its level is taken out. 16 rounds, round 11
  // (the first +16 round of the second cycle) lost: 15 read, and the mean over placements is
  // still ln(1.12) / 4.
  Results holed = rotated(16, effect, true);
  holed.series[0].head[11] = kMissing;  // plan index 11 = analysed round 11 (one warm-up first)
  const PairedRounds kept = pair_rounds(holed.series[0], analysed_rounds(holed), false);
  ASSERT_EQ(kept.d.size(), 15u);
  EXPECT_EQ(kept.numbers.back(), 16);
  const PlacementCentred centred = centre_placements(kept, 4);
  EXPECT_NEAR(mean(centred.d), std::log(1.12) / 4, 1e-12);
  // A benchmark whose last look came after round 12 ran no more: its second cycle was not run
  // whole and is not read.
  Results left = rotated(16, effect, true);
  for (std::size_t i = 13; i < left.series[0].base.size(); ++i)
    left.series[0].base[i] = left.series[0].head[i] = kMissing;
  EXPECT_EQ(pair_rounds(left.series[0], analysed_rounds(left), false).d.size(), 8u);
}

// A session of `rounds` analysed rounds where the base runs at `base_offset` and the PR at
// `head_offset` of four, each side's time 100 * (1 + f[offset + slot]) times its own change, and
// a small wobble of the machine so the fit has a variance. Without the control every round runs
// slot 0.
Results placed(int rounds, const std::array<double, 4>& f, int base_offset, int head_offset,
               double pr_change, bool control) {
  Results r;
  r.plan = make_schedule(rounds, 1, 5);
  r.rounds_done = rounds + 1;
  r.complete = true;
  r.config.threshold = 0.02;
  if (control) r.placement_shifts = {0, 16, 32, 48};
  BenchmarkSeries s;
  s.suite = "micro";
  s.name = "BM_A";
  s.unit = "ns";
  int number = 0;
  for (const RoundPlan& p : r.plan) {
    if (!p.warmup) ++number;
    const int slot = control && !p.warmup ? placement_slot(number, 4) : 0;
    const double wobble = 1 + 0.002 * static_cast<double>(static_cast<int>(p.index % 3) - 1);
    s.base.push_back(100 * (1 + f[static_cast<std::size_t>((base_offset + slot) % 4)]) * wobble);
    s.head.push_back(100 * (1 + f[static_cast<std::size_t>((head_offset + slot) % 4)]) *
                     (1 + pr_change));
  }
  r.series.push_back(s);
  return r;
}

TEST(PlacementRotation, APlacementEffectOfIdenticalCodeCancelsAndThePRsChangeSurvives) {
  // Identical code, 12% slower at one of the four 16-byte offsets; the relink put the base's at
  // offset 0 and the PR's at offset 1. Without the control every round runs those: the PR reads
  // 10.7% faster (1 / 1.12), an improvement it did not make.
  const std::array<double, 4> f = {0.12, 0, 0, 0};
  const Analysis alone = analyse(placed(16, f, 0, 1, 0, false));
  ASSERT_EQ(alone.benchmarks.size(), 1u);
  EXPECT_NEAR(alone.benchmarks[0].change, 1 / 1.12 - 1, 0.003);
  EXPECT_EQ(alone.benchmarks[0].verdict, Verdict::Improvement);
  // With it, each side runs every offset once per order per cycle: the effect cancels, and with
  // the placements' own levels taken out the interval is the machine's noise alone: unchanged.
  const Analysis rotated_reading = analyse(placed(16, f, 0, 1, 0, true));
  EXPECT_NEAR(rotated_reading.benchmarks[0].change, 0, 0.003);
  EXPECT_EQ(rotated_reading.benchmarks[0].verdict, Verdict::Unchanged);
  EXPECT_LT(rotated_reading.benchmarks[0].ci_high - rotated_reading.benchmarks[0].ci_low, 0.01);

  // The PR 10% faster at every placement, beside the same placement effect: −10%, decided.
  const Analysis faster = analyse(placed(16, f, 0, 1, -0.10, true));
  EXPECT_NEAR(faster.benchmarks[0].change, -0.10, 0.003);
  EXPECT_EQ(faster.benchmarks[0].verdict, Verdict::Improvement);
}

TEST(PlacementRotation, APRSlowerAtOnePlacementOfFourReadsItsMeanOverThem) {
  // The PR's own code (not the base's) 12% slower at one placement: what it costs over
  // placements is the mean, (1.12 · 1 · 1 · 1)^(1/4) − 1 = +2.9%, beyond the 2% threshold and
  // shown beyond half of it: the PR's regression, not hidden by the control.
  std::array<double, 4> none = {0, 0, 0, 0};
  Results one = placed(16, none, 0, 0, 0, true);
  int number = 0;
  for (std::size_t i = 0; i < one.plan.size(); ++i) {
    if (!one.plan[i].warmup) ++number;
    if (!one.plan[i].warmup && placement_slot(number, 4) == 0) one.series[0].head[i] *= 1.12;
  }
  const Analysis b = analyse(one);
  EXPECT_NEAR(b.benchmarks[0].change, std::exp(std::log(1.12) / 4) - 1, 0.003);
  EXPECT_EQ(b.benchmarks[0].verdict, Verdict::Regression);
  // Each placement's level is not noise about the mean: the interval is the machine's.
  EXPECT_LT(b.benchmarks[0].ci_high - b.benchmarks[0].ci_low, 0.01);
}

TEST(PlacementRotation, TakingOutThePlacementsCostsTheirDegreesOfFreedom) {
  // Eight rounds, one cycle: two per placement. d = placement level + noise.
  PairedRounds r;
  r.d = {0.10, 0.12, 0.0, 0.02, -0.01, 0.01, 0.03, 0.05};
  r.s = {-1, 1, 1, -1, -1, 1, 1, -1};
  r.numbers = {1, 2, 3, 4, 5, 6, 7, 8};
  const PlacementCentred c = centre_placements(r, 4);
  EXPECT_EQ(c.df_cost, 3);
  // Placement means 0.11, 0.01, 0.00, 0.04; grand mean 0.04: each round keeps its offset from
  // its placement's mean.
  const std::vector<double> want = {0.03, 0.05, 0.03, 0.05, 0.03, 0.05, 0.03, 0.05};
  ASSERT_EQ(c.d.size(), want.size());
  for (std::size_t i = 0; i < want.size(); ++i) EXPECT_NEAR(c.d[i], want[i], 1e-12) << i;
  // The fit: the same mean, on 6 - 3 = 3 degrees of freedom.
  const stats::CrossoverFit fit = stats::with_df_cost(stats::fit_crossover(c.d, r.s), c.df_cost);
  EXPECT_NEAR(fit.mu, 0.04, 1e-12);
  EXPECT_EQ(fit.df, 3);
  // Without the control: nothing taken out, nothing paid.
  EXPECT_EQ(centre_placements(r, 0).df_cost, 0);
  EXPECT_EQ(centre_placements(r, 0).d, r.d);
  // One cycle of two rounds per placement leaves 8 - 2 - 3 = 3; fewer rounds than that cost:
  // unusable rather than a fit on no degrees of freedom.
  EXPECT_FALSE(stats::with_df_cost(stats::fit_crossover({0.1, 0.2, 0.1}, {1, -1, 1}), 3).usable());
}

}  // namespace
}  // namespace benchpr
