#include "benchpr/core/stats.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

#include <boost/math/distributions/chi_squared.hpp>
#include <boost/math/distributions/fisher_f.hpp>
#include <boost/math/distributions/students_t.hpp>
#include <boost/math/special_functions/digamma.hpp>
#include <boost/math/special_functions/trigamma.hpp>

namespace benchpr::stats {

namespace {
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
// Boost promotes double to long double by default; double precision is ample for p-values and
// quantiles and about six times faster, which matters at 10,000 benchmarks.
using DoublePolicy = boost::math::policies::policy<boost::math::policies::promote_double<false>>;
using StudentT = boost::math::students_t_distribution<double, DoublePolicy>;
using FisherF = boost::math::fisher_f_distribution<double, DoublePolicy>;
using ChiSquared = boost::math::chi_squared_distribution<double, DoublePolicy>;

constexpr double kMaxPriorDf = 1000;
constexpr double kMinPriorDf = 0.5;  // a weaker prior is no prior
// The moment step of the prior fit leaves out benchmarks beyond these F quantiles of the
// robust first step: far enough out that honest benchmarks stay (the variance is biased by
// about 1%), close enough that a few much noisier ones do not count.
constexpr double kFitTrimP = 0.001;

// Quantile of F(d1, d2), with d2 beyond kMaxPriorDf read as infinite (chi^2(d1) / d1).
double f_quantile(double p, double d1, double d2) {
  if (d2 >= kMaxPriorDf) return boost::math::quantile(ChiSquared(d1), p) / d1;
  return boost::math::quantile(FisherF(d1, d2), p);
}

double log_f_iqr(double d1, double d2) {
  return std::log(f_quantile(0.75, d1, d2)) - std::log(f_quantile(0.25, d1, d2));
}

// Quantile of sorted values, linear between order statistics (R's type 7).
double quantile_sorted(const std::vector<double>& sorted, double p) {
  const double h = (static_cast<double>(sorted.size()) - 1) * p;
  const auto lo = static_cast<std::size_t>(std::floor(h));
  const std::size_t hi = std::min(lo + 1, sorted.size() - 1);
  return sorted[lo] + (h - static_cast<double>(lo)) * (sorted[hi] - sorted[lo]);
}
}  // namespace

double median(std::vector<double> values) {
  if (values.empty()) return kNaN;
  auto mid = values.begin() + static_cast<std::ptrdiff_t>(values.size() / 2);
  std::nth_element(values.begin(), mid, values.end());
  double hi = *mid;
  if (values.size() % 2 == 1) return hi;
  double lo = *std::max_element(values.begin(), mid);
  return (lo + hi) / 2;
}

double t_quantile(double probability, double df) {
  // Only a handful of (probability, df) pairs occur in a run but they are asked for once per
  // benchmark: memoise them (Boost's inverse is the hot spot at 10,000 benchmarks).
  struct Entry {
    double p, df, value;
  };
  thread_local std::vector<Entry> cache;
  for (const Entry& e : cache)
    if (e.p == probability && e.df == df) return e.value;
  StudentT dist(df);
  const double value = boost::math::quantile(dist, probability);
  if (cache.size() >= 256) cache.erase(cache.begin());
  cache.push_back({probability, df, value});
  return value;
}

double t_two_sided_p(double t, double df) {
  if (std::isnan(t)) return kNaN;
  if (std::isinf(t)) return 0.0;
  StudentT dist(df);
  return std::min(1.0, 2 * boost::math::cdf(boost::math::complement(dist, std::fabs(t))));
}

double CrossoverFit::t_mu() const {
  if (se_mu > 0) return mu / se_mu;
  return mu == 0 ? 0.0 : std::copysign(std::numeric_limits<double>::infinity(), mu);
}

double CrossoverFit::p_mu() const { return usable() ? t_two_sided_p(t_mu(), total_df()) : kNaN; }

double CrossoverFit::p_gamma() const {
  if (!usable() || !has_gamma) return 1.0;
  if (se_gamma > 0) return t_two_sided_p(gamma / se_gamma, total_df());
  return gamma == 0 ? 1.0 : 0.0;
}

double CrossoverFit::ci_half_width(double level) const {
  if (!usable()) return kNaN;
  return t_quantile(0.5 + level / 2, total_df()) * se_mu;
}

double CrossoverFit::mde(double alpha, double power) const {
  if (!usable()) return kNaN;
  return (t_quantile(1 - alpha / 2, total_df()) + t_quantile(power, total_df())) * se_mu;
}

double CrossoverFit::p_beyond(double margin) const {
  if (!usable()) return kNaN;
  const double excess = std::fabs(mu) - margin;
  if (!(se_mu > 0)) return excess > 0 ? 0.0 : 1.0;
  const StudentT dist(total_df());
  return boost::math::cdf(boost::math::complement(dist, excess / se_mu));
}

CrossoverFit fit_crossover(const std::vector<double>& d, const std::vector<int>& s) {
  CrossoverFit fit;
  const int n = static_cast<int>(std::min(d.size(), s.size()));
  fit.n = n;
  if (n == 0) return fit;
  double s1 = 0, s2 = 0, sd = 0, ssd = 0;
  for (int i = 0; i < n; ++i) {
    s1 += s[i];
    s2 += static_cast<double>(s[i]) * s[i];
    sd += d[i];
    ssd += s[i] * d[i];
  }
  const double det = n * s2 - s1 * s1;
  // With +-1 codes det = 4 * (#first) * (#second): zero exactly when every round had one order.
  fit.has_gamma = det > 0.5;
  // Both orders present: the position effect must be fitted, which needs a third round to
  // leave any residual. Falling back to the plain mean would hide gamma inside the noise.
  if (fit.has_gamma && n < 3) return fit;
  if (fit.has_gamma) {
    fit.mu = (s2 * sd - s1 * ssd) / det;
    fit.gamma = (n * ssd - s1 * sd) / det;
    fit.df = n - 2;
  } else {
    fit.mu = sd / n;
    fit.gamma = 0;
    fit.df = n - 1;
  }
  if (fit.df < 1) return fit;
  double rss = 0;
  for (int i = 0; i < n; ++i) {
    double e = d[i] - fit.mu - fit.gamma * s[i];
    rss += e * e;
  }
  fit.residual_sd = std::sqrt(rss / fit.df);
  fit.own_sd = fit.residual_sd;
  if (fit.has_gamma) {
    fit.se_mu_unit = std::sqrt(s2 / det);
    fit.se_gamma_unit = std::sqrt(n / det);
  } else {
    fit.se_mu_unit = 1 / std::sqrt(static_cast<double>(n));
  }
  fit.se_mu = fit.residual_sd * fit.se_mu_unit;
  fit.se_gamma = fit.residual_sd * fit.se_gamma_unit;
  return fit;
}

VariancePrior fit_variance_prior(const std::vector<double>& variances, const std::vector<int>& dfs,
                                 int min_benchmarks) {
  VariancePrior prior;
  std::vector<double> logs;
  std::vector<double> df_values;
  for (std::size_t i = 0; i < variances.size() && i < dfs.size(); ++i) {
    // A zero variance (a deterministic value) says nothing about the spread of the others.
    if (!(variances[i] > 0) || !std::isfinite(variances[i]) || dfs[i] < 1) continue;
    logs.push_back(std::log(variances[i]));
    df_values.push_back(dfs[i]);
  }
  const int m = static_cast<int>(logs.size());
  if (m < std::max(min_benchmarks, 2)) return prior;
  std::sort(logs.begin(), logs.end());
  const double d = std::max(1.0, std::round(median(df_values)));
  const double observed_iqr = quantile_sorted(logs, 0.75) - quantile_sorted(logs, 0.25);
  const double cap = std::min(kMaxPriorDf, d * (m - 1));
  double d0 = cap;
  if (observed_iqr > log_f_iqr(d, cap)) {
    if (observed_iqr >= log_f_iqr(d, kMinPriorDf)) return prior;
    // The IQR of ln F(d, d0) falls as d0 grows: bisect on ln d0.
    double lo = std::log(kMinPriorDf), hi = std::log(cap);
    for (int i = 0; i < 60; ++i) {
      const double mid = (lo + hi) / 2;
      (log_f_iqr(d, std::exp(mid)) > observed_iqr ? lo : hi) = mid;
    }
    d0 = std::exp((lo + hi) / 2);
  }
  const double robust_variance = std::exp(quantile_sorted(logs, 0.5)) / f_quantile(0.5, d, d0);

  // Second step, for efficiency: limma's moment estimate (Smyth 2004, section 6.2) over the
  // benchmarks the robust prior does not reject. The quartiles use a quarter of the data; with
  // 50 benchmarks of 8 df they leave d0 below 20 in a quarter of equal-noise runs.
  const double lo_cut = std::log(robust_variance * f_quantile(kFitTrimP, d, d0));
  const double hi_cut = std::log(robust_variance * f_quantile(1 - kFitTrimP, d, d0));
  std::vector<double> e;
  double mean_trigamma = 0;
  for (std::size_t i = 0; i < variances.size() && i < dfs.size(); ++i) {
    if (!(variances[i] > 0) || !std::isfinite(variances[i]) || dfs[i] < 1) continue;
    const double z = std::log(variances[i]);
    if (z < lo_cut || z > hi_cut) continue;
    const double half = dfs[i] / 2.0;
    e.push_back(z - boost::math::digamma(half) + std::log(half));
    mean_trigamma += boost::math::trigamma(half);
  }
  const int kept = static_cast<int>(e.size());
  if (kept < std::max(min_benchmarks, 2)) {
    prior.df = d0;
    prior.variance = robust_variance;
    return prior;
  }
  mean_trigamma /= kept;
  double mean = 0;
  for (double x : e) mean += x / kept;
  double ss = 0;
  for (double x : e) ss += (x - mean) * (x - mean);
  const double excess = ss / (kept - 1) - mean_trigamma;
  const double cap_kept = std::min(kMaxPriorDf, d * (kept - 1));
  d0 = cap_kept;
  if (excess > boost::math::trigamma(cap_kept / 2)) {
    if (excess >= boost::math::trigamma(kMinPriorDf / 2)) return VariancePrior{};
    // trigamma falls as its argument grows: bisect on ln d0.
    double lo = std::log(kMinPriorDf), hi = std::log(cap_kept);
    for (int i = 0; i < 60; ++i) {
      const double mid = (lo + hi) / 2;
      (boost::math::trigamma(std::exp(mid) / 2) > excess ? lo : hi) = mid;
    }
    d0 = std::exp((lo + hi) / 2);
  }
  prior.df = d0;
  prior.variance = std::exp(mean + boost::math::digamma(d0 / 2) - std::log(d0 / 2));
  return prior;
}

bool prior_outlier(const CrossoverFit& fit, const VariancePrior& prior) {
  if (!(prior.df > 0) || !fit.usable()) return false;
  const double s2 = fit.own_sd * fit.own_sd;
  return s2 > prior.variance * f_quantile(1 - prior.outlier_p, fit.df, prior.df);
}

CrossoverFit moderate(const CrossoverFit& fit, const VariancePrior& prior) {
  if (!(prior.df > 0) || !fit.usable() || prior_outlier(fit, prior)) return fit;
  CrossoverFit out = fit;
  const double s2 = fit.own_sd * fit.own_sd;
  const double posterior = (prior.df * prior.variance + fit.df * s2) / (prior.df + fit.df);
  out.residual_sd = std::sqrt(posterior);
  out.se_mu = out.residual_sd * out.se_mu_unit;
  out.se_gamma = out.residual_sd * out.se_gamma_unit;
  out.prior_df = prior.df;
  return out;
}

std::vector<double> benjamini_hochberg(const std::vector<double>& p) {
  std::vector<double> adjusted(p.size(), kNaN);
  std::vector<std::size_t> idx;
  for (std::size_t i = 0; i < p.size(); ++i)
    if (!std::isnan(p[i])) idx.push_back(i);
  const double m = static_cast<double>(idx.size());
  std::sort(idx.begin(), idx.end(), [&](std::size_t a, std::size_t b) { return p[a] < p[b]; });
  double running = 1.0;
  for (std::size_t k = idx.size(); k-- > 0;) {
    double value = p[idx[k]] * m / static_cast<double>(k + 1);
    running = std::min(running, value);
    adjusted[idx[k]] = std::min(1.0, running);
  }
  return adjusted;
}

int rounds_needed(double sd, double margin, double alpha, double power, int max_rounds,
                  double prior_df) {
  if (!(sd >= 0) || !(margin > 0)) return 0;
  auto mde = [&](int n) {
    const double df = n - 2 + prior_df;
    return (t_quantile(1 - alpha / 2, df) + t_quantile(power, df)) * sd /
           std::sqrt(static_cast<double>(n));
  };
  // The MDE falls monotonically with n: bisect over even n instead of walking up to max_rounds
  // (this runs for every inconclusive benchmark; 10,000 of them must stay cheap).
  int lo = 2, hi = max_rounds - max_rounds % 2;  // invariant: mde(lo) > margin (or lo = 2)
  if (hi < 4 || mde(hi) > margin) return 0;
  while (hi - lo > 2) {
    int mid = (lo + hi) / 2;
    mid -= mid % 2;
    if (mid <= lo) mid = lo + 2;
    if (mde(mid) <= margin) {
      hi = mid;
    } else {
      lo = mid;
    }
  }
  return hi;
}

}  // namespace benchpr::stats
