// Adaptive rounds: the pre-registered looks, the per-look level, which benchmarks stay open, why
// a session stops, and that a benchmark keeps the verdict of the look that decided it.
//
// The series are built so the crossover fit is known by hand. Analysed round i (1-based) runs the
// base first when i is odd (s = +1, -1, +1, ...). Per block of 10 rounds the log ratio is
// d = m + a * w with w = (1, 1, -1, -1, 1, 1, -1, -1, 0, 0): w sums to 0 and is orthogonal to s,
// so mu = m, gamma = 0, and for n = 10 the residual SD is a and SE(mu) = a / sqrt(10).
#include "benchpr/core/adaptive/adaptive.hpp"
#include "benchpr/core/adaptive/adaptive_step.hpp"
#include "benchpr/core/evidence/instruction_analysis.hpp"

#include <cmath>
#include <limits>
#include <numeric>

#include <gtest/gtest.h>

namespace benchpr {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr int kPlanned = 30;

struct Shape {
  double m = 0;  // true log ratio
  double a = 0;  // residual scale
};

double d_of(const Shape& shape, int round) {  // round: 1-based analysed round
  static constexpr int w[10] = {1, 1, -1, -1, 1, 1, -1, -1, 0, 0};
  return shape.m + shape.a * w[(round - 1) % 10];
}

class AdaptiveTest : public ::testing::Test {
 protected:
  AdaptiveTest() {
    results_.config.threshold = 0.02;
    results_.config.rounds = 10;
    results_.plan.push_back({0, true, Side::Base});
    for (int i = 1; i <= kPlanned; ++i) {
      results_.plan.push_back({i, false, i % 2 == 1 ? Side::Base : Side::Head});
    }
    results_.complete = true;
    done(10);
  }

  // A benchmark whose first ten rounds follow `first` and later rounds follow `later`.
  void add(const std::string& name, Shape first, Shape later) {
    BenchmarkSeries s;
    s.suite = "bench";
    s.name = name;
    s.unit = "ns";
    s.base.assign(kPlanned + 1, 100.0);
    s.head.assign(kPlanned + 1, 100.0);
    for (int i = 1; i <= kPlanned; ++i) {
      s.head[static_cast<std::size_t>(i)] = 100.0 * std::exp(d_of(i <= 10 ? first : later, i));
    }
    results_.series.push_back(std::move(s));
  }
  void add(const std::string& name, Shape shape) { add(name, shape, shape); }

  void done(int analysed_rounds) { results_.rounds_done = 1 + analysed_rounds; }

  Results results_;
  const AdaptivePlan plan_ = make_adaptive_plan(10, 30, 0.05);
};

const Shape kFlat{0.0, 0.002};           // 90% CI +-0.12%: unchanged
const Shape kRegression{0.0953, 0.002};  // ln 1.10, t ~ 150: a regression at any level
const Shape kNoisy{0.01, 0.05};          // t = 0.63 at 10 rounds, 1.2 at 30: never settles

TEST(AdaptivePlanTest, ThreeLooksWithLinearlyDecreasingWeights) {
  const AdaptivePlan p = make_adaptive_plan(10, 30, 0.05);
  EXPECT_EQ(p.looks, (std::vector<int>{10, 20, 30}));
  ASSERT_EQ(p.alpha_per_look.size(), 3u);
  EXPECT_DOUBLE_EQ(p.alpha_per_look[0], 0.025);  // 3/6 of alpha
  EXPECT_DOUBLE_EQ(p.alpha_per_look[1], 0.05 / 3);
  EXPECT_DOUBLE_EQ(p.alpha_per_look[2], 0.05 / 6);
  EXPECT_NEAR(std::accumulate(p.alpha_per_look.begin(), p.alpha_per_look.end(), 0.0), 0.05, 1e-15);
}

TEST(AdaptivePlanTest, LooksAreEvenAndTheLastLandsOnTheMaximum) {
  const AdaptivePlan p = make_adaptive_plan(5, 15, 0.06);  // 5 -> 6; 15 -> 16
  EXPECT_EQ(p.looks, (std::vector<int>{6, 12, 16}));
  const AdaptivePlan two = make_adaptive_plan(10, 24, 0.06);
  EXPECT_EQ(two.looks, (std::vector<int>{10, 20, 24}));
  const AdaptivePlan one = make_adaptive_plan(10, 4, 0.05);  // maximum below the first look
  EXPECT_EQ(one.looks, (std::vector<int>{10}));
  EXPECT_EQ(one.alpha_per_look, (std::vector<double>{0.05}));
  const AdaptivePlan halves = make_adaptive_plan(10, 20, 0.06);
  EXPECT_EQ(halves.looks, (std::vector<int>{10, 20}));
  EXPECT_DOUBLE_EQ(halves.alpha_per_look[0], 0.04);  // 2/3
  EXPECT_DOUBLE_EQ(halves.alpha_per_look[1], 0.02);  // 1/3
}

TEST(AdaptivePlanTest, ConfigPlanLooksAtOnceTwiceAndThriceTheRounds) {
  Config c;
  c.rounds = 8;
  EXPECT_EQ(adaptive_plan_for(c).looks, (std::vector<int>{8, 16, 24}));
  c.rounds = 7;  // rounded up to whole AB/BA blocks
  EXPECT_EQ(adaptive_plan_for(c).looks, (std::vector<int>{8, 16, 24}));
  EXPECT_DOUBLE_EQ(look_options(adaptive_plan_for(c), 1).alpha, 0.05 / 3);
  EXPECT_DOUBLE_EQ(look_options(adaptive_plan_for(c), 7).alpha, 0.05);  // no such look
}

TEST(AdaptiveHelpers, DecidedVerdicts) {
  const auto with_verdict = [](Verdict v) {
    BenchmarkAnalysis b;
    b.verdict = v;
    return b;
  };
  EXPECT_FALSE(is_decided(with_verdict(Verdict::Inconclusive)));
  for (Verdict v : {Verdict::Regression, Verdict::Improvement, Verdict::Slower, Verdict::Faster,
                    Verdict::Unchanged, Verdict::Added, Verdict::Removed, Verdict::Failed}) {
    EXPECT_TRUE(is_decided(with_verdict(v))) << to_string(v);
  }
  // A benchmark with no value in any analysed round (every round so far left out as lopsided)
  // failed nothing: the next look may measure it. One whose run failed is decided.
  BenchmarkAnalysis unmeasured;
  unmeasured.verdict = Verdict::Failed;
  unmeasured.failure = FailureKind::NotMeasured;
  EXPECT_FALSE(is_decided(unmeasured));
  BenchmarkAnalysis crashed = unmeasured;
  crashed.failure = FailureKind::Signal;
  EXPECT_TRUE(is_decided(crashed));
}

TEST(AdaptiveHelpers, ABenchmarkWithNoValueInTheAnalysedRoundsIsNotMeasuredYet) {
  Results r;
  r.plan = {{0, false, Side::Base}, {1, false, Side::Head}};
  r.rounds_done = 2;
  BenchmarkSeries s;
  s.suite = "core";
  s.name = "BM_Left";
  s.unit = "ns";
  s.base = {kMissing, kMissing};
  s.head = {kMissing, kMissing};
  r.series.push_back(s);
  const Analysis a = analyse(r);
  ASSERT_EQ(a.benchmarks.size(), 1u);
  EXPECT_EQ(a.benchmarks[0].verdict, Verdict::Failed);
  EXPECT_EQ(a.benchmarks[0].failure, FailureKind::NotMeasured);
  EXPECT_EQ(a.benchmarks[0].reason, "no values on either side");
  EXPECT_FALSE(is_decided(a.benchmarks[0]));
}

// The fixed plan's looks as recorded looks: one stage, information 1/3, 2/3 and 1.
std::vector<LookRecord> recorded(const AdaptivePlan& plan) {
  std::vector<LookRecord> looks;
  for (std::size_t k = 0; k < plan.looks.size(); ++k) {
    LookRecord l;
    l.rounds = plan.looks[k];
    l.alpha = plan.alpha_per_look[k];
    l.equivalence_alpha = plan.alpha_per_look[k];
    l.information = static_cast<double>(k + 1) / static_cast<double>(plan.looks.size());
    looks.push_back(l);
  }
  return looks;
}

// A round of both benchmarks costs 10 s.
const RoundPrice kTenSeconds = RoundPrice::measured(10, 2, 2, 0.2);

TEST_F(AdaptiveTest, StopsWhenEveryBenchmarkIsDecided) {
  add("flat", kFlat);
  add("slow", kRegression);
  const LookReadings r = read_looks(results_, plan_, 0);
  const LookStep s =
      step_after_look(StoppingRule::every(10), recorded(plan_), r, false, kInf, kTenSeconds);
  EXPECT_TRUE(s.stop);
  EXPECT_EQ(describe(s.stop_reason), "every benchmark was decided after 10 rounds");
  EXPECT_EQ(s.outcome, "every benchmark is decided");
  EXPECT_EQ(r.rounds, 10);
  EXPECT_TRUE(s.open.empty());
  ASSERT_EQ(r.last_analysis.benchmarks.size(), 2u);
  EXPECT_EQ(r.last_analysis.benchmarks[0].verdict, Verdict::Unchanged);
  EXPECT_EQ(r.last_analysis.benchmarks[1].verdict, Verdict::Regression);
}

TEST_F(AdaptiveTest, ContinuesWithOnlyTheOpenBenchmarks) {
  add("flat", kFlat);
  add("noisy", kNoisy);
  const LookStep s = step_after_look(StoppingRule::every(10), recorded(plan_),
                                     read_looks(results_, plan_, 0), false, 3600, kTenSeconds);
  EXPECT_FALSE(s.stop);
  EXPECT_TRUE(s.stop_reason.empty());
  EXPECT_EQ(s.outcome, "measuring only those");
  EXPECT_EQ(s.open, (std::vector<std::size_t>{1}));
  EXPECT_EQ(s.runnable, (std::vector<std::size_t>{1}));
}

TEST_F(AdaptiveTest, WhatCannotSettleInTheRoundsLeftIsMeasuredNoFurther) {
  // 5% noise per round: with 6 more rounds at most (a round of one benchmark costs 6 s, 40 s
  // are left), "noisy" could not reach ±2% even at the whole α, so the session stops.
  add("flat", kFlat);
  add("noisy", kNoisy);
  const LookStep s = step_after_look(StoppingRule::every(10), recorded(plan_),
                                     read_looks(results_, plan_, 0), false, 40, kTenSeconds);
  EXPECT_TRUE(s.stop);
  EXPECT_EQ(s.unsettled, 1);
  EXPECT_TRUE(s.runnable.empty());
  EXPECT_EQ(describe(s.stop_reason),
            "the 1 still open could not settle in the rounds the budget affords");
  // A design that measures on keeps it.
  StoppingRule on = StoppingRule::every(10);
  on.stop_unsettlable = false;
  const LookStep kept =
      step_after_look(on, recorded(plan_), read_looks(results_, plan_, 0), false, 40, kTenSeconds);
  EXPECT_FALSE(kept.stop);
  EXPECT_EQ(kept.runnable, (std::vector<std::size_t>{1}));
}

TEST_F(AdaptiveTest, RoundsCutShortByTheDeadlineStopAsABudgetSpent) {
  add("noisy", kNoisy);
  const LookStep s = step_after_look(StoppingRule::every(10), recorded(plan_),
                                     read_looks(results_, plan_, 0), true, 3600, kTenSeconds);
  EXPECT_TRUE(s.stop);
  EXPECT_EQ(s.stop_reason.kind, StopKind::BudgetSpent);
  EXPECT_EQ(describe(s.stop_reason), "the budget was spent");
  EXPECT_EQ(s.outcome, "the budget is spent");
}

TEST_F(AdaptiveTest, TheLastLookOfTheHorizonStopsThere) {
  add("noisy", kNoisy);
  done(30);
  // Looks every 10 rounds with a horizon of 3 looks: the third reads all the information.
  StoppingRule rule = StoppingRule::every(10);
  rule.horizon = 30;
  const LookStep s = step_after_look(rule, recorded(plan_), read_looks(results_, plan_, 2), false,
                                     kInf, kTenSeconds);
  EXPECT_TRUE(s.stop);
  EXPECT_EQ(describe(s.stop_reason), "30 rounds, the most the plan looks at");
}

TEST(AdaptiveStep, ARoundsPriceHasAFixedShareAndAShareForEachOpenBenchmark) {
  // 6 s a round with 2 of 4 open and a fifth fixed: 6 = full * (0.2 + 0.8 * 2/4), full = 10.
  const RoundPrice p = RoundPrice::measured(6, 2, 4, 0.2);
  EXPECT_DOUBLE_EQ(p.full, 10);
  EXPECT_DOUBLE_EQ(p.of(4), 10);
  EXPECT_DOUBLE_EQ(p.of(1), 4);  // 10 * (0.2 + 0.2)
  EXPECT_TRUE(std::isnan(RoundPrice::measured(kInf * 0, 2, 4, 0.2).of(1)));
}

TEST(AdaptiveStep, TheFirstLookReadsAStepAndTheBudgetFixesTheStages) {
  const StoppingRule rule = StoppingRule::every(10);
  // 10 s a round, 2 benchmarks, 3000 s: 300 rounds at today's price, more at the cheapest:
  // past the 100-round horizon, so two stages (a fifth of α kept for the looks past it).
  const LookPlan two = plan_look(rule, {}, 0, 3000, kTenSeconds, 2);
  ASSERT_TRUE(two.look);
  EXPECT_EQ(two.look->rounds, 10);
  EXPECT_DOUBLE_EQ(two.look->horizon_share, 0.8);
  // 500 s: 50 rounds, short of the horizon: one stage, the first look a fifth of it.
  const LookPlan one = plan_look(rule, {}, 0, 500, kTenSeconds, 2);
  ASSERT_TRUE(one.look);
  EXPECT_EQ(one.look->rounds, 10);
  EXPECT_DOUBLE_EQ(one.look->horizon_share, 1);
  EXPECT_NEAR(one.look->information, 0.2, 1e-12);
  // Unpriced (no warm-up): the first look counts on the horizon.
  const LookPlan unpriced = plan_look(rule, {}, 0, 500, RoundPrice{}, 2);
  ASSERT_TRUE(unpriced.look);
  EXPECT_EQ(unpriced.look->rounds, 10);
  EXPECT_NEAR(unpriced.look->information, 0.1, 1e-12);
}

TEST(AdaptiveStep, NoLookWhenTheBudgetIsSpentOrTheHorizonReached) {
  const StoppingRule rule = StoppingRule::every(10);
  // 15 s buys one round: not a whole AB/BA block.
  const LookPlan spent = plan_look(rule, {}, 0, 15, kTenSeconds, 2);
  EXPECT_FALSE(spent.look);
  EXPECT_EQ(spent.stop_reason.kind, StopKind::BudgetSpent);
  const LookPlan over = plan_look(rule, {}, 0, -30, kTenSeconds, 2);
  EXPECT_FALSE(over.look);
  // One stage at its horizon: nothing more, whatever the budget.
  LookRecord at_horizon;
  at_horizon.rounds = 100;
  at_horizon.information = 1;
  const LookPlan done = plan_look(rule, {at_horizon}, 100, 1e9, kTenSeconds, 1);
  EXPECT_FALSE(done.look);
  EXPECT_EQ(done.stop_reason, (StopReason{StopKind::MostRounds, 100, {}}));
  EXPECT_EQ(describe(done.stop_reason), "100 rounds, the most the plan looks at");
}

TEST_F(AdaptiveTest, TheLookAnalysesAtItsOwnLevel) {
  add("noisy", kNoisy);
  const LookReadings r = read_looks(results_, plan_, 0);
  ASSERT_EQ(r.last_analysis.benchmarks.size(), 1u);
  const BenchmarkAnalysis& b = r.last_analysis.benchmarks[0];
  EXPECT_EQ(b.verdict, Verdict::Inconclusive);
  // MDE at alpha 0.025 and 80% power, df 8: (t(0.9875) + t(0.8)) * a / sqrt(10)
  // = (2.751524 + 0.888890) * 0.05 / 3.162278 = 0.057560, as a change 5.925%.
  EXPECT_NEAR(b.mde, std::expm1((2.751524 + 0.888890) * 0.05 / std::sqrt(10.0)), 1e-5);
  // At the overall 5% the same data would claim a smaller MDE: (2.306004 + 0.888890) * ...
  EXPECT_GT(b.mde, std::expm1((2.306004 + 0.888890) * 0.05 / std::sqrt(10.0)) + 0.005);
}

TEST_F(AdaptiveTest, LaterLooksKeepTheWholeFamilyInTheMultipleTestingCorrection) {
  // Two benchmarks; "flat" is decided at the first look. BH over both with flat at p = 1 is BH
  // over "noisy" alone at q = (0.05 / 3) * 1/2 = 0.008333, not at the look's full 0.016667.
  add("flat", kFlat);
  add("noisy", kNoisy);
  done(20);
  const LookReadings r = read_looks(results_, plan_, 1);
  ASSERT_EQ(r.last_analysis.benchmarks.size(), 1u);
  // 20 rounds: residual SD = a * sqrt(16/18), SE = SD / sqrt(20), df 18;
  // MDE = (t(1 - 0.008333/2, 18) + t(0.8, 18)) * SE = (2.962735 + 0.862049) * SE -> 4.1141%
  // (it would be 3.7595% with t(1 - 0.016667/2, 18) = 2.639145).
  EXPECT_NEAR(r.last_analysis.benchmarks[0].mde, 0.0411405, 1e-6);
}

TEST_F(AdaptiveTest, ADecidedBenchmarkKeepsItsVerdict) {
  // "flat" is unchanged after 10 rounds. Its later rounds would read as a 10% regression, but a
  // decided benchmark is not run again, and if values appear anyway they are not looked at.
  add("flat", kFlat, kRegression);
  add("noisy", kNoisy);
  done(20);
  const LookReadings r = read_looks(results_, plan_, 1);
  ASSERT_EQ(r.last_analysis.benchmarks.size(), 1u);
  EXPECT_EQ(r.last_analysis.benchmarks[0].name, "noisy");
  EXPECT_EQ(r.last_analysis.benchmarks[0].rounds_used, 20);

  const Analysis a = adaptive_analysis(results_, plan_);
  ASSERT_EQ(a.benchmarks.size(), 2u);
  EXPECT_EQ(a.benchmarks[0].verdict, Verdict::Unchanged);
  EXPECT_EQ(a.benchmarks[0].rounds_used, 10);
  EXPECT_EQ(a.benchmarks[1].verdict, Verdict::Inconclusive);
  EXPECT_EQ(a.benchmarks[1].rounds_used, 20);
  // One of two benchmarks still open is "many inconclusive": no merge advice either way.
  EXPECT_EQ(a.recommendation.kind, RecommendationKind::Inconclusive) << a.recommendation.reason;
}

TEST_F(AdaptiveTest, LateDecisionsAreReadAtTheirLook) {
  // Noisy for 10 rounds, then a clear 10% regression: open at look 1, decided at look 2.
  add("late", kNoisy, kRegression);
  done(20);
  const LookReadings r = read_looks(results_, plan_, 2);
  EXPECT_EQ(r.decided_at, (std::vector<int>{1}));
  EXPECT_EQ(r.decided_per_look, (std::vector<int>{0, 1}));
  EXPECT_EQ(r.rounds, 20);
  EXPECT_FALSE(r.cut_short);
  EXPECT_EQ(r.benchmarks[0].verdict, Verdict::Regression) << r.benchmarks[0].reason;
  EXPECT_NEAR(r.benchmarks[0].p_adjusted, r.benchmarks[0].p, 1e-15);  // one benchmark: BH = p
}

// cctz's BM_Format_ParseTime/1: its two base counts differed by 9.5%, so its count decided
// nothing; left open, it kept the rounds going after every timed benchmark was decided (looks
// 15–20 of a 1,000-round session read "1 still open").
TEST_F(AdaptiveTest, ACountThatDecidesNothingIsNotLeftOpenForRounds) {
  add("flat", kFlat);
  BenchmarkSeries count;
  count.suite = instruction_suite_name("bench");
  count.name = "flat";
  count.unit = "instructions";
  count.metric = std::string(kInstructionsMetric);
  count.base = {1000, kMissing, 1095};
  count.head = {1017};
  results_.series.push_back(count);
  const LookReadings r = read_looks(results_, plan_, 0);
  ASSERT_EQ(r.benchmarks.size(), 2u);
  ASSERT_EQ(r.benchmarks[1].verdict, Verdict::Inconclusive) << r.benchmarks[1].reason;
  EXPECT_EQ(r.decided_at, (std::vector<int>{0, 0}));
  EXPECT_EQ(r.decided_per_look, (std::vector<int>{1}));  // the rounds decided one benchmark
  const LookStep step = step_after_look(StoppingRule{}, {}, r, false, 600, RoundPrice{});
  EXPECT_TRUE(step.open.empty());
  EXPECT_TRUE(step.stop);
  EXPECT_EQ(step.stop_reason.kind, StopKind::Decided);
  // The note counts the timed benchmark alone: decided, none still inconclusive.
  const Analysis a = adaptive_analysis(results_, plan_);
  ASSERT_FALSE(a.notes.empty());
  bool rounds_note = false;
  for (const std::string& note : plain_texts(a.notes)) {
    if (note.rfind("Adaptive rounds", 0) != 0) continue;
    rounds_note = true;
    EXPECT_NE(note.find("1 benchmark decided after 10 rounds"), std::string::npos) << note;
    EXPECT_EQ(note.find("inconclusive"), std::string::npos) << note;
  }
  EXPECT_TRUE(rounds_note);
}

TEST_F(AdaptiveTest, ASessionCutShortIsReadOnTheRoundsItRan) {
  add("flat", kFlat);
  add("noisy", kNoisy);
  done(14);  // interrupted between the looks at 10 and 20
  const LookReadings r = read_looks(results_, plan_, 2);
  EXPECT_TRUE(r.cut_short);
  EXPECT_EQ(r.look, 1);
  EXPECT_EQ(r.rounds, 14);
  EXPECT_EQ(r.benchmarks[0].rounds_used, 10);
  EXPECT_EQ(r.benchmarks[1].rounds_used, 14);
  // Stopping exactly at a look does not read the same rounds again at the next level.
  done(10);
  const LookReadings at_look = read_looks(results_, plan_, 2);
  EXPECT_EQ(at_look.look, 0);
  EXPECT_FALSE(at_look.cut_short);
}

TEST_F(AdaptiveTest, TheFinalNoteSaysWhatEachLookDecided) {
  add("flat", kFlat);
  add("late", kNoisy, kRegression);
  add("noisy", kNoisy);
  done(30);
  const Analysis a = adaptive_analysis(results_, plan_);
  ASSERT_FALSE(a.notes.empty());
  EXPECT_EQ(a.notes.back().plain(),
            "Adaptive rounds (looks planned at 10, 20, 30 rounds; α 2.5%, 1.7%, 0.83%): "
            "1 benchmark decided after 10 rounds, 1 after 20; 1 still inconclusive.");
  EXPECT_EQ(a.benchmarks[1].verdict, Verdict::Regression);
  EXPECT_EQ(a.recommendation.kind, RecommendationKind::DoNotMerge);
}

// --- α-spending over an open-ended number of looks ---------------------------------------

TEST(SpendingTest, SpendingFunctionsSpendAllOfAlphaAtFullInformationAndNothingBefore) {
  for (SpendingRule rule : {SpendingRule::OBrienFleming, SpendingRule::Pocock}) {
    EXPECT_EQ(spent_alpha(rule, 0, 0.05), 0);
    EXPECT_NEAR(spent_alpha(rule, 1, 0.05), 0.05, 1e-12);
    double before = 0;
    for (double t = 0.1; t <= 1.0001; t += 0.1) {
      EXPECT_GT(spent_alpha(rule, t, 0.05), before);
      before = spent_alpha(rule, t, 0.05);
    }
  }
  // By hand: Pocock 0.05 ln(1 + (e - 1) / 2) = 0.05 ln 1.859141 = 0.0310057; O'Brien-Fleming 2 - 2
  // Phi(1.96 / sqrt 0.5) = 2 - 2 Phi(2.7718) = 0.005575.
  EXPECT_NEAR(spent_alpha(SpendingRule::Pocock, 0.5, 0.05), 0.0310057, 1e-6);
  EXPECT_NEAR(spent_alpha(SpendingRule::OBrienFleming, 0.5, 0.05), 0.005575, 1e-5);
}

TEST(SpendingTest, LooksGoOnWhileTheBudgetAllowsAndTheLevelsAddUpToAlpha) {
  // Affordable rounds as a session would see them: 40 at first, then more as looks close
  // benchmarks and rounds get cheaper.
  const SpendingPolicy policy;
  std::vector<LookRecord> looks;
  int done = 0;
  for (int affordable : {40, 60, 70, 12}) {
    const std::optional<LookRecord> l = next_look(looks, done, 10, affordable, policy);
    ASSERT_TRUE(l.has_value());
    // A tail shorter than half a step (2 of 12) joins the look.
    EXPECT_EQ(l->rounds, done + (affordable == 12 ? 12 : 10));
    looks.push_back(*l);
    done = l->rounds;
  }
  EXPECT_NEAR(looks[0].information, 10.0 / 40, 1e-12);
  EXPECT_NEAR(looks[1].information, 0.25 + 0.75 * 10 / 60, 1e-12);
  EXPECT_DOUBLE_EQ(looks.back().information, 1.0);
  double alpha = 0, eq = 0;
  for (std::size_t k = 0; k < looks.size(); ++k) {
    alpha += looks[k].alpha;
    eq += looks[k].equivalence_alpha;
    if (k > 0) {
      EXPECT_GT(looks[k].information, looks[k - 1].information);
    }
  }
  EXPECT_NEAR(alpha, 0.05, 1e-12);
  EXPECT_NEAR(eq, 0.05, 1e-12);
  // All of the information is in: no further look, whatever the budget.
  EXPECT_FALSE(next_look(looks, done, 10, 100, policy).has_value());
}

TEST(SpendingTest, ABudgetBeyondTheHorizonKeepsAFifthOfAlphaForLooksPastIt) {
  // Horizon 100 rounds, a look every 10, and a budget that affords 500 rounds at the first look:
  // two stages, the first on 80% of the information scale and of α.
  const SpendingPolicy policy;  // late share 0.2, late looks +25% of the rounds done
  std::vector<LookRecord> looks;
  int done = 0;
  while (done < 100) {
    const std::optional<LookRecord> l = next_look(looks, done, 10, 500 - done, policy, 100);
    ASSERT_TRUE(l.has_value());
    EXPECT_EQ(l->rounds, done + 10);
    EXPECT_DOUBLE_EQ(l->horizon_share, 0.8);
    looks.push_back(*l);
    done = l->rounds;
  }
  // By hand: 0.8 * 0.05 ln(1 + (e - 1) 0.1) = 0.0063426; the next look 0.8 * 0.05 (ln(1 + (e - 1)
  // 0.2) - ln(1 + (e - 1) 0.1)) = 0.0054732. The horizon's look ends the first stage at 0.8 with
  // 80% of both levels spent.
  EXPECT_NEAR(looks[0].information, 0.08, 1e-12);
  EXPECT_NEAR(looks[0].alpha, 0.0063426, 1e-7);
  EXPECT_NEAR(looks[1].alpha, 0.0054732, 1e-7);
  EXPECT_DOUBLE_EQ(looks.back().information, 0.8);
  const auto sum = [&](double LookRecord::*level) {
    double total = 0;
    for (const LookRecord& l : looks) total += l.*level;
    return total;
  };
  EXPECT_NEAR(sum(&LookRecord::alpha), 0.04, 1e-12);
  EXPECT_NEAR(sum(&LookRecord::equivalence_alpha), 0.04, 1e-12);
  // Past the horizon: a quarter again the rounds done (26 of 400 affordable, whole blocks):
  // 0.2 * 0.05 ln(1 + (e - 1) 26 / 400) = 0.0010588.
  std::optional<LookRecord> l = next_look(looks, done, 10, 400, policy, 100);
  ASSERT_TRUE(l.has_value());
  EXPECT_EQ(l->rounds, 126);
  EXPECT_NEAR(l->information, 0.8 + 0.2 * 26 / 400, 1e-12);
  EXPECT_NEAR(l->alpha, 0.0010588, 1e-7);
  // "Unchanged" past the horizon on the Pocock-type function too: the same increment (on the
  // O'Brien–Fleming-type one it would be 0.2 (2 - 2 Phi(1.96 / sqrt 0.065)) = 3.0e-15).
  EXPECT_NEAR(l->equivalence_alpha, 0.0010588, 1e-7);
  looks.push_back(*l);
  // Then 32 more (a quarter of 126, whole blocks), and a look that takes all the budget affords
  // has the rest of α.
  l = next_look(looks, 126, 10, 300, policy, 100);
  ASSERT_TRUE(l.has_value());
  EXPECT_EQ(l->rounds, 158);
  looks.push_back(*l);
  l = next_look(looks, 158, 10, 40, policy, 100);
  ASSERT_TRUE(l.has_value());
  EXPECT_EQ(l->rounds, 198);
  EXPECT_DOUBLE_EQ(l->information, 1.0);
  looks.push_back(*l);
  EXPECT_NEAR(sum(&LookRecord::alpha), 0.05, 1e-12);
  EXPECT_NEAR(sum(&LookRecord::equivalence_alpha), 0.05, 1e-12);
  for (std::size_t k = 1; k < looks.size(); ++k) {
    EXPECT_GT(looks[k].information, looks[k - 1].information);
  }
  EXPECT_FALSE(next_look(looks, 198, 10, 500, policy, 100).has_value());
}

TEST(SpendingTest, ABudgetThatEndsBeforeTheHorizonSpendsAllOfAlphaOnItsLastLook) {
  // Two stages planned (500 affordable at first), then the rounds get dearer: the look that takes
  // every round the budget still affords has all the information, the late share included.
  std::vector<LookRecord> looks;
  std::optional<LookRecord> l = next_look(looks, 0, 10, 500, {}, 100);
  ASSERT_TRUE(l.has_value());
  looks.push_back(*l);
  l = next_look(looks, 10, 10, 12, {}, 100);
  ASSERT_TRUE(l.has_value());
  EXPECT_EQ(l->rounds, 22);
  EXPECT_DOUBLE_EQ(l->information, 1.0);
  EXPECT_NEAR(looks[0].alpha + l->alpha, 0.05, 1e-12);
}

TEST(SpendingTest, ABudgetThatDoesNotReachTheHorizonAtFirstIsOneStage) {
  // 100 affordable rounds at the first look, horizon 100: one stage, all of α by the horizon, and
  // no look past it however cheap the rounds become.
  std::vector<LookRecord> looks;
  int done = 0;
  while (const std::optional<LookRecord> l = next_look(looks, done, 10, 100, {}, 100)) {
    EXPECT_DOUBLE_EQ(l->horizon_share, 1.0);
    looks.push_back(*l);
    done = l->rounds;
  }
  EXPECT_EQ(done, 100);
  EXPECT_DOUBLE_EQ(looks.back().information, 1.0);
  double alpha = 0;
  for (const LookRecord& r : looks) alpha += r.alpha;
  EXPECT_NEAR(alpha, 0.05, 1e-12);
  EXPECT_FALSE(next_look(looks, 100, 10, 900, {}, 100).has_value());
}

TEST(SpendingTest, TheStagesAreReadOnWhatTheCheapestRoundsWouldReach) {
  // 60 full rounds affordable at the first look, horizon 100: one stage on those alone, but the
  // rounds after the first look would reach 270 if one benchmark were left open, so two stages.
  // The first look still reads the 60 it can afford: information 0.8 × 10 / 60.
  const std::optional<LookRecord> two = next_look({}, 0, 10, 60, {}, 100, 270);
  ASSERT_TRUE(two.has_value());
  EXPECT_DOUBLE_EQ(two->horizon_share, 0.8);
  EXPECT_DOUBLE_EQ(two->information, 0.8 * 10 / 60);
  EXPECT_EQ(two->rounds, 10);
  // Not reaching past the horizon even then (100 rounds, no more): one stage.
  const std::optional<LookRecord> one = next_look({}, 0, 10, 60, {}, 100, 100);
  ASSERT_TRUE(one.has_value());
  EXPECT_DOUBLE_EQ(one->horizon_share, 1.0);
  EXPECT_DOUBLE_EQ(one->information, 10.0 / 60);
  // Once fixed, the stages stay: a later look's `reachable` changes nothing.
  std::vector<LookRecord> looks{*one};
  const std::optional<LookRecord> later = next_look(looks, 10, 10, 50, {}, 100, 900);
  ASSERT_TRUE(later.has_value());
  EXPECT_DOUBLE_EQ(later->horizon_share, 1.0);
}

TEST(SpendingTest, TheReachIsTheFirstLookAtTodaysPriceAndTheRestAtTheCheapest) {
  // cctz at its first look: 750 s left, rounds of 12.5 s for 36 benchmarks. The first look's 10
  // rounds cost 125 s; one benchmark's round 12.5 (0.2 + 0.8 / 36) = 2.7778 s; 625 s buy 225 of
  // them: 235 rounds, past a horizon of 100 (its full rounds alone would buy 60).
  EXPECT_EQ(rounds_within_reach(750, 12.5, 10, 36, 0.2, 1000), 235);
  EXPECT_EQ(rounds_within_reach(750, 12.5, 10, 36, 0.2, 200), 200);  // at most `most`
  // Not even the first look's rounds: what today's price buys (100 / 12.5).
  EXPECT_EQ(rounds_within_reach(100, 12.5, 10, 36, 0.2, 1000), 8);
  EXPECT_EQ(rounds_within_reach(-5, 12.5, 10, 36, 0.2, 1000), 0);
  // Nothing priced a round yet, or nothing to run: no reach, next_look reads `affordable`.
  EXPECT_EQ(rounds_within_reach(750, NAN, 10, 36, 0.2, 1000), -1);
  EXPECT_EQ(rounds_within_reach(750, 0, 10, 36, 0.2, 1000), -1);
  EXPECT_EQ(rounds_within_reach(750, 12.5, 10, 0, 0.2, 1000), -1);
}

TEST(SpendingTest, NoLookWhenFewerThanTwoRoundsAreAffordable) {
  EXPECT_FALSE(next_look({}, 0, 10, 1, {}).has_value());
  EXPECT_FALSE(next_look({}, 0, 10, 0, {}).has_value());
  // Odd counts are whole blocks only: 3 affordable rounds are a look of 2.
  const std::optional<LookRecord> l = next_look({}, 0, 10, 3, {});
  ASSERT_TRUE(l.has_value());
  EXPECT_EQ(l->rounds, 2);
  EXPECT_DOUBLE_EQ(l->information, 1.0);
}

TEST_F(AdaptiveTest, RecordedLooksAreReplayedAtTheirOwnLevels) {
  add("flat", kFlat);
  add("late", kNoisy, kRegression);
  done(20);
  results_.looks = {{10, 0.4, 0.01, 0.02}, {20, 1.0, 0.04, 0.03}};
  const AdaptivePlan p = plan_of(results_);
  EXPECT_EQ(p.looks, (std::vector<int>{10, 20}));
  EXPECT_DOUBLE_EQ(look_options(p, 1).alpha, 0.04);
  EXPECT_DOUBLE_EQ(look_options(p, 1).equivalence_alpha, 0.03);
  const Analysis a = adaptive_analysis(results_, p);
  EXPECT_EQ(a.benchmarks[0].verdict, Verdict::Unchanged);
  EXPECT_EQ(a.benchmarks[0].reason, "within ±2.0% (96% CI)");
  EXPECT_EQ(a.benchmarks[1].verdict, Verdict::Regression);
  EXPECT_EQ(a.notes.back().plain(),
            "Adaptive rounds (looks after 10, 20 rounds; α spent over the budget: 1%, 4%): "
            "1 benchmark decided after 10 rounds, 1 after 20.");
  // A last look the budget cut short (22 planned, 20 run) is named by the rounds it read.
  results_.looks = {{10, 0.4, 0.01, 0.02}, {22, 1.0, 0.04, 0.03}};
  EXPECT_EQ(adaptive_analysis(results_, plan_of(results_)).notes.back().plain(),
            "Adaptive rounds (looks after 10, 20 rounds; α spent over the budget: 1%, 4%): "
            "1 benchmark decided after 10 rounds, 1 after 20.");
  // Without recorded looks a budgeted file replays the three planned looks of before.
  results_.looks.clear();
  results_.config.budget_seconds = 900;
  EXPECT_EQ(plan_of(results_).looks, (std::vector<int>{10, 20, 30}));
}

TEST(SpendingTest, TheSpendingSentenceSaysWhereTheTimeWent) {
  Results r;
  r.config.budget_seconds = 900;
  r.builds = {BuildResult{}, BuildResult{}};
  r.builds[0].seconds = 60;
  r.builds[1].seconds = 61;
  r.plan = {{0, true, Side::Base}, {1, false, Side::Base}, {2, false, Side::Head}};
  r.rounds_done = 3;
  RunRecord run;
  run.seconds = 100;
  r.runs = {run, run, run, run, run, run};
  r.measuring_seconds = 750;
  EXPECT_EQ(spending_sentence(r),
            " Spent 12m30s of the 15m budget: builds 2m1s, 2 rounds and the warm-up 10m, "
            "benchpr's own work (copies, looks) 29s.");
  // Instruction counts: Callgrind processes from 130 s to 190 s (two in parallel), apart from
  // the rounds.
  SuiteConfig suite;
  suite.name = "core";
  r.config.suites = {suite};
  RunRecord count;
  count.suite = "core (instructions)";
  count.started = 130;
  count.seconds = 40;
  r.runs.push_back(count);
  count.started = 150;
  r.runs.push_back(count);
  EXPECT_DOUBLE_EQ(counting_seconds(r), 60);
  r.measuring_seconds = 810;
  EXPECT_EQ(spending_sentence(r),
            " Spent 13m30s of the 15m budget: builds 2m1s, instruction counts 1m, 2 rounds and the "
            "warm-up 10m, benchpr's own work (copies, looks) 29s.");
  // Counting as the session clocked it: its listings (before the first Callgrind process) and
  // the base counted again (whose runs are not recorded) are counting's, not benchpr's own.
  r.counting_seconds = 80;
  EXPECT_DOUBLE_EQ(counting_seconds(r), 80);
  EXPECT_EQ(spending_sentence(r),
            " Spent 13m30s of the 15m budget: builds 2m1s, instruction counts 1m20s, 2 rounds and "
            "the warm-up 10m, benchpr's own work (copies, looks) 9s.");
  // Counting nobody asked for says the most it could take (a quarter of 15 minutes here).
  r.counting_share_seconds = 225;
  EXPECT_EQ(spending_sentence(r),
            " Spent 13m30s of the 15m budget: builds 2m1s, instruction counts 1m20s of up to "
            "3m45s, 2 rounds and the warm-up 10m, benchpr's own work (copies, looks) 9s.");
  r.config.budget_seconds.reset();
  EXPECT_EQ(spending_sentence(r), "");
}

// --- A slowdown whose size is open stays open -----------------------------------------------
// +2.5% (ln 1.025) with a residual scale of 0.0237: after 10 rounds SE(mu) = 0.0237/√10 = 0.0075,
// so the change is significant at the first look's level (t = 3.3 against t(0.9875, 8) = 2.75)
// but not shown beyond half the 2% threshold (t = (0.0247 − 0.0099) / 0.0075 = 2.0 against
// t(0.975, 8) = 2.31): `slower`, its size open. Ten more rounds alike (SE 0.0053, t 2.8 against
// about 2.3) show it beyond half the threshold: a regression.
const Shape kSizeOpen{0.0247, 0.0237};

AdaptivePlan keeping_size_open(AdaptivePlan plan) {
  plan.keep_size_open = true;
  return plan;
}

TEST_F(AdaptiveTest, ASlowdownWhoseSizeIsOpenIsReadAsSuchAtTheFirstLook) {
  add("slowish", kSizeOpen);
  const LookReadings r = read_looks(results_, plan_, 0);
  ASSERT_EQ(r.benchmarks.size(), 1u);
  const BenchmarkAnalysis& b = r.benchmarks[0];
  EXPECT_EQ(b.verdict, Verdict::Slower) << b.reason << " change " << b.change << " p " << b.p;
  EXPECT_TRUE(size_open_slowdown(b));
  EXPECT_EQ(r.decided_at, (std::vector<int>{0}));  // plan_ does not keep it open
  EXPECT_EQ(r.benchmarks[0].rounds_used, 10);
}

// cctz's BM_Format_FormatTime/5 read "3.6% slower …; whether it exceeds the 2.0% threshold is not
// settled: about 18 more rounds would settle it" after 10 rounds and was closed there, while the
// session ran 990 more rounds on a benchmark too noisy to settle.
TEST_F(AdaptiveTest, ASlowdownWhoseSizeIsOpenStaysOpenAndSettlesAtALaterLook) {
  add("slowish", kSizeOpen);
  done(20);
  const AdaptivePlan plan = keeping_size_open(plan_);
  const LookReadings first = read_looks(results_, plan, 0);
  EXPECT_EQ(first.decided_at, (std::vector<int>{-1}));
  EXPECT_EQ(first.decided_per_look, (std::vector<int>{0}));
  const LookStep s =
      step_after_look(StoppingRule::every(10), recorded(plan), first, false, 3600, kTenSeconds);
  EXPECT_FALSE(s.stop);
  EXPECT_EQ(s.runnable, (std::vector<std::size_t>{0}));
  const LookReadings second = read_looks(results_, plan, 1);
  EXPECT_EQ(second.decided_at, (std::vector<int>{1}));
  EXPECT_EQ(second.decided_per_look, (std::vector<int>{0, 1}));
  EXPECT_EQ(second.benchmarks[0].verdict, Verdict::Regression) << second.benchmarks[0].reason;
  EXPECT_EQ(second.benchmarks[0].rounds_used, 20);
}

TEST_F(AdaptiveTest, ASlowdownHeldOpenThatNoRoundMeasuredAgainKeepsTheReadingThatHeldIt) {
  // Measured in the first 10 rounds only (the session stopped running it): the next look would
  // read the same values at a smaller level.
  add("slowish", kSizeOpen);
  BenchmarkSeries& s = results_.series.back();
  for (std::size_t i = 11; i < s.base.size(); ++i) s.base[i] = s.head[i] = NAN;
  add("noisy", kNoisy);
  done(20);
  const LookReadings r = read_looks(results_, keeping_size_open(plan_), 1);
  EXPECT_EQ(r.decided_at[0], 0);
  EXPECT_EQ(r.decided_per_look, (std::vector<int>{1, 0}));
  EXPECT_EQ(r.benchmarks[0].verdict, Verdict::Slower);
  EXPECT_EQ(r.benchmarks[0].rounds_used, 10);
}

TEST_F(AdaptiveTest, AHeldSlowdownThatCannotSettleInTheRoundsLeftStopsTheSession) {
  // +2.0% exactly (ln 1.02) at a residual scale of 0.018: SE 0.0057, significant (t = 3.5) but
  // 0.0099 from half the threshold. Leaving +1% out of its interval at the normal quantile needs
  // about 10 (1.96 · 0.0057 / 0.0099)^2 = 12.7 rounds; 10 s buy one more round of it alone.
  add("at_threshold", Shape{0.0198, 0.018});
  const LookReadings r = read_looks(results_, keeping_size_open(plan_), 0);
  ASSERT_TRUE(size_open_slowdown(r.benchmarks[0])) << r.benchmarks[0].reason;
  const LookStep s =
      step_after_look(StoppingRule::every(10), recorded(plan_), r, false, 10, kTenSeconds);
  EXPECT_TRUE(s.stop);
  EXPECT_EQ(s.unsettled, 1);
  EXPECT_EQ(s.stop_reason.kind, StopKind::CannotSettle);
  // An hour affords them.
  const LookStep hour =
      step_after_look(StoppingRule::every(10), recorded(plan_), r, false, 3600, kTenSeconds);
  EXPECT_FALSE(hour.stop);
  EXPECT_EQ(hour.runnable, (std::vector<std::size_t>{0}));
}

TEST_F(AdaptiveTest, ASessionThatEndsWithASlowdownHeldOpenSaysSoAndRecommendsNoMerge) {
  add("flat", kFlat);
  add("slowish", kSizeOpen);
  const Analysis a = adaptive_analysis(results_, keeping_size_open(plan_));
  ASSERT_EQ(a.benchmarks.size(), 2u);
  EXPECT_EQ(a.benchmarks[1].verdict, Verdict::Slower);
  EXPECT_EQ(a.notes.back().plain(),
            "Adaptive rounds (looks planned at 10, 20, 30 rounds; α 2.5%, 1.7%, 0.83%): "
            "1 benchmark decided after 10 rounds; 1 slower with its size still open.");
  EXPECT_EQ(a.recommendation.kind, RecommendationKind::Inconclusive) << a.recommendation.reason;
}

TEST(AdaptiveStep, TheFirstLookFixesWhetherASlowdownWhoseSizeIsOpenStaysOpen) {
  StoppingRule rule = StoppingRule::every(10);
  const LookPlan first = plan_look(rule, {}, 0, 3000, kTenSeconds, 2);
  ASSERT_TRUE(first.look);
  EXPECT_TRUE(first.look->keeps_size_open);
  rule.keep_size_open = false;
  EXPECT_FALSE(plan_look(rule, {}, 0, 3000, kTenSeconds, 2).look->keeps_size_open);
  // A session resumed from looks that did not keep it goes on as they did, and the other way.
  const LookPlan resumed =
      plan_look(StoppingRule::every(10), {*plan_look(rule, {}, 0, 3000, kTenSeconds, 2).look}, 10,
                3000, kTenSeconds, 2);
  ASSERT_TRUE(resumed.look);
  EXPECT_FALSE(resumed.look->keeps_size_open);
}

}  // namespace
}  // namespace benchpr
