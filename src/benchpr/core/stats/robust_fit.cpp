#include "benchpr/core/stats/robust_fit.hpp"

#include <algorithm>
#include <cmath>

namespace benchpr::stats {

namespace {

constexpr double kMadToSd = 1.482602218505602;  // 1 / Phi^-1(3/4): the MAD of N(0, 1) is 0.6745
constexpr int kMaxIterations = 100;
constexpr double kMinMeanSlope = 0.1;  // mean psi' below it: too few rounds keep any weight

double psi(RobustLoss loss, double u) {
  switch (loss) {
    case RobustLoss::Huber:
      return std::clamp(u, -kHuberK, kHuberK);
    case RobustLoss::LeastSquares:
      break;
  }
  return u;
}

double psi_slope(RobustLoss loss, double u) {
  switch (loss) {
    case RobustLoss::Huber:
      return std::fabs(u) <= kHuberK ? 1 : 0;
    case RobustLoss::LeastSquares:
      break;
  }
  return 1;
}

double weight(RobustLoss loss, double u) { return u == 0 ? 1 : psi(loss, u) / u; }

}  // namespace

RobustFit fit_crossover_robust(const std::vector<double>& d, const std::vector<int>& s,
                               const RobustOptions& options) {
  RobustFit out;
  out.fit = fit_crossover(d, s);
  CrossoverFit& fit = out.fit;
  const RobustLoss loss = options.loss;
  if (loss == RobustLoss::LeastSquares || !fit.usable() || fit.n < options.min_rounds) return out;
  const int n = fit.n;
  const int p = fit.has_gamma ? 2 : 1;

  // Start in the mode that holds most rounds: the median of each order's rounds.
  double mu = 0, gamma = 0;
  if (fit.has_gamma) {
    std::vector<double> first, second;
    for (int i = 0; i < n; ++i) (s[i] > 0 ? second : first).push_back(d[i]);
    const double m_second = median(second), m_first = median(first);
    mu = (m_second + m_first) / 2;
    gamma = (m_second - m_first) / 2;
  } else {
    mu = median(std::vector<double>(d.begin(), d.begin() + n));
  }
  std::vector<double> r(n);
  auto residuals = [&] {
    for (int i = 0; i < n; ++i) r[i] = d[i] - mu - gamma * s[i];
  };
  residuals();
  std::vector<double> abs_r(n);
  for (int i = 0; i < n; ++i) abs_r[i] = std::fabs(r[i]);
  const double scale = kMadToSd * median(abs_r) * std::sqrt(static_cast<double>(n) / fit.df);
  if (!(scale > 0) || !std::isfinite(scale)) return out;

  for (int iteration = 0; iteration < kMaxIterations; ++iteration) {
    double sw = 0, sws = 0, swss = 0, swd = 0, swsd = 0;
    for (int i = 0; i < n; ++i) {
      const double w = weight(loss, r[i] / scale);
      sw += w;
      sws += w * s[i];
      swss += w * s[i] * s[i];
      swd += w * d[i];
      swsd += w * s[i] * d[i];
    }
    double next_mu = mu, next_gamma = gamma;
    if (fit.has_gamma) {
      const double det = sw * swss - sws * sws;
      // The weights left one order without rounds: the position effect cannot be separated.
      if (!(det > 1e-12 * sw * sw)) return out;
      next_mu = (swss * swd - sws * swsd) / det;
      next_gamma = (sw * swsd - sws * swd) / det;
    } else {
      if (!(sw > 0)) return out;
      next_mu = swd / sw;
    }
    const double moved = std::fabs(next_mu - mu) + std::fabs(next_gamma - gamma);
    mu = next_mu;
    gamma = next_gamma;
    residuals();
    if (moved <= 1e-10 * scale) break;
  }

  double sum_psi2 = 0, sum_slope = 0, sum_slope2 = 0;
  int inside = 0, downweighted = 0;
  for (int i = 0; i < n; ++i) {
    const double u = r[i] / scale;
    const double ps = psi(loss, u), slope = psi_slope(loss, u);
    sum_psi2 += ps * ps;
    sum_slope += slope;
    sum_slope2 += slope * slope;
    if (slope > 0) ++inside;
    if (weight(loss, u) < 0.5) ++downweighted;
  }
  const double mean_slope = sum_slope / n;
  if (mean_slope < kMinMeanSlope || inside <= p) return out;
  out.downweighted = downweighted;
  if (downweighted > 1 && downweighted > options.max_downweighted_share * n) return out;
  const double var_slope = std::max(0.0, sum_slope2 / n - mean_slope * mean_slope);
  const double k = 1 + (static_cast<double>(p) / n) * var_slope / (mean_slope * mean_slope);
  const double residual_df = n - p;
  const double bias = 1 + 1.8 / (residual_df * residual_df);
  const double sd = k * scale * std::sqrt(bias * sum_psi2 / residual_df) / mean_slope;
  const int df = std::max(1, static_cast<int>(std::floor(0.72 * residual_df - 0.4)));

  fit.mu = mu;
  fit.gamma = fit.has_gamma ? gamma : 0;
  fit.residual_sd = sd;
  fit.own_sd = sd;
  fit.se_mu = sd * fit.se_mu_unit;
  fit.se_gamma = sd * fit.se_gamma_unit;
  fit.df = df;
  out.robust = true;
  return out;
}

}  // namespace benchpr::stats
