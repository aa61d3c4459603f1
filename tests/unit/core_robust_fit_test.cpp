// The M-estimator of the crossover fit against values computed by hand.
#include "benchpr/core/stats/robust_fit.hpp"

#include <cmath>
#include <vector>

#include <gtest/gtest.h>

namespace benchpr::stats {
namespace {

const RobustOptions kHuber{RobustLoss::Huber, kMaxDownweightedShare, 0};

// Ten rounds of one order (no position effect to fit: df 9 for the plain fit), nine at -1, 0,
// 1 and one outlier at 100. By hand:
// - start: the median 0; absolute residuals 0 x3, 1 x6, 100: median 1, so the scale is
//   1.4826022 * 1 * sqrt(10 / 9) = 1.5628000;
// - the fit: with the outlier clipped at k = 1.345 scales and the nine others inside,
//   sum psi = (0 - 9 mu) / scale + 1.345 = 0 gives mu = 1.345 * 1.5628000 / 9 = 0.2335518
//   (the plain mean is 10);
// - the standard error: sum psi^2 = (6 + 9 mu^2) / scale^2 + 1.345^2 = 4.4666845, mean psi' =
//   0.9, var psi' = 0.09, K = 1 + 0.1 * 0.09 / 0.81 = 1.0111111, the small-sample bias
//   1 + 1.8 / 81; sd = K * scale * sqrt(bias * 4.4666845 / 9) / 0.9 = 1.2505579 and
//   se = sd / sqrt(10) = 0.3954611, on floor(0.72 * 9 - 0.4) = 6 df.
TEST(RobustFit, OneOutlierIsClippedAtKScales) {
  const std::vector<double> d{-1, -1, -1, 0, 0, 0, 1, 1, 1, 100};
  const std::vector<int> s(10, 1);
  const RobustFit plain = fit_crossover_robust(d, s, RobustOptions{});
  EXPECT_FALSE(plain.robust);
  EXPECT_NEAR(plain.fit.mu, 10, 1e-12);
  const RobustFit r = fit_crossover_robust(d, s, kHuber);
  ASSERT_TRUE(r.robust);
  EXPECT_NEAR(r.fit.mu, 0.2335518, 1e-7);
  EXPECT_NEAR(r.fit.residual_sd, 1.2505579, 1e-7);
  EXPECT_NEAR(r.fit.own_sd, 1.2505579, 1e-7);
  EXPECT_NEAR(r.fit.se_mu, 0.3954611, 1e-7);
  EXPECT_EQ(r.fit.df, 6);
  EXPECT_EQ(r.downweighted, 1);
  EXPECT_FALSE(r.fit.has_gamma);
}

// Rounds around 2 with a position effect of 0.5 (rounds where the PR ran second are 1 higher),
// each order's residuals symmetric about 0: the fit recovers both exactly, as the plain fit
// does.
TEST(RobustFit, SymmetricRoundsGiveThePlainEstimates) {
  const std::vector<int> s{-1, 1, 1, -1, -1, 1, 1, -1, -1, 1};
  // PR second (s = +1): rounds 2, 3, 6, 7, 10 get -0.3, 0.1, 0, -0.1, 0.3; PR first: 0.3,
  // -0.1, 0, 0.1, -0.3.
  const std::vector<double> e{0.3, -0.3, 0.1, -0.1, 0, 0, -0.1, 0.1, -0.3, 0.3};
  std::vector<double> d(10);
  for (int i = 0; i < 10; ++i) d[i] = 2 + 0.5 * s[i] + e[i];
  const RobustFit r = fit_crossover_robust(d, s, kHuber);
  ASSERT_TRUE(r.robust);
  EXPECT_NEAR(r.fit.mu, 2, 1e-9);
  EXPECT_NEAR(r.fit.gamma, 0.5, 1e-9);
  EXPECT_TRUE(r.fit.has_gamma);
}

// Rounds in two modes (four of ten at +10): more than one round in ten is downweighted, so
// the benchmark is read by the plain fit, whose mean does not pick a mode.
TEST(RobustFit, MultimodalRoundsFallBackToThePlainFit) {
  const std::vector<double> d{0, 0.1, -0.1, 10, 0.05, 10, -0.05, 10, 0, 10};
  const std::vector<int> s(10, 1);
  const RobustFit r = fit_crossover_robust(d, s, kHuber);
  EXPECT_FALSE(r.robust);
  EXPECT_EQ(r.downweighted, 4);
  EXPECT_NEAR(r.fit.mu, 4, 1e-12);  // the plain mean
  // Allowed any share of downweighted rounds, Huber follows the mode of six rounds.
  const RobustFit every = fit_crossover_robust(d, s, RobustOptions{RobustLoss::Huber, 1, 0});
  EXPECT_TRUE(every.robust);
  EXPECT_LT(every.fit.mu, 2);
}

TEST(RobustFit, FewRoundsOrIdenticalRoundsKeepThePlainFit) {
  const std::vector<double> d{-1, -1, -1, 0, 0, 0, 1, 1, 1, 100};
  const std::vector<int> s(10, 1);
  EXPECT_FALSE(fit_crossover_robust(d, s, RobustOptions{RobustLoss::Huber, 0.1, 20}).robust);
  // Most rounds identical: the median absolute residual is 0, there is no scale.
  const RobustFit same = fit_crossover_robust({1, 1, 1, 1, 1, 1, 1, 2, 3, 4}, s, kHuber);
  EXPECT_FALSE(same.robust);
  EXPECT_NEAR(same.fit.mu, 1.6, 1e-12);
}

}  // namespace
}  // namespace benchpr::stats
