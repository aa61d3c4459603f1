// The round design's arithmetic on hand-made noise and costs.
#include <cmath>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "benchpr/core/plan/round_design.hpp"

namespace benchpr {
namespace {

using ::testing::HasSubstr;

// 40 benchmarks in one suite measured at 0.05 s x 3 repetitions. time_plan prices a process as
// fixed + 40 * R * 1.5 * m, so a round (both sides) costs 2 * (fixed + 60 * R * m).
SuiteCost suite_with_fixed(double fixed) {
  return {"core", fixed + 40 * 3 * 1.5 * 0.05, true, 40, 0.05, 3};
}

RoundDesignInput input(double fixed, BenchmarkNoise noise) {
  RoundDesignInput in;
  in.suites = {suite_with_fixed(fixed)};
  in.benchmarks = {noise};
  in.seconds_left = 600;
  in.max_rounds = 1000;
  in.min_rounds = 2;
  in.current.min_time = 0.05;
  in.current.repetitions = 3;
  in.repetitions = {1, 2, 3, 5};
  in.within_exponent = 1;  // within-process noise that averages out as 1 / m: round numbers
  return in;
}

TEST(RoundDesign, TheValueOfRepetitions) {
  EXPECT_DOUBLE_EQ(value_variance_factor(1), 1.0);
  EXPECT_DOUBLE_EQ(value_variance_factor(2), 0.5);  // the median of two is their mean
  EXPECT_DOUBLE_EQ(value_variance_factor(3), 0.4487);
  EXPECT_DOUBLE_EQ(value_variance_factor(5), 0.2868);
  EXPECT_NEAR(value_variance_factor(100), 0.0157, 1e-4);  // π / 200
}

TEST(RoundDesign, RoundChangeVarianceSplitsBetweenAndWithin) {
  // Between 1e-4, within 4e-4 at 0.05 s: at 0.05 s x 3, 2 * (1e-4 + 0.4487 * 4e-4).
  const BenchmarkNoise n{4e-4, 1e-4};
  EXPECT_NEAR(round_change_variance(n, 0.05, 3, 1.0), 5.5896e-4, 1e-12);
  // At 0.01 s one repetition has 5 times the within variance: 2 * (1e-4 + 2e-3).
  EXPECT_NEAR(round_change_variance(n, 0.01, 1, 1.0), 4.2e-3, 1e-12);
}

TEST(RoundDesign, ManyShortProcessesWhenBetweenProcessNoiseDominates) {
  // Between 4e-4, within 1e-4, processes that cost 0.1 s to start. 0.01 s x 1: a round costs
  // 2 * (0.1 + 0.6) = 1.4 s, 600 s afford 428 rounds of variance 2 * (4e-4 + 5e-4) = 1.8e-3.
  // 0.05 s x 3 (today's): 18.2 s, 32 rounds of 2 * (4e-4 + 0.4487e-4) = 8.8974e-4.
  const RoundDesign d = choose_round_design(input(0.1, {1e-4, 4e-4}));
  EXPECT_DOUBLE_EQ(d.min_time, 0.01);
  EXPECT_EQ(d.repetitions, 1);
  EXPECT_NEAR(d.round_seconds, 1.4, 1e-9);
  EXPECT_EQ(d.rounds, 428);
  EXPECT_NEAR(d.variance, 1.8e-3 / 428, 1e-12);
}

TEST(RoundDesign, LongerRepetitionsWhenWithinProcessNoiseDominates) {
  // Between 1e-5, within 4e-4, 3 s to start a process; candidates 0.05 or 0.2 s, 1 or 3
  // repetitions. 0.05 x 1: 12 s, 50 rounds, 8.2e-4 / 50 = 1.64e-5. 0.05 x 3: 24 s, 24 rounds,
  // 3.7896e-4 / 24 = 1.579e-5. 0.2 x 1: 30 s, 20 rounds, 2.2e-4 / 20 = 1.1e-5. 0.2 x 3: 78 s,
  // 6 rounds, 1.0974e-4 / 6 = 1.829e-5.
  RoundDesignInput in = input(3, {4e-4, 1e-5});
  in.min_times = {0.05, 0.2};
  in.repetitions = {1, 3};
  const RoundDesign d = choose_round_design(in);
  EXPECT_DOUBLE_EQ(d.min_time, 0.2);
  EXPECT_EQ(d.repetitions, 1);
  EXPECT_EQ(d.rounds, 20);
  EXPECT_NEAR(d.variance, 1.1e-5, 1e-12);
}

TEST(RoundDesign, CctzLikeNoiseGetsShortRepetitionsAndMoreOfThem) {
  // The noise measured on cctz: one repetition 10.3% at 0.05 s (variance 0.0107), falling only
  // as m^-0.2, between processes 4.2% (0.0018); 0.5 s to start a process, 100 rounds at most.
  // 0.01 s x 5: a round costs 2 * (0.5 + 40 * 5 * 1.5 * 0.01) = 7 s, 84 rounds in 600 s, each of
  // variance 2 * (0.0018 + 0.2868 * 0.0107 * 5^0.2) = 0.012068: 1.437e-4. Today's 0.05 s x 3:
  // 19 s, 30 rounds of 2 * (0.0018 + 0.4487 * 0.0107) = 0.013202: 4.40e-4, three times as much.
  RoundDesignInput in;
  in.suites = {suite_with_fixed(0.5)};
  in.benchmarks = {{0.0107, 0.0018}};
  in.seconds_left = 600;
  in.max_rounds = 100;
  in.current.min_time = 0.05;
  in.current.repetitions = 3;
  in.repetitions = {1, 2, 3, 5, 10};
  const RoundDesign d = choose_round_design(in);
  EXPECT_DOUBLE_EQ(d.min_time, 0.01);
  EXPECT_EQ(d.repetitions, 5);
  EXPECT_NEAR(d.round_seconds, 7.0, 1e-9);
  EXPECT_EQ(d.rounds, 84);
  EXPECT_NEAR(d.variance, 0.012068118 / 84, 1e-9);
  // As shipped only 10 repetitions are offered (the least time's gain the model does not see):
  // 0.01 s x 10 costs 2 * (0.5 + 40 * 10 * 1.5 * 0.01) = 13 s, 46 rounds, each of variance
  // 2 * (0.0018 + π/20 * 0.0107 * 5^0.2) = 0.0082380; 0.02 s x 10 (25 s, 24 rounds of 0.0076376)
  // would leave 3.18e-4, more than 1.79e-4.
  const RoundDesign shipped = choose_round_design(RoundDesignInput{
      in.benchmarks, in.suites, 0, 600, 100, 2, in.current, RoundDesignInput{}.min_times});
  EXPECT_DOUBLE_EQ(shipped.min_time, 0.01);
  EXPECT_EQ(shipped.repetitions, 10);
  EXPECT_NEAR(shipped.round_seconds, 13.0, 1e-9);
  EXPECT_EQ(shipped.rounds, 46);
  EXPECT_NEAR(shipped.variance, 0.0082380 / 46, 1e-8);
}

TEST(RoundDesign, RoundsBeyondTheHorizonBuyNothing) {
  // As in ManyShortProcesses, but the plan looks at 20 more rounds at most: every design that
  // affords 20 is judged on its per-round variance. From the current 0.01 x 1 (1.8e-3 / 20 =
  // 9e-5, the uncapped choice): 0.01 x 3:
  // 2 * (4e-4 + 0.4487 * 5e-4) / 20 = 6.2435e-5; 0.2 x 1 (24.2 s, 24 rounds, capped at 20):
  // 2 * (4e-4 + 0.25e-4) / 20 = 4.25e-5; 0.2 x 3 (72.2 s): 8 rounds, 1.028e-4.
  RoundDesignInput in = input(0.1, {1e-4, 4e-4});
  in.max_rounds = 20;
  in.current.min_time = 0.01;
  in.current.repetitions = 1;
  in.min_times = {0.01, 0.2};
  in.repetitions = {1, 3};
  const RoundDesign d = choose_round_design(in);
  EXPECT_DOUBLE_EQ(d.min_time, 0.2);
  EXPECT_EQ(d.repetitions, 1);
  EXPECT_EQ(d.rounds, 20);
  EXPECT_NEAR(d.variance, 4.25e-5, 1e-12);
}

TEST(RoundDesign, KeepsTheCurrentDesignUnlessClearlyBetter) {
  // Within-dominated as above, at 0.05 s: the current 3 repetitions give 1.579e-5; 1 repetition
  // (12 s, 50 rounds) 8.2e-4 / 50 = 1.64e-5, worse: it stays.
  RoundDesignInput in = input(3, {4e-4, 1e-5});
  in.min_times = {0.05};
  in.repetitions = {1, 3};
  RoundDesign d = choose_round_design(in);
  EXPECT_EQ(d.repetitions, 3);
  EXPECT_EQ(d.rounds, 24);
  // 2 repetitions (18 s, 32 rounds): 2 * (1e-5 + 2e-4) / 32 = 1.3125e-5, 1.2x better: switches.
  in.repetitions = {2, 3};
  d = choose_round_design(in);
  EXPECT_EQ(d.repetitions, 2);
  EXPECT_EQ(d.rounds, 32);
  // 5 repetitions (36 s, 16 rounds): 2 * (1e-5 + 0.2868 * 4e-4) / 16 = 1.559e-5, 1.3% better:
  // not worth a switch.
  in.repetitions = {3, 5};
  d = choose_round_design(in);
  EXPECT_EQ(d.repetitions, 3);
}

TEST(RoundDesign, WithoutNoiseEstimatesTheCurrentDesignStays) {
  RoundDesignInput in = input(0.1, {kMissing, kMissing});
  const RoundDesign d = choose_round_design(in);
  EXPECT_DOUBLE_EQ(d.min_time, 0.05);
  EXPECT_EQ(d.repetitions, 3);
  EXPECT_NEAR(d.round_seconds, 18.2, 1e-9);
}

TEST(RoundDesign, TheNextLookMustFit) {
  // Within-dominated, 240 s left and a look 10 rounds away. 0.2 x 1 would be best (30 s a round,
  // 8 rounds: 2.2e-4 / 8 = 2.75e-5) but does not reach the look; of those that do, the current
  // 0.05 x 3 (24 s, 10 rounds, 3.7896e-5) beats 0.05 x 1 (12 s, 20 rounds, 4.1e-5).
  RoundDesignInput in = input(3, {4e-4, 1e-5});
  in.seconds_left = 240;
  in.min_rounds = 10;
  in.min_times = {0.05, 0.2};
  in.repetitions = {1, 3};
  const RoundDesign d = choose_round_design(in);
  EXPECT_DOUBLE_EQ(d.min_time, 0.05);
  EXPECT_EQ(d.repetitions, 3);
  EXPECT_EQ(d.rounds, 10);
  // When nothing reaches it, the cheapest round: 0.05 x 1.
  in.seconds_left = 5;
  const RoundDesign cheapest = choose_round_design(in);
  EXPECT_DOUBLE_EQ(cheapest.min_time, 0.05);
  EXPECT_EQ(cheapest.repetitions, 1);
  EXPECT_DOUBLE_EQ(cheapest.round_seconds, 12.0);
}

TEST(RoundDesign, AMeasuredProcessPricedForFewerBenchmarks) {
  // 40 benchmarks at 0.05 s x 3 took 12 s of wall time: 9 s sized, 3 s fixed. For 10: 3 + 2.25.
  const SuiteCost measured = suite_with_fixed(3);
  EXPECT_DOUBLE_EQ(for_benchmarks(measured, 10).run_seconds, 5.25);
  EXPECT_EQ(for_benchmarks(measured, 10).benchmarks, 10);
  EXPECT_DOUBLE_EQ(for_benchmarks(measured, 0).run_seconds, 0.0);
  // On a busy machine the run got 6 s of CPU in 12 s (half a CPU): 9 s sized cannot be; the
  // fixed part is CPU time beyond the sized part (0 here), and the whole is stretched by 2:
  // 10 benchmarks' 2.25 s of CPU take 4.5 s.
  SuiteCost busy = measured;
  busy.cpu_seconds = 6;
  EXPECT_DOUBLE_EQ(for_benchmarks(busy, 10).run_seconds, 4.5);
  // Suites benchpr does not size cost what they cost.
  SuiteCost whole{"py", 7, false};
  EXPECT_DOUBLE_EQ(for_benchmarks(whole, 1).run_seconds, 7.0);
}

BenchmarkSeries series_with_changes(const std::vector<double>& changes) {
  BenchmarkSeries s;
  s.base.push_back(100);  // the warm-up
  s.head.push_back(200);
  for (double c : changes) {
    s.base.push_back(100);
    s.head.push_back(100 * std::exp(c));
  }
  return s;
}

TEST(RoundDesign, BetweenProcessNoiseFromTheRounds) {
  // Log ratios 0, ±0.02, ±0.04: variance 0.004 / 4 = 1e-3 per round. Rounds at 0.05 s x 1 leave
  // 2 * 1e-4 of it to the within part: between = (1e-3 - 2e-4) / 2 = 4e-4. The warm-up (round 0)
  // is not among the rounds, so its 2x is not read.
  const BenchmarkSeries s = series_with_changes({0, 0.02, -0.02, 0.04, -0.04});
  std::vector<RoundRan> rounds;
  for (int r = 1; r <= 5; ++r) rounds.push_back({r, 0.05, 1});
  const BenchmarkNoise n = estimate_noise(s, rounds, 1e-4, 1.0);
  EXPECT_DOUBLE_EQ(n.within, 1e-4);
  EXPECT_NEAR(n.between, 4e-4, 1e-12);
  // At 0.01 s x 2 the within part is 2 * 0.5 * 5e-4 = 5e-4: between (1e-3 - 5e-4) / 2.
  for (RoundRan& r : rounds) r = {r.round, 0.01, 2};
  EXPECT_NEAR(estimate_noise(s, rounds, 1e-4, 1.0).between, 2.5e-4, 1e-12);
  // More within noise than the rounds show: between is 0, not negative.
  EXPECT_DOUBLE_EQ(estimate_noise(s, rounds, 1e-2, 1.0).between, 0.0);
}

TEST(RoundDesign, ThePriorUntilThreeRoundsAreIn) {
  const BenchmarkSeries s = series_with_changes({0.1, -0.1});
  const std::vector<RoundRan> rounds = {{1, 0.05, 3}, {2, 0.05, 3}};
  const BenchmarkNoise n = estimate_noise(s, rounds, 2e-4, 1.0);
  EXPECT_DOUBLE_EQ(n.between, kPriorBetweenOverWithin * 2e-4);
  // Without a within-process estimate there is nothing to design from.
  EXPECT_TRUE(is_missing(estimate_noise(s, rounds, kMissing).between));
}

TEST(RoundDesign, DescribesTheChoiceAgainstTheCurrentOne) {
  RoundDesignInput in = input(0.1, {1e-4, 4e-4});
  const RoundDesign current = choose_round_design([&] {
    RoundDesignInput c = in;
    c.min_times = {0.05};
    c.repetitions = {3};
    return c;
  }());
  const RoundDesign chosen = choose_round_design(in);
  EXPECT_THAT(describe_design(chosen, current),
              HasSubstr("--benchmark_min_time=0.01s, 1 repetition, rounds of about 1.4s (6.6× "
                        "less variance within the budget than 0.05s × 3)"));
  // A switch forced by the budget (the current design no longer fits a block) gains nothing
  // and says why it happened instead.
  RoundDesign forced = chosen;
  forced.variance = current.variance * 1.02;
  EXPECT_THAT(describe_design(forced, current),
              HasSubstr("rounds of about 1.4s (too few rounds of 0.05s × 3 fit in what is left "
                        "of the budget)"));
  EXPECT_EQ(describe_design(current, current),
            "--benchmark_min_time=0.05s, 3 repetitions, rounds of about 18s");
}

}  // namespace
}  // namespace benchpr
