// What benchpr says about benchmarks it left undecided: the change each one's interval rules out,
// the headline's bound over all of them, and the benchmarks too noisy for the budget, named once.
#include "benchpr/core/adaptive/undecided.hpp"

#include <cmath>
#include <string>

#include <gtest/gtest.h>

#include "benchpr/core/verdicts/recommendation.hpp"
#include "benchpr/core/wording/wording.hpp"

namespace benchpr {
namespace {

BenchmarkAnalysis open_benchmark(const std::string& name, double lo, double hi, int rounds,
                                 std::optional<int> needed) {
  BenchmarkAnalysis b;
  b.suite = "micro";
  b.name = name;
  b.verdict = Verdict::Inconclusive;
  b.no_signal = true;
  b.change = (lo + hi) / 2;
  b.ci_low = lo;
  b.ci_high = hi;
  b.rounds_used = rounds;
  b.rounds_needed = needed;
  // Rounds alternating ±4%: their log ratios' SD over 20 rounds is 4.1% (4.2% as a change).
  for (int i = 0; i < rounds; ++i) b.round_changes.push_back(i % 2 ? 0.04 : -0.04);
  return b;
}

BenchmarkAnalysis unchanged(const std::string& name, double lo, double hi) {
  BenchmarkAnalysis b = open_benchmark(name, lo, hi, 10, std::nullopt);
  b.verdict = Verdict::Unchanged;
  b.no_signal = false;
  return b;
}

TEST(Undecided, ABenchmarkCannotSettleWhenEvenItsWholeIntervalShrinkingWouldNotDoIt) {
  // 10 rounds, no change, a 95% CI of ±0.05 in logs at t(8) = 2.306004, ±0.042497 at 1.959964.
  // Within ±2% needs a half-width of ln 1.02 = 0.0198026: 10 (0.042497 / 0.0198026)^2 = 46.05
  // rounds.
  BenchmarkAnalysis flat = open_benchmark("BM_Flat", std::expm1(-0.05), std::expm1(0.05), 10, 64);
  flat.change = 0;
  EXPECT_TRUE(cannot_settle(flat, 46));
  EXPECT_FALSE(cannot_settle(flat, 47));
  // At +1% it is judged at its best case, no change (its estimate wanders as rounds come in):
  // the same 46.05 rounds.
  BenchmarkAnalysis half = flat;
  half.change = 0.01;
  EXPECT_TRUE(cannot_settle(half, 46));
  EXPECT_FALSE(cannot_settle(half, 47));
  // +5%: the interval need only leave 0 out, ln 1.05 = 0.04879: 10 (0.042497 / 0.04879)^2 = 7.6,
  // fewer than it has: it can settle in any number of rounds from now on.
  BenchmarkAnalysis far = flat;
  far.change = 0.05;
  EXPECT_FALSE(cannot_settle(far, 10));
  BenchmarkAnalysis wide = far;  // the same at twice the width: 30.4 rounds
  wide.ci_low = std::expm1(0.05 - 0.1);
  wide.ci_high = std::expm1(0.05 + 0.1);
  EXPECT_TRUE(cannot_settle(wide, 30));
  EXPECT_FALSE(cannot_settle(wide, 31));
  // Only open benchmarks with an interval from 6 rounds or more.
  BenchmarkAnalysis decided = flat;
  decided.verdict = Verdict::Unchanged;
  EXPECT_FALSE(cannot_settle(decided, 2));
  BenchmarkAnalysis early = flat;
  early.rounds_used = 4;
  EXPECT_FALSE(cannot_settle(early, 2));
  BenchmarkAnalysis missing = flat;
  missing.ci_low = kMissing;
  EXPECT_FALSE(cannot_settle(missing, 2));
}

TEST(Undecided,
     ASlowdownHeldOpenForItsSizeCannotSettleWhenItsIntervalCouldNotLeaveOutHalfTheThreshold) {
  // `slower` at +5% with the interval above (±0.042497 in logs at the normal quantile): settling
  // it as a regression needs the interval to leave out half the 2% threshold, a half-width of
  // ln 1.05 − ln(1.02)/2 = 0.0388889: 10 (0.042497 / 0.0388889)^2 = 11.94 rounds.
  BenchmarkAnalysis slower =
      open_benchmark("BM_Slower", std::expm1(-0.05), std::expm1(0.05), 10, 64);
  slower.verdict = Verdict::Slower;
  slower.no_signal = false;
  slower.change = 0.05;
  EXPECT_TRUE(cannot_settle(slower, 11));
  EXPECT_FALSE(cannot_settle(slower, 12));
  // At +2.5% the gap to half the threshold is ln 1.025 − ln(1.02)/2 = 0.0147913: 82.5 rounds.
  BenchmarkAnalysis near = slower;
  near.change = 0.025;
  EXPECT_TRUE(cannot_settle(near, 82));
  EXPECT_FALSE(cannot_settle(near, 83));
  // A slowdown below the threshold is settled: `slower`, and the comment can say so.
  BenchmarkAnalysis small = slower;
  small.change = 0.015;
  EXPECT_FALSE(cannot_settle(small, 2));
}

TEST(Undecided, TheRowStatesTheFartherEndOfTheInterval) {
  EXPECT_EQ(no_change_beyond(open_benchmark("a", -0.031, 0.046, 10, 40)), "no change beyond ±4.6%");
  EXPECT_EQ(no_change_beyond(open_benchmark("a", -0.072, 0.01, 10, 40)), "no change beyond ±7.2%");
  BenchmarkAnalysis none = open_benchmark("a", NAN, NAN, 1, std::nullopt);
  EXPECT_EQ(no_change_beyond(none), "");
}

// An adaptive look tests "unchanged" on a wider interval than the 95% one shown: a 95% bound of
// ±1.4% beside a 2% threshold would read as if the benchmark were unchanged, so the row names the
// interval that was tested and how far it reaches.
TEST(Undecided, ABoundInsideTheThresholdNamesTheWiderIntervalUnchangedWasTestedOn) {
  BenchmarkAnalysis b = open_benchmark("a", -0.012, 0.014, 100, std::nullopt);
  b.eq_low = -0.019;
  b.eq_high = 0.023;
  b.eq_level = 0.9997;
  EXPECT_EQ(no_change_beyond(b),
            "no change beyond ±1.4% at 95% (±2.3% at the 99.97% that “unchanged” tests)");
  // A 95% bound at or beyond the threshold says all there is to say.
  BenchmarkAnalysis wide = b;
  wide.ci_high = 0.0197;  // reads 2.0%, level with the threshold
  EXPECT_EQ(no_change_beyond(wide), "no change beyond ±2.0%");
  // Without a wider tested interval (a fixed plan's 90%), nothing to add.
  BenchmarkAnalysis fixed = b;
  fixed.eq_level = 0.90;
  EXPECT_EQ(no_change_beyond(fixed), "no change beyond ±1.4%");
}

TEST(Undecided, LevelsNeverReadAsAHundredPercent) {
  EXPECT_EQ(format_level(0.9), "90%");
  EXPECT_EQ(format_level(0.983), "98.3%");
  EXPECT_EQ(format_level(0.9998), "99.98%");
  EXPECT_EQ(format_level(0.999996), "99.9996%");
}

TEST(Undecided, TheHeadlineSaysWhatWasRuledOutAndWhatCouldNotBeResolved) {
  Results r;
  r.config.threshold = 0.02;
  r.config.budget_seconds = 900;
  Analysis a;
  a.analysed_rounds = 30;
  a.benchmarks = {open_benchmark("BM_Wide", -0.03, 0.046, 30, 90),
                  open_benchmark("BM_Narrow", -0.021, 0.025, 30, 40),
                  unchanged("BM_Flat", -0.012, 0.011)};
  const Recommendation rec = recommend(r, a);
  EXPECT_EQ(rec.kind, RecommendationKind::Inconclusive);
  EXPECT_EQ(rec.reason,
            "No benchmark changed by more than 4.6% (95% CIs); 2 of 3 could not be resolved to "
            "±2.0% within 15m, the widest `BM_Wide` (no change beyond ±4.6%).");
  // A fixed plan says the rounds instead of a budget.
  r.config.budget_seconds.reset();
  EXPECT_NE(recommend(r, a).reason.find("could not be resolved to ±2.0% in 30 rounds"),
            std::string::npos);
}

TEST(Undecided, TooNoisyBenchmarksAreNamedOnceWithTheirNoiseAndWhatWouldSettleThem) {
  Results r;
  r.config.threshold = 0.02;
  r.config.budget_seconds = 900;
  r.complete = true;
  Analysis a;
  a.benchmarks = {open_benchmark("BM_Noisy", -0.09, 0.08, 20, 300),
                  open_benchmark("BM_Close", -0.022, 0.021, 20, 24),
                  open_benchmark("BM_Hopeless", -0.2, 0.3, 20, std::nullopt)};
  name_too_noisy(r, a);
  ASSERT_EQ(a.notes.size(), 1u);
  EXPECT_EQ(a.notes[0].plain(),
            "Too noisy to settle ±2.0% within the 15m budget: `BM_Noisy` (rounds vary by 4.2% SD, "
            "no change beyond ±9.0%; ≈ 300 rounds would settle it), `BM_Hopeless` (rounds vary by "
            "4.2% SD, no change beyond ±30.0%; more than 1,000 rounds would settle it). A "
            "threshold of their own in .benchpr.yml (a suite's `benchmarks:` rule with "
            "`threshold:`) or a longer `budget:` would settle them.");
  // Their rows no longer repeat the advice; the benchmark a little more time would settle keeps it.
  EXPECT_FALSE(a.benchmarks[0].rounds_needed.has_value());
  EXPECT_EQ(a.benchmarks[1].rounds_needed, 24);
  EXPECT_FALSE(a.benchmarks[2].rounds_needed.has_value());

  // A fixed plan (no budget) keeps each row's own advice.
  Analysis fixed;
  fixed.benchmarks = {open_benchmark("BM_Noisy", -0.09, 0.08, 20, 300)};
  r.config.budget_seconds.reset();
  name_too_noisy(r, fixed);
  EXPECT_TRUE(fixed.notes.empty());
  EXPECT_EQ(fixed.benchmarks[0].rounds_needed, 300);
}

}  // namespace
}  // namespace benchpr
