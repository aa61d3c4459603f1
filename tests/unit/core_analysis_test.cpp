// analyse() on hand-built runs: the moderated variances, the two-margin labels and the MDE at
// the family's level, with every number worked out in the comments.
#include "benchpr/core/verdicts/analysis.hpp"

#include <cmath>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <boost/math/distributions/chi_squared.hpp>

#include "support/note_kinds.hpp"

namespace benchpr {
namespace {

// Ten rounds with the PR second (s = +1) in rounds 2, 3, 6, 7 and 10. The residual pattern
// e = a * (1, 1, -1, -1, 1, 1, -1, -1, 0, 0) sums to 0 and is orthogonal to s, so the crossover
// fit of d = mu + e returns mu exactly, gamma = 0 and s^2 = 8 a^2 / 8 = a^2 on 8 df.
constexpr int kS[10] = {-1, 1, 1, -1, -1, 1, 1, -1, -1, 1};
constexpr double kE[10] = {1, 1, -1, -1, 1, 1, -1, -1, 0, 0};

// Ten benchmarks with the same residual SD a; the first changed by `change`.
Results run(double a, double change) {
  Results r;
  r.config.threshold = 0.02;
  for (int i = 0; i < 10; ++i) r.plan.push_back({i, false, kS[i] < 0 ? Side::Head : Side::Base});
  r.rounds_done = 10;
  r.complete = true;
  for (int b = 0; b < 10; ++b) {
    BenchmarkSeries s;
    s.suite = "s";
    s.name = "BM_" + std::to_string(b);
    s.unit = "ns";
    const double mu = b == 0 ? std::log1p(change) : 0;
    for (int i = 0; i < 10; ++i) {
      s.base.push_back(100);
      s.head.push_back(100 * std::exp(mu + a * kE[i]));
    }
    r.series.push_back(std::move(s));
  }
  return r;
}

// Equal variances: the prior takes d0 = 72 and s0^2 = 1.1232469 a^2 (core_stats_test), so the
// posterior variance is (72 * 1.1232469 + 8) / 80 a^2 = 1.1109218 a^2 on 80 df and
// se(mu) = a * sqrt(1.1109218 / 10) = 0.333305 a.
constexpr double kSeFactor = 0.333305;

TEST(Analysis, ModeratedStandardErrorAndDegreesOfFreedom) {
  const Analysis a = analyse(run(0.01, 0.032));
  const BenchmarkAnalysis& x = a.benchmarks[0];
  // 95% CI: mu +- t(0.975, 80) * se = ln 1.032 +- 1.990063 * 0.00333305.
  const double mu = std::log(1.032), half = 1.990063 * kSeFactor * 0.01;
  EXPECT_NEAR(x.ci_low, std::exp(mu - half) - 1, 2e-6);
  EXPECT_NEAR(x.ci_high, std::exp(mu + half) - 1, 2e-6);
  // MDE at the family's level alpha / m = 0.005: (t(0.9975, 80) + t(0.8, 80)) * se =
  // (2.886972 + 0.846137) * 0.00333305 = 0.0124426 in log units.
  EXPECT_NEAR(x.mde, std::exp(3.733109 * kSeFactor * 0.01) - 1, 2e-6);
  EXPECT_NEAR(a.run_mde, x.mde, 1e-12);
}

TEST(Analysis, ClearlyBeyondHalfTheThresholdIsARegression) {
  // a = 1%: t = ln 1.032 / 0.00333305 = 9.45; against half the threshold (ln 1.02 / 2 =
  // 0.0099013): (0.0314986 - 0.0099013) / 0.00333305 = 6.48, one-sided p ~ 1e-9.
  const Analysis a = analyse(run(0.01, 0.032));
  EXPECT_EQ(a.benchmarks[0].verdict, Verdict::Regression) << a.benchmarks[0].reason;
  for (int b = 1; b < 10; ++b) EXPECT_EQ(a.benchmarks[b].verdict, Verdict::Unchanged);
}

TEST(Analysis, AnEstimateAboveTheThresholdThatIsNotShownBeyondHalfOfItIsOnlySlower) {
  // a = 3%: se = 0.00999915. t = ln 1.032 / se = 3.150, two-sided p = 0.0023 on 80 df, BH
  // over 10 (the others have p = 1): 0.023 <= 5%, significant. The estimate 3.2% is above the
  // 2% threshold, but against half of it t = (0.0314986 - 0.0099013) / se = 2.160, one-sided
  // p = 0.0169, BH 0.169 > 5%: `slower`, not `regression`.
  // The base's runs here do not vary at all and the PR's take three values: pooled, they read
  // as two modes with the PR's runs moved into the slower one (mode_fit), so this reading of
  // the plain fit turns the modes off.
  AnalysisOptions plain;
  plain.mode_aware = false;
  const Analysis a = analyse(run(0.03, 0.032), plain);
  const BenchmarkAnalysis& x = a.benchmarks[0];
  EXPECT_NEAR(x.change, 0.032, 1e-9);
  EXPECT_NEAR(x.p_adjusted, 0.023, 0.001);
  EXPECT_EQ(x.verdict, Verdict::Slower) << x.reason;
  EXPECT_NE(x.reason.find("not shown to exceed half the 2.0% threshold"), std::string::npos)
      << x.reason;
  // The others: 0 +- t(0.95, 80) * se = 1.664125 * 0.00999915 = 1.664% inside +-1.98%.
  for (int b = 1; b < 10; ++b) EXPECT_EQ(a.benchmarks[b].verdict, Verdict::Unchanged);
}

// Thresholds of their own (a suite's, then `benchmarks:` rules) decide the labels.
TEST(Analysis, EachBenchmarkIsJudgedByItsOwnThreshold) {
  Results r = run(0.01, 0.032);
  SuiteConfig suite;
  suite.name = "s";
  suite.threshold = 0.03;  // the suite's: BM_2..BM_9
  suite.benchmarks = {{"BM_0", 0.05, std::nullopt, 0}, {"BM_1", 0.005, std::nullopt, 0}};
  r.config.suites = {suite};
  const Analysis a = analyse(r);
  const BenchmarkAnalysis& x = a.benchmarks[0];
  // +3.2% (t = 9.45, significant) is a regression at the run's 2% (test above), but below
  // BM_0's own 5% (|mu| = 0.0315 < ln 1.05 = 0.0488): slower, a small consistent change.
  EXPECT_DOUBLE_EQ(x.threshold, 0.05);
  EXPECT_EQ(x.verdict, Verdict::Slower) << x.reason;
  // BM_1 has no change: its 90% CI is 0 +- 1.664125 * 0.00333305 = +-0.555% in log units,
  // inside the suite's 3% (and the run's 2%) but not inside its own 0.5% (ln 1.005 = 0.4988%).
  EXPECT_DOUBLE_EQ(a.benchmarks[1].threshold, 0.005);
  EXPECT_EQ(a.benchmarks[1].verdict, Verdict::Inconclusive) << a.benchmarks[1].reason;
  ASSERT_TRUE(a.benchmarks[1].rounds_needed.has_value());
  for (int b = 2; b < 10; ++b) {
    EXPECT_DOUBLE_EQ(a.benchmarks[b].threshold, 0.03);
    EXPECT_EQ(a.benchmarks[b].verdict, Verdict::Unchanged);
  }
  // Against BM_0's own 1% the size test is beyond half of it: (0.0314986 - ln 1.01 / 2) /
  // 0.00333305 = 7.96, so a regression again.
  r.config.suites[0].benchmarks[0].threshold = 0.01;
  EXPECT_EQ(analyse(r).benchmarks[0].verdict, Verdict::Regression);
}

TEST(Analysis, AMuchNoisierBenchmarkKeepsItsOwnVariance) {
  // Benchmark 0 with 10x the residual SD of the other nine: its own s^2 = 100 a^2 lies far
  // above F(8, d0) * s0^2, so it is tested on its own 8 df: se = 0.1 / sqrt(10) = 0.0316228
  // and a +5% change (t = 1.543) is not significant; shrunk toward the others it would be.
  Results r = run(0.01, 0);
  for (int i = 0; i < 10; ++i) r.series[0].head[i] = 100 * std::exp(0.05 + 0.1 * kE[i]);
  const Analysis a = analyse(r);
  const BenchmarkAnalysis& x = a.benchmarks[0];
  EXPECT_EQ(x.verdict, Verdict::Inconclusive) << x.reason;
  // 95% CI half width t(0.975, 8) * se = 2.306004 * 0.0316228.
  EXPECT_NEAR(x.ci_high, std::exp(0.05 + 2.306004 * 0.0316228) - 1, 1e-5);
}

// A family of 45 benchmarks at 1% residual SD and 5 at 2% (their own SDs spread as the
// chi^2(8) / 8 quantiles say), and BM_X of the noisier group whose rounds happened to agree:
// its own SD is 1.1% (s^2 = 1.21 x the quiet variance, the noisier group's chi^2 lower tail
// P(chi^2(8) <= 8 x 1.21 / 4) = 0.035: the noisier group explains it). The mixture alone gives it
// a weight near 1 for the quiet prior, reads a +1.7% change at the quiet variance and calls it
// significant; read on the noisier group's variance (about twice the SE) it is not.
Results uneven_family(double x_change, int quiet = 45, int noisy = 5) {
  Results r = run(0.01, 0);
  r.series.clear();
  const boost::math::chi_squared_distribution<double> chi2(8);
  auto add = [&](const std::string& name, double sd, double change) {
    BenchmarkSeries s;
    s.suite = "s";
    s.name = name;
    s.unit = "ns";
    for (int i = 0; i < 10; ++i) {
      s.base.push_back(100);
      s.head.push_back(100 * std::exp(std::log1p(change) + sd * kE[i]));
    }
    r.series.push_back(std::move(s));
  };
  for (int b = 0; b < quiet; ++b)
    add("BM_" + std::to_string(b), 0.01 * std::sqrt(quantile(chi2, (b + 0.5) / quiet) / 8), 0);
  for (int b = 0; b < noisy; ++b)
    add("BM_noisy_" + std::to_string(b), 0.02 * std::sqrt(quantile(chi2, (b + 0.5) / noisy) / 8),
        0);
  add("BM_X", 0.011, x_change);
  return r;
}

TEST(Analysis, ABenchmarkTheNoisierGroupExplainsIsReadOnItsVariance) {
  const Results r = uneven_family(0.017);
  AnalysisOptions mixture_alone, guarded;
  mixture_alone.noisier_guard = NoisierGuard::Off;
  guarded.noisier_guard = NoisierGuard::NoisierVariance;
  const BenchmarkAnalysis before = analyse(r, mixture_alone).benchmarks.back();
  const BenchmarkAnalysis after = analyse(r, guarded).benchmarks.back();
  ASSERT_EQ(after.name, "BM_X");
  EXPECT_EQ(before.verdict, Verdict::Slower) << before.reason << " p " << before.p;
  EXPECT_EQ(after.verdict, Verdict::Inconclusive) << after.reason << " p " << after.p;
  // About twice the interval: the noisier group's variance is about 4x the quiet one's.
  const double before_width = before.ci_high - before.ci_low;
  const double after_width = after.ci_high - after.ci_low;
  EXPECT_GT(after_width, 1.6 * before_width) << before_width << " " << after_width;
  // Quiet benchmarks whose own variance the noisier group rules out (the lower part of the
  // spread) are read as before; the upper part is read on the noisier group's variance too,
  // the price of the guard (docs/method.md, table 10).
  const Analysis all_after = analyse(r, guarded), all_before = analyse(r, mixture_alone);
  for (std::size_t b = 0; b < 20; ++b)
    EXPECT_DOUBLE_EQ(all_after.benchmarks[b].ci_high, all_before.benchmarks[b].ci_high) << b;
}

// The same family as shipped: the guard reads a benchmark the noisier group explains on its own
// variance and degrees of freedom: BM_X's s = 1.1% on 8 df, so se = 0.011 / sqrt(10) =
// 0.0034785, t = ln 1.017 / se = 4.84608 and p = 0.001278 (t with 8 df); the family's 51
// benchmarks correct it to 51 x p = 0.065 (every other p is 1), so it is not significant. Its
// 95% CI is ln 1.017 +- t(0.975, 8) x se = 2.306004 x 0.0034785: +0.887% ... +2.519%.
TEST(Analysis, AGuardedBenchmarkIsReadOnItsOwnVariance) {
  const Results r = uneven_family(0.017);
  AnalysisOptions mixture_alone;
  mixture_alone.noisier_guard = NoisierGuard::Off;
  const Analysis before = analyse(r, mixture_alone), after = analyse(r);  // as shipped
  const BenchmarkAnalysis& x = after.benchmarks.back();
  ASSERT_EQ(x.name, "BM_X");
  EXPECT_EQ(before.benchmarks.back().verdict, Verdict::Slower);
  EXPECT_EQ(x.verdict, Verdict::Inconclusive) << x.reason;
  EXPECT_NEAR(x.p, 0.001278, 2e-6);
  EXPECT_NEAR(x.p_adjusted, 51 * x.p, 1e-12);
  EXPECT_NEAR(x.ci_low, 0.0088748, 1e-6);
  EXPECT_NEAR(x.ci_high, 0.0251906, 1e-6);
  // The lower part of the quiet spread, which the noisier group rules out, is read as before.
  for (std::size_t b = 0; b < 20; ++b)
    EXPECT_DOUBLE_EQ(after.benchmarks[b].ci_high, before.benchmarks[b].ci_high) << b;
}

// A "noisier group" of more than 15% of the family is a spread of variances rather than a
// noisy minority (with noise SDs spread over 0.5-2% reading such groups apart cost power:
// docs/method.md, table 10): there the guard stays off. With 9 of 50 benchmarks at 2x (18%)
// BM_X is read by the mixture's weight as shipped, and on its own variance (p 0.001278, see
// above) only with the former bound of a fifth; with 5 of 50 (10%) the guard reads it so.
TEST(Analysis, TheGuardStaysOffWhereTheNoisierGroupIsMoreThan15PercentOfTheFamily) {
  AnalysisOptions off, fifth;
  off.noisier_guard = NoisierGuard::Off;
  fifth.noisier_guard_at_most = 0.2;
  const Results many = uneven_family(0.017, 41, 9);
  const BenchmarkAnalysis shipped = analyse(many).benchmarks.back();
  const BenchmarkAnalysis mixture = analyse(many, off).benchmarks.back();
  EXPECT_EQ(shipped.verdict, Verdict::Slower) << shipped.reason;
  EXPECT_DOUBLE_EQ(shipped.p, mixture.p);
  const BenchmarkAnalysis bound_fifth = analyse(many, fifth).benchmarks.back();
  EXPECT_EQ(bound_fifth.verdict, Verdict::Inconclusive) << bound_fifth.reason;
  EXPECT_NEAR(bound_fifth.p, 0.001278, 2e-6);

  const BenchmarkAnalysis few = analyse(uneven_family(0.017, 45, 5)).benchmarks.back();
  EXPECT_NEAR(few.p, 0.001278, 2e-6);
}

// A benchmark that crashed on the PR side in every round is failed, and its base column still
// shows what it cost there: the geometric mean of its base values (100 and 400 give 200).
TEST(Analysis, AFailedBenchmarkKeepsTheSideItMeasured) {
  Results r = run(0.01, 0);
  BenchmarkSeries& s = r.series[1];
  for (std::size_t i = 0; i < s.base.size(); ++i) {
    s.base[i] = i % 2 == 0 ? 100 : 400;
    s.head[i] = kMissing;
  }
  s.head_failure = "killed by signal 11 (SIGSEGV)";
  s.head_failure_kind = FailureKind::Signal;
  const BenchmarkAnalysis x = analyse(r).benchmarks[1];  // a copy: the analysis is a temporary
  EXPECT_EQ(x.verdict, Verdict::Failed);
  EXPECT_EQ(x.failure, FailureKind::Signal);
  EXPECT_NEAR(x.base_value, 200, 1e-9);
  EXPECT_TRUE(is_missing(x.head_value));
  EXPECT_TRUE(is_missing(x.change));
}

// spdlog's `disabled-at-compile-time` measures nothing (6.4e-07 ns): too small to measure, named
// once in a note and not compared, not a failure that makes the whole run "could not compare".
TEST(Analysis, ABenchmarkBelowAPicosecondIsTooSmallToMeasureNotAFailure) {
  Results r = run(0.01, 0);
  BenchmarkSeries& s = r.series[3];
  s.name = "disabled-at-compile-time";
  for (std::size_t i = 0; i < s.base.size(); ++i) {
    s.base[i] = 6.4e-07;
    s.head[i] = i % 2 == 0 ? 6.3e-07 : 6.5e-07;
  }
  const Analysis a = analyse(r);
  ASSERT_EQ(a.benchmarks.size(), 9u);
  for (const BenchmarkAnalysis& b : a.benchmarks) {
    EXPECT_NE(b.name, "disabled-at-compile-time");
    EXPECT_NE(b.verdict, Verdict::Failed) << b.name << ": " << b.reason;
  }
  EXPECT_NE(a.recommendation.kind, RecommendationKind::Failed);
  // Named once, in the one note of values too small to measure (its words: core_run_notes_test).
  EXPECT_EQ(testing::names_in_notes(a.notes, NoteKind::TooSmall),
            (std::vector<std::vector<std::string>>{{"disabled-at-compile-time", "exclude:"}}))
      << ::testing::PrintToString(plain_texts(a.notes));
}

// A value below a picosecond on one side only is no measurement of nothing: it stays a failure.
TEST(Analysis, ATinyValueBesideARealOneStillFails) {
  Results r = run(0.01, 0);
  r.series[3].head[4] = 6.4e-07;
  const Analysis a = analyse(r);
  ASSERT_EQ(a.benchmarks.size(), 10u);
  EXPECT_EQ(a.benchmarks[3].verdict, Verdict::Failed);
  EXPECT_EQ(a.benchmarks[3].failure, FailureKind::ValueOutOfRange);
}

}  // namespace
}  // namespace benchpr
