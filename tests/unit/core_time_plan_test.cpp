// The time plan's arithmetic on hand-made warm-up costs.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "benchpr/core/plan/time_plan.hpp"

namespace benchpr {
namespace {

using ::testing::HasSubstr;

// 40 benchmarks, 3 repetitions, warm-up run of 12 s at min time 0.05 s: the sized part is
// 40 * 3 * 1.5 * 0.05 = 9 s, so 3 s are fixed. A round (both sides) is 2 * (3 + 180 * m) s.
TimePlanInput forty(double spent, double budget = 900) {
  TimePlanInput in;
  in.budget_seconds = budget;
  in.spent_seconds = spent;
  in.rounds = 10;
  in.repetitions = 3;
  in.suites.push_back({"core", 12.0, true, 40, 0.05, 3});
  return in;
}

TEST(TimePlan, RoundCostFromTheWarmUp) {
  const auto suites = forty(0).suites;
  EXPECT_DOUBLE_EQ(round_seconds(suites, 0.05, 3), 24.0);
  EXPECT_DOUBLE_EQ(round_seconds(suites, 0.01, 3), 2 * (3 + 1.8));
  EXPECT_DOUBLE_EQ(round_seconds(suites, 0.05, 1), 2 * (3 + 3.0));
}

TEST(TimePlan, ConfiguredRoundsAtThePlannedMinTimeWhenTheyFit) {
  const TimePlan p = plan_time(forty(120));
  EXPECT_TRUE(p.fits);
  EXPECT_EQ(p.rounds, 10);
  EXPECT_DOUBLE_EQ(p.min_time_seconds, 0.05);
  EXPECT_DOUBLE_EQ(p.round_seconds, 24.0);
  EXPECT_THAT(p.summary, HasSubstr("plan: 10 rounds of about 24s each at "
                                   "--benchmark_min_time=0.05s, done in about 4m"));
}

TEST(TimePlan, ShorterMinTimeBeforeFewerRounds) {
  // 200 s left: 10 rounds at 0.05 s need 240 s; at 0.02 s, 10 * 2 * (3 + 3.6) = 132 s.
  const TimePlan p = plan_time(forty(700));
  EXPECT_TRUE(p.fits);
  EXPECT_EQ(p.rounds, 10);
  EXPECT_DOUBLE_EQ(p.min_time_seconds, 0.02);
}

TEST(TimePlan, FewerRoundsWhenEvenTheShortestMinTimeDoesNotFit) {
  // 60 s left, 9.6 s per round at 0.01 s: 6 rounds (even).
  const TimePlan p = plan_time(forty(840));
  EXPECT_TRUE(p.fits);
  EXPECT_EQ(p.rounds, 6);
  EXPECT_DOUBLE_EQ(p.min_time_seconds, 0.01);
}

TEST(TimePlan, SaysSoWhenEvenTheMinimalPlanOverruns) {
  // 30 s left fit 3 rounds of 9.6 s; the minimal plan is 4.
  const TimePlan p = plan_time(forty(870));
  EXPECT_FALSE(p.fits);
  EXPECT_EQ(p.rounds, 4);
  EXPECT_THAT(p.summary, HasSubstr("overrun the budget of 15m"));
  EXPECT_THAT(p.summary, HasSubstr("which fits 3 rounds"));
}

// Under the placement control the rounds are whole cycles of its four offsets (8 rounds): never
// part of one, which the analysis would not read.
TEST(TimePlan, WholeCyclesOfPlacementsWhenTheRoundsComeInThem) {
  TimePlanInput in = forty(120);
  in.rounds = 16;
  in.rounds_step = 8;
  EXPECT_EQ(plan_time(in).rounds, 16);
  // 200 s left, 9.6 s a round at the shortest min time: 20 rounds fit, so 16.
  in.spent_seconds = 700;
  in.rounds = 40;
  const TimePlan fewer = plan_time(in);
  EXPECT_TRUE(fewer.fits);
  EXPECT_EQ(fewer.rounds, 16);
  // 60 s left fit 6 rounds: not one cycle, so one cycle anyway, said to overrun.
  in.spent_seconds = 840;
  const TimePlan one = plan_time(in);
  EXPECT_FALSE(one.fits);
  EXPECT_EQ(one.rounds, 8);
}

TEST(TimePlan, FixedRoundsOnlyShortenTheMinTime) {
  TimePlanInput in = forty(840);
  in.rounds_fixed = true;
  const TimePlan p = plan_time(in);
  EXPECT_EQ(p.rounds, 10);
  EXPECT_DOUBLE_EQ(p.min_time_seconds, 0.01);
  EXPECT_FALSE(p.fits);
}

// The same suite on a busy machine: the warm-up run used its 10 s of CPU (9 s sized, 1 s fixed)
// at a quarter of a CPU, so it took 40 s. All of it is stretched, not a 31 s fixed part: a run
// at min time m costs (1 + 180 m) / 0.25 s of wall time.
TEST(TimePlan, BusyWarmUpStretchesTheWholeRunNotAFixedPart) {
  TimePlanInput in = forty(300);
  in.suites[0].run_seconds = 40.0;
  in.suites[0].cpu_seconds = 10.0;
  EXPECT_DOUBLE_EQ(round_seconds(in.suites, 0.05, 3), 2 * 40.0);
  EXPECT_DOUBLE_EQ(round_seconds(in.suites, 0.02, 3), 2 * (1 + 3.6) / 0.25);
  EXPECT_DOUBLE_EQ(round_seconds(in.suites, 0.01, 3), 2 * (1 + 1.8) / 0.25);
  // 600 s left: 10 rounds at 0.05 s need 800 s, at 0.02 s 368 s.
  const TimePlan p = plan_time(in);
  EXPECT_TRUE(p.fits);
  EXPECT_EQ(p.rounds, 10);
  EXPECT_DOUBLE_EQ(p.min_time_seconds, 0.02);
}

TEST(TimePlan, SeveralThreadsUseMoreCpuThanWallTimeAndAreSizedOnWallTime) {
  TimePlanInput in = forty(120);
  in.suites[0].cpu_seconds = 20.0;  // two threads busy for most of the 12 s
  EXPECT_DOUBLE_EQ(round_seconds(in.suites, 0.01, 3), 2 * (3 + 1.8));
}

TEST(TimePlan, SuitesBenchprCannotSizeCostWhatTheyCost) {
  TimePlanInput in;
  in.budget_seconds = 100;
  in.spent_seconds = 40;
  in.rounds = 10;
  in.suites.push_back({"cli", 5.0, false, 0, 0, 1});
  const TimePlan p = plan_time(in);
  EXPECT_EQ(p.rounds, 6);  // 60 s left, 10 s per round
  EXPECT_DOUBLE_EQ(p.min_time_seconds, 0);
  EXPECT_THAT(p.summary, ::testing::Not(HasSubstr("min_time")));
}

}  // namespace
}  // namespace benchpr
