// A robust form of the crossover fit: an M-estimator of the PR's effect that gives rounds far
// from the others less weight, for benchmarks whose rounds jump between modes or carry outliers.
#pragma once

#include <vector>

#include "benchpr/core/stats/stats.hpp"

namespace benchpr::stats {

// How far a round's residual counts, as a function of u = residual / scale.
enum class RobustLoss {
  LeastSquares,  // every round in full: the plain crossover fit
  Huber,         // psi(u) = clamp(u, -k, k), k = 1.345: 95% efficient under normal noise
};

constexpr double kHuberK = 1.345;
// A round is "downweighted" when its weight psi(u) / u is below one half (|u| > 2k).
// Outliers are rare rounds: with more than this share of them (and more than one) the
// benchmark's rounds are multimodal, where an M-estimator follows whichever mode holds the
// most rounds in this sample; the plain fit is then used (docs/method.md, table 11).
constexpr double kMaxDownweightedShare = 0.1;

// The crossover model d_r = mu + gamma * s_r + e_r fitted by an M-estimator with `loss`:
// - start: mu and gamma from the medians of the rounds of each order (the median of all rounds
//   when every round had one order), so the fit starts in the mode that holds most rounds;
// - scale: the median absolute residual from that start, times 1.4826 (normal consistency) and
//   sqrt(n / df) (the fitted parameters), fixed while fitting;
// - the fit: iteratively reweighted least squares, weight psi(u) / u per round;
// - its standard error: Huber's (1981, section 7.6) sandwich, K^2 * scale^2 * [sum psi^2 /
//   (n - p)] / mean(psi')^2, with K = 1 + (p / n) var(psi') / mean(psi')^2 the small-sample
//   correction. It is returned as residual_sd = own_sd (se_mu = residual_sd * se_mu_unit), so
//   the variance prior, the tests and the intervals read it as they read the plain fit's;
// - calibrated for few rounds: under normal noise the sandwich's variance is biased low by
//   about 1.8 / (n - p)^2 (2.7% at 10 rounds) and scatters like a chi^2 on 0.72 (n - p) - 0.4
//   degrees of freedom (5 at 10 rounds, not 8: measured by simulation for 6 to 40 rounds).
//   The variance is raised by that bias and df set to those degrees of freedom (rounded
//   down): uncalibrated, the sandwich's p values at 0.001 came out four times too often.
// Falls back to the plain fit when the scale is zero (most rounds identical), when too few
// rounds keep any weight (mean psi' below 0.1 or fewer rounds inside than parameters), when
// more than `max_downweighted_share` of the rounds (and more than one) are downweighted, with
// fewer than `min_rounds` rounds, or with LeastSquares. `downweighted` counts the rounds with
// weight below one half.
struct RobustFit {
  CrossoverFit fit;
  int downweighted = 0;
  bool robust = false;  // false: the plain fit (LeastSquares, or a fallback above)
};
struct RobustOptions {
  RobustLoss loss = RobustLoss::LeastSquares;
  double max_downweighted_share = kMaxDownweightedShare;
  // Fewer rounds than this: the plain fit (the calibrated sandwich's few degrees of freedom
  // cost the most power at 10 rounds).
  int min_rounds = 0;
};
RobustFit fit_crossover_robust(const std::vector<double>& d, const std::vector<int>& s,
                               const RobustOptions& options);

}  // namespace benchpr::stats
