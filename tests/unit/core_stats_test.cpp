// Statistics building blocks against values computed by hand (see the comments).
#include "benchpr/core/stats/stats.hpp"

#include <cmath>
#include <vector>

#include <gtest/gtest.h>

namespace benchpr::stats {
namespace {

TEST(Median, OddEvenAndEmpty) {
  EXPECT_DOUBLE_EQ(median({3, 1, 2}), 2);
  EXPECT_DOUBLE_EQ(median({4, 1, 3, 2}), 2.5);
  EXPECT_TRUE(std::isnan(median({})));
}

TEST(StudentT, KnownQuantilesAndPValues) {
  EXPECT_NEAR(t_quantile(0.975, 8), 2.306004, 1e-6);
  EXPECT_NEAR(t_quantile(0.975, 1), 12.706205, 1e-6);
  EXPECT_NEAR(t_quantile(0.8, 8), 0.888890, 1e-6);
  // df = 2 has a closed form: p = 1 - t / sqrt(t^2 + 2).
  EXPECT_NEAR(t_two_sided_p(7.0710678, 2), 1 - 7.0710678 / std::sqrt(52.0), 1e-7);
  // df = 1 (Cauchy): p = 1 - 2 atan(t) / pi.
  EXPECT_NEAR(t_two_sided_p(2.4, 1), 1 - 2 * std::atan(2.4) / M_PI, 1e-9);
  EXPECT_DOUBLE_EQ(t_two_sided_p(0, 5), 1.0);
}

TEST(StudentT, ALevelTooSmallToRepresentGivesAFarButFiniteQuantile) {
  // A late look of a long budget tests "unchanged" at a level like 1e-40: 1 - level rounds to 1.
  // The quantile is then the one 1e-15 from the end, never infinite and never a throw.
  const double far = t_quantile(1 - 1e-40, 8);
  EXPECT_TRUE(std::isfinite(far));
  EXPECT_DOUBLE_EQ(far, t_quantile(1 - kFarthestTail, 8));
  EXPECT_GT(far, t_quantile(1 - 1e-9, 8));
  // (1 - 1e-15 is not exactly a double, so the two ends agree to 0.1%.)
  EXPECT_NEAR(t_quantile(0, 8), -far, 1e-3 * far);
}

TEST(CrossoverFit, BalancedDesignSeparatesEffectAndPosition) {
  // d = 1,3,2,4 with the PR first, second, first, second.
  // mu = mean = 2.5; gamma = ((3+4) - (1+2)) / 4 = 1; residuals -.5 -.5 .5 .5 -> rss 1, df 2,
  // sd = sqrt(.5), se(mu) = sd / sqrt(4) = 0.353553, t = 7.0711.
  const CrossoverFit f = fit_crossover({1, 3, 2, 4}, {-1, 1, -1, 1});
  EXPECT_EQ(f.n, 4);
  EXPECT_EQ(f.df, 2);
  EXPECT_TRUE(f.has_gamma);
  EXPECT_NEAR(f.mu, 2.5, 1e-12);
  EXPECT_NEAR(f.gamma, 1.0, 1e-12);
  EXPECT_NEAR(f.residual_sd, std::sqrt(0.5), 1e-12);
  EXPECT_NEAR(f.se_mu, std::sqrt(0.5) / 2, 1e-12);
  EXPECT_NEAR(f.se_gamma, std::sqrt(0.5) / 2, 1e-12);
  EXPECT_NEAR(f.p_mu(), 1 - 7.0710678 / std::sqrt(52.0), 1e-6);
  // 95% CI half width: t(0.975, 2) = 4.302653 times se.
  EXPECT_NEAR(f.ci_half_width(0.95), 4.302653 * 0.3535534, 1e-5);
  // MDE = (t(.975,2) + t(.8,2)) * se = (4.302653 + 1.060660) * 0.353553
  EXPECT_NEAR(f.mde(0.05, 0.8), (4.302653 + 1.060660) * 0.3535534, 1e-5);
}

TEST(CrossoverFit, UnbalancedDesignUsesTheInterceptNotTheMean) {
  // d = .00999, .0652, .0576 with s = +1, -1, +1 (the seed's 4 KiB case without round 1).
  // n=3, S1=1, S2=3, det=8; mu = (3*.13279 - .00239)/8 = .049497; gamma = (3*.00239-.13279)/8.
  const CrossoverFit f = fit_crossover({0.00999, 0.0652, 0.0576}, {1, -1, 1});
  EXPECT_EQ(f.df, 1);
  EXPECT_NEAR(f.mu, (3 * 0.13279 - 0.00239) / 8, 1e-9);
  EXPECT_NEAR(f.gamma, (3 * 0.00239 - 0.13279) / 8, 1e-9);
}

TEST(CrossoverFit, OneOrderOnlyFallsBackToTheMean) {
  const CrossoverFit f = fit_crossover({1, 2, 3}, {1, 1, 1});
  EXPECT_FALSE(f.has_gamma);
  EXPECT_EQ(f.df, 2);
  EXPECT_DOUBLE_EQ(f.mu, 2);
  EXPECT_NEAR(f.se_mu, 1 / std::sqrt(3.0), 1e-12);  // sd 1
}

TEST(CrossoverFit, TooFewRoundsIsNotUsable) {
  EXPECT_FALSE(fit_crossover({0.1, 0.2}, {1, -1}).usable());
  EXPECT_TRUE(std::isnan(fit_crossover({0.1, 0.2}, {1, -1}).p_mu()));
}

TEST(BenjaminiHochberg, StepUpAdjustment) {
  // sorted .01 .03 .04 .20 (m=4): raw .04 .06 .0533 .20 -> step-up minimum .04 .0533 .0533 .20
  const auto adj = benjamini_hochberg({0.01, 0.04, 0.03, 0.20});
  EXPECT_NEAR(adj[0], 0.04, 1e-12);
  EXPECT_NEAR(adj[1], 0.04 * 4 / 3, 1e-12);
  EXPECT_NEAR(adj[2], 0.04 * 4 / 3, 1e-12);
  EXPECT_NEAR(adj[3], 0.20, 1e-12);
}

TEST(BenjaminiHochberg, MissingValuesDoNotCount) {
  const auto adj = benjamini_hochberg({0.01, NAN, 0.02});
  EXPECT_NEAR(adj[0], 0.02, 1e-12);  // m = 2: .01*2/1 = .02, .02*2/2 = .02
  EXPECT_TRUE(std::isnan(adj[1]));
  EXPECT_NEAR(adj[2], 0.02, 1e-12);
}

TEST(RoundsNeeded, GrowsWithNoiseAndShrinksWithMargin) {
  // sd 1% and margin 2%: n=6 gives (2.776+0.941)*0.01/sqrt(6) = 1.52% <= 2%, n=4 gives
  // (4.303+1.061)*0.01/2 = 2.68% > 2%.
  EXPECT_EQ(rounds_needed(0.01, 0.02, 0.05, 0.8), 6);
  // sd 3%: n=20 gives (2.101+0.862)*0.03/sqrt(20) = 1.99%, n=18 gives 2.11%.
  EXPECT_EQ(rounds_needed(0.03, 0.02, 0.05, 0.8), 20);
  EXPECT_EQ(rounds_needed(1.0, 0.001, 0.05, 0.8, 100), 0);
}

TEST(VariancePrior, EqualVariancesGiveTheStrongestPriorTheFamilyHolds) {
  // Ten benchmarks, each s^2 = 1e-4 on 8 df: no spread beyond what 8 df give, so d0 takes its
  // cap d * (m - 1) = 72. limma's moment estimate: e = ln s^2 - psi(4) + ln 4, and
  // s0^2 = exp(e + psi(36) - ln 36) = 1e-4 * exp(ln 4 - psi(4) + psi(36) - ln 36), with
  // psi(4) = -0.5772157 + 1 + 1/2 + 1/3 and psi(36) = -0.5772157 + H(35) = 3.5695658.
  const VariancePrior prior =
      fit_variance_prior(std::vector<double>(10, 1e-4), std::vector<int>(10, 8));
  EXPECT_DOUBLE_EQ(prior.df, 72);
  EXPECT_NEAR(prior.variance, 1e-4 * 1.1232469, 1e-10);
}

TEST(VariancePrior, TooFewOrZeroVariancesGiveNoPrior) {
  EXPECT_EQ(fit_variance_prior(std::vector<double>(7, 1e-4), std::vector<int>(7, 8)).df, 0);
  // Zero variances (deterministic values) are not counted: 7 positive ones are too few.
  std::vector<double> v(7, 1e-4);
  v.insert(v.end(), 5, 0.0);
  EXPECT_EQ(fit_variance_prior(v, std::vector<int>(12, 8)).df, 0);
}

TEST(VariancePrior, SpreadOfTheVariancesSetsThePriorDf) {
  // ln s^2 = ln 1e-4 + {-2c, -c, 0, c, 2c}: sample variance 2.5 c^2. The moment estimate
  // solves 2.5 c^2 - trigamma(4) = trigamma(d0 / 2); trigamma(4) = pi^2/6 - 1 - 1/4 - 1/9 =
  // 0.283823, trigamma(5) = 0.221323, trigamma(2) = pi^2/6 - 1 = 0.644934. c = 0.449509
  // gives d0 = 10 and s0^2 = 1e-4 * exp(ln 4 - psi(4) + psi(5) - ln 5) = 1e-4 * 1.0272203.
  auto spread = [](double c) {
    std::vector<double> v;
    for (double k : {-2, -1, 0, 1, 2}) v.push_back(1e-4 * std::exp(k * c));
    return v;
  };
  const VariancePrior prior = fit_variance_prior(spread(0.449509), std::vector<int>(5, 8), 5);
  EXPECT_NEAR(prior.df, 10, 1e-3);
  EXPECT_NEAR(prior.variance, 1e-4 * 1.0272203, 1e-9);
  // Wider spread, weaker prior: c = 0.609510 gives d0 = 4.
  EXPECT_NEAR(fit_variance_prior(spread(0.609510), std::vector<int>(5, 8), 5).df, 4, 1e-3);
}

TEST(VariancePrior, AFewMuchNoisierBenchmarksNeitherInflateThePriorNorGetShrunk) {
  std::vector<double> v;
  for (int i = 0; i < 40; ++i) v.push_back(1e-4 * (0.8 + 0.01 * i));  // 0.8e-4 .. 1.19e-4
  const VariancePrior clean = fit_variance_prior(v, std::vector<int>(40, 8));
  v.insert(v.end(), 3, 1e-2);  // three benchmarks with 10x the noise SD
  const VariancePrior mixed = fit_variance_prior(v, std::vector<int>(43, 8));
  EXPECT_NEAR(mixed.variance / clean.variance, 1, 0.05);
  EXPECT_GT(mixed.df, 100);
  // Such a benchmark lies far above F(8, d0) * s0^2 and keeps its own variance.
  CrossoverFit noisy = fit_crossover({0.1, 0.1, -0.1, -0.1, 0.1, 0.1, -0.1, -0.1, 0, 0},
                                     {-1, 1, 1, -1, -1, 1, 1, -1, -1, 1});
  EXPECT_NEAR(noisy.residual_sd, 0.1, 1e-12);  // rss 8 * 0.01 on 8 df
  EXPECT_TRUE(prior_outlier(noisy, mixed));
  const CrossoverFit kept = moderate(noisy, mixed);
  EXPECT_DOUBLE_EQ(kept.residual_sd, 0.1);
  EXPECT_EQ(kept.prior_df, 0);
}

TEST(Moderate, PosteriorVarianceAndDegreesOfFreedom) {
  // The balanced fit above: s^2 = 0.5 on 2 df, se(mu) = sd / 2, mu = 2.5. Prior d0 = 2,
  // s0^2 = 0.1 (0.5 is below F(2, 2)'s 99% quantile 99 * 0.1): posterior (2 * 0.1 + 2 * 0.5) /
  // 4 = 0.3 on 4 df; t = 2.5 / (sqrt(0.3) / 2) = 9.12871. For 4 df the two-sided p is
  // 1 - x (1 + (1 - x^2) / 2), x = t / sqrt(t^2 + 4).
  const CrossoverFit own = fit_crossover({1, 3, 2, 4}, {-1, 1, -1, 1});
  const CrossoverFit f = moderate(own, VariancePrior{2, 0.1, 0.01});
  EXPECT_NEAR(f.residual_sd, std::sqrt(0.3), 1e-12);
  EXPECT_NEAR(f.own_sd, std::sqrt(0.5), 1e-12);
  EXPECT_NEAR(f.se_mu, std::sqrt(0.3) / 2, 1e-12);
  EXPECT_NEAR(f.se_gamma, std::sqrt(0.3) / 2, 1e-12);
  EXPECT_DOUBLE_EQ(f.total_df(), 4);
  EXPECT_EQ(f.df, 2);
  const double t = 2.5 / (std::sqrt(0.3) / 2);
  EXPECT_NEAR(t, 9.12871, 1e-5);
  const double x = t / std::sqrt(t * t + 4);
  EXPECT_NEAR(f.p_mu(), 1 - x * (1 + (1 - x * x) / 2), 1e-9);
  // No prior: nothing changes.
  EXPECT_DOUBLE_EQ(moderate(own, VariancePrior{}).residual_sd, own.residual_sd);
}

TEST(CrossoverFit, PBeyondIsTheOneSidedTestAgainstAMargin) {
  // mu = 2.5, se = sqrt(.5)/2 = .353553 on 2 df. Against margin 1.5: t = 1 / .353553 = 2.828427;
  // for 2 df the upper tail is (1 - t / sqrt(t^2 + 2)) / 2 = (1 - 2.828427 / sqrt(10)) / 2.
  const CrossoverFit f = fit_crossover({1, 3, 2, 4}, {-1, 1, -1, 1});
  EXPECT_NEAR(f.p_beyond(1.5), (1 - 2.828427 / std::sqrt(10.0)) / 2, 1e-6);
  EXPECT_NEAR(f.p_beyond(2.5), 0.5, 1e-12);
  EXPECT_GT(f.p_beyond(3.5), 0.5);
}

TEST(RoundsNeeded, PriorDegreesOfFreedomLowerTheRounds) {
  // sd 3%, margin 2%: 20 rounds on their own (above); with 72 prior df the quantiles are
  // nearly normal: n = 18 gives (1.987 + 0.846) * .03 / sqrt(18) = 2.003% > 2% (t with 88 df),
  // n = 20 gives 1.90%.
  EXPECT_EQ(rounds_needed(0.03, 0.02, 0.05, 0.8, 1000, 72), 20);
  EXPECT_EQ(rounds_needed(0.03, 0.0205, 0.05, 0.8, 1000, 72), 18);
  EXPECT_LT(rounds_needed(0.03, 0.02, 0.05, 0.8, 1000, 72), rounds_needed(0.03, 0.0185, 0.05, 0.8));
}

}  // namespace
}  // namespace benchpr::stats

namespace benchpr::stats {
namespace {

// chi^2(8) / 8 at evenly spaced probabilities: the variances of benchmarks of one noise on 8 df,
// without random draws.
std::vector<double> chi2_8_quantiles(int n, double scale) {
  std::vector<double> out;
  for (int i = 0; i < n; ++i) {
    // Wilson-Hilferty: chi^2(k) / k ~ (1 - 2/(9k) + z sqrt(2/(9k)))^3.
    const double p = (i + 0.5) / n;
    // The normal quantile by bisection on erfc.
    double lo = -8, hi = 8;
    for (int it = 0; it < 80; ++it) {
      const double mid = (lo + hi) / 2;
      (0.5 * std::erfc(-mid / std::sqrt(2.0)) < p ? lo : hi) = mid;
    }
    const double z = (lo + hi) / 2, c = 2.0 / 72;
    out.push_back(scale * std::pow(1 - c + z * std::sqrt(c), 3));
  }
  return out;
}

TEST(PriorMixture, ANoisierSubgroupIsNotShrunkIntoTheQuietOnes) {
  // 45 benchmarks at one noise, 5 at twice its SD (4x the variance), all on 8 df.
  std::vector<double> v = chi2_8_quantiles(45, 1e-4);
  const std::vector<double> noisy = chi2_8_quantiles(5, 4e-4);
  v.insert(v.end(), noisy.begin(), noisy.end());
  const std::vector<int> dfs(v.size(), 8);
  // One prior for all: the noisy five widen it (small d0) until they seem to belong, and none
  // is far enough out to keep its own variance.
  const VariancePrior one = fit_variance_prior(v, dfs);
  EXPECT_LT(one.df, 50);
  const PriorMixture two = fit_prior_mixture(v, dfs, fit_variance_prior(v, dfs, 8, false));
  EXPECT_GT(two.prior.df, one.df);
  EXPECT_NEAR(two.prior.variance, 1e-4, 0.15e-4);
  EXPECT_NEAR(two.noisier.variance, 4e-4, 1.5e-4);
  int noisy_apart = 0;
  for (std::size_t i = 45; i < v.size(); ++i) noisy_apart += two.weights[i] < 0.5 ? 1 : 0;
  EXPECT_GE(noisy_apart, 4);
  for (std::size_t i = 0; i < 40; ++i) EXPECT_GT(two.weights[i], 0.9) << i;
  EXPECT_TRUE(two.noisier_shown);

  // A benchmark of the noisy group whose rounds happened to agree (its own s^2 at the prior's
  // median): a change of 3.5 of its prior SEs is significant under one prior, and not once the
  // noisier group can explain its variance too.
  CrossoverFit fit;
  fit.n = 10;
  fit.df = 8;
  fit.mu = 0.0125;
  fit.own_sd = fit.residual_sd = 0.01;
  fit.se_mu_unit = 1 / std::sqrt(10.0);
  fit.se_mu = fit.own_sd * fit.se_mu_unit;
  const double p_one = moderate(fit, one).p_mu();
  std::vector<double> with = v;
  with.push_back(1e-4);
  const std::vector<int> dfs_with(with.size(), 8);
  const PriorMixture again =
      fit_prior_mixture(with, dfs_with, fit_variance_prior(with, dfs_with, 8, false));
  const CrossoverFit two_read = moderate(fit, again.prior, again.weights.back(), again.noisier);
  EXPECT_TRUE(two_read.mixed() || two_read.prior_weight == 1);
  EXPECT_GE(two_read.p_mu(), p_one);
}

TEST(PriorMixture, EqualNoiseKeepsThePriorWhole) {
  const std::vector<double> v = chi2_8_quantiles(50, 1e-4);
  const std::vector<int> dfs(v.size(), 8);
  const PriorMixture two = fit_prior_mixture(v, dfs, fit_variance_prior(v, dfs, 8, false));
  EXPECT_GT(two.prior.df, 100);
  for (double w : two.weights) EXPECT_GT(w, 0.8);
  EXPECT_FALSE(two.noisier_shown);
}

TEST(PriorMixture, TheNoisierGroupExplainsAVarianceUnlessItsLowerTailRulesItOut) {
  // s^2 on 8 df against the noisier group's variance 4: the lower tail P(chi^2(8) <= 8 s^2 / 4)
  // is 1 - e^(-x/2) (1 + x/2 + (x/2)^2 / 2 + (x/2)^3 / 6) at x = 2 s^2.
  // s^2 = 1: x = 2, 1 - e^-1 (1 + 1 + 1/2 + 1/6) = 0.018989 < 2%: ruled out.
  // s^2 = 1.1: x = 2.2, 1 - e^-1.1 (1 + 1.1 + 0.605 + 0.221833) = 0.025742 >= 2%: explained.
  CrossoverFit fit;
  fit.n = 10;
  fit.df = 8;
  const VariancePrior noisier{32, 4, 0.01};
  fit.own_sd = fit.residual_sd = 1;
  EXPECT_FALSE(noisier_plausible(fit, noisier, 0.02));
  EXPECT_TRUE(noisier_plausible(fit, noisier, 0.0189));
  fit.own_sd = fit.residual_sd = std::sqrt(1.1);
  EXPECT_TRUE(noisier_plausible(fit, noisier, 0.02));
  EXPECT_FALSE(noisier_plausible(fit, noisier, 0.0258));
  // No noisier group, or a fit that cannot be judged: nothing to explain.
  EXPECT_FALSE(noisier_plausible(fit, VariancePrior{}, 0.02));
  fit.df = 0;
  EXPECT_FALSE(noisier_plausible(fit, noisier, 0.02));
}

}  // namespace
}  // namespace benchpr::stats
