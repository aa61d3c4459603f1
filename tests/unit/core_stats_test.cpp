// Statistics building blocks against values computed by hand (see the comments).
#include "benchpr/core/stats.hpp"

#include <cmath>

#include <gtest/gtest.h>

namespace benchpr::stats {
namespace {

TEST(Median, OddEvenAndEmpty) {
  EXPECT_DOUBLE_EQ(median({3, 1, 2}), 2);
  EXPECT_DOUBLE_EQ(median({4, 1, 3, 2}), 2.5);
  EXPECT_TRUE(std::isnan(median({})));
}

TEST(Mad, UnscaledMedianAbsoluteDeviation) {
  // median 3; deviations 2 1 0 1 6 -> median 1
  EXPECT_DOUBLE_EQ(mad({1, 2, 3, 4, 9}), 1);
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

}  // namespace
}  // namespace benchpr::stats
