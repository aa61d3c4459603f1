#include "benchpr/core/stats/stats.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

#include <boost/math/distributions/chi_squared.hpp>
#include <boost/math/distributions/fisher_f.hpp>
#include <boost/math/distributions/students_t.hpp>
#include <boost/math/special_functions/digamma.hpp>
#include <boost/math/special_functions/gamma.hpp>
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
  // A look late in a long budget can test at a level of 1e-40: 1 - level/2 rounds to 1, whose
  // quantile is infinite (Boost throws). Within 1e-15 of 0 or 1 the quantile is so far out that
  // nothing is shown significant or equivalent at it, which is what such a level means.
  probability = std::clamp(probability, kFarthestTail, 1 - kFarthestTail);
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

namespace {

// Two-sided p of `value` against 0 with standard error `se` on `df`.
double two_sided(double value, double se, double df) {
  if (se > 0) return t_two_sided_p(value / se, df);
  return value == 0 ? 1.0 : 0.0;
}

// One-sided p of "|mu| <= margin" with standard error `se` on `df`.
double beyond(double mu, double margin, double se, double df) {
  const double excess = std::fabs(mu) - margin;
  if (!(se > 0)) return excess > 0 ? 0.0 : 1.0;
  return boost::math::cdf(boost::math::complement(StudentT(df), excess / se));
}

}  // namespace

double CrossoverFit::p_mu() const {
  if (!usable()) return kNaN;
  const double p = t_two_sided_p(t_mu(), total_df());
  if (!mixed()) return p;
  return prior_weight * p + (1 - prior_weight) * two_sided(mu, noisier_se_mu(), noisier_df);
}

double CrossoverFit::p_gamma() const {
  if (!usable() || !has_gamma) return 1.0;
  const double p = two_sided(gamma, se_gamma, total_df());
  if (!mixed()) return p;
  return prior_weight * p +
         (1 - prior_weight) * two_sided(gamma, noisier_sd * se_gamma_unit, noisier_df);
}

double CrossoverFit::ci_half_width(double level) const {
  if (!usable()) return kNaN;
  const double moderated = t_quantile(0.5 + level / 2, total_df()) * se_mu;
  if (!mixed()) return moderated;
  // The interval of the mixture: the half-width h whose two-sided tail, weighted over the two
  // readings, is 1 - level. It lies between the two readings' own half-widths.
  const double own = t_quantile(0.5 + level / 2, noisier_df) * noisier_se_mu();
  double lo = std::min(moderated, own), hi = std::max(moderated, own);
  if (!(hi > lo)) return hi;
  const StudentT moderated_t(total_df()), own_t(noisier_df);
  const double own_se = noisier_se_mu();
  auto tail = [&](double h) {
    const double a =
        se_mu > 0 ? 2 * boost::math::cdf(boost::math::complement(moderated_t, h / se_mu)) : 0;
    const double b =
        own_se > 0 ? 2 * boost::math::cdf(boost::math::complement(own_t, h / own_se)) : 0;
    return prior_weight * a + (1 - prior_weight) * b;
  };
  // To 1e-5 of the width: intervals are shown to three digits, and this runs per benchmark.
  for (int i = 0; i < 40 && hi - lo > 1e-5 * hi; ++i) {
    const double mid = (lo + hi) / 2;
    (tail(mid) > 1 - level ? lo : hi) = mid;
  }
  return (lo + hi) / 2;
}

double CrossoverFit::mde(double alpha, double power) const {
  if (!usable()) return kNaN;
  const double d = df + main_prior_df();
  return (t_quantile(1 - alpha / 2, d) + t_quantile(power, d)) * main_sd() * se_mu_unit;
}

double CrossoverFit::p_beyond(double margin) const {
  if (!usable()) return kNaN;
  const double p = beyond(mu, margin, se_mu, total_df());
  if (!mixed()) return p;
  return prior_weight * p + (1 - prior_weight) * beyond(mu, margin, noisier_se_mu(), noisier_df);
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

CrossoverFit with_df_cost(CrossoverFit fit, int cost) {
  if (cost <= 0 || fit.df < 1) return fit;
  const double rss = fit.residual_sd * fit.residual_sd * fit.df;
  fit.df -= cost;
  if (fit.df < 1) {
    fit.df = 0;
    return fit;
  }
  fit.residual_sd = std::sqrt(rss / fit.df);
  fit.own_sd = fit.residual_sd;
  fit.se_mu = fit.residual_sd * fit.se_mu_unit;
  fit.se_gamma = fit.residual_sd * fit.se_gamma_unit;
  return fit;
}

VariancePrior fit_variance_prior(const std::vector<double>& variances, const std::vector<int>& dfs,
                                 int min_benchmarks, bool moment_step) {
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
  if (!moment_step) {
    prior.df = d0;
    prior.variance = robust_variance;
    return prior;
  }

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

namespace {

constexpr double kMinPriorWeight = 1e-3;       // below it the prior is not used at all
constexpr double kFullPriorWeight = 1 - 1e-4;  // above it the benchmark is read moderated alone
constexpr double kNoisierAtLeast = 3;          // the noisier group's variance: at least 3 x s0^2

double log_chi2_pdf(double x, double k) {
  return (k / 2 - 1) * std::log(x) - x / 2 - (k / 2) * std::log(2.0) - std::lgamma(k / 2);
}

// Density of ln(s^2 / s0^2) under the prior: s^2 / s0^2 ~ F(d, d0) (chi^2(d) / d for d0 at the
// cap).
double prior_log_density(double y, double d, double d0) {
  if (d0 >= kMaxPriorDf) return std::exp(std::log(d * y) + log_chi2_pdf(d * y, d));
  const double log_pdf = std::lgamma((d + d0) / 2) - std::lgamma(d / 2) - std::lgamma(d0 / 2) +
                         (d / 2) * std::log(d / d0) + (d / 2 - 1) * std::log(y) -
                         ((d + d0) / 2) * std::log1p(d * y / d0);
  return std::exp(std::log(y) + log_pdf);
}

// Density of ln(s^2 / s1^2) for a benchmark of the noisier group, whose variance is s1^2 and s^2
// its estimate on d degrees of freedom: ln(chi^2(d) / d).
double noisier_log_density(double y, double d) {
  return std::exp(std::log(d * y) + log_chi2_pdf(d * y, d));
}

}  // namespace

namespace {

// limma's moment estimate of (d0, s0^2) from ln s^2 on d degrees of freedom, each benchmark
// weighted: the second step of fit_variance_prior with weights. `fallback` when the weights
// leave too little to estimate from.
VariancePrior weighted_moment_prior(const std::vector<double>& log_variances,
                                    const std::vector<double>& dfs,
                                    const std::vector<double>& weights,
                                    const VariancePrior& fallback) {
  double sw = 0, sw2 = 0, mean = 0, mean_trigamma = 0;
  std::vector<double> e(log_variances.size());
  for (std::size_t k = 0; k < e.size(); ++k) {
    const double half = dfs[k] / 2;
    e[k] = log_variances[k] - boost::math::digamma(half) + std::log(half);
    sw += weights[k];
    sw2 += weights[k] * weights[k];
    mean += weights[k] * e[k];
    mean_trigamma += weights[k] * boost::math::trigamma(half);
  }
  if (!(sw > 2) || !(sw - sw2 / sw > 1)) return fallback;
  mean /= sw;
  mean_trigamma /= sw;
  double ss = 0;
  for (std::size_t k = 0; k < e.size(); ++k) ss += weights[k] * (e[k] - mean) * (e[k] - mean);
  const double excess = ss / (sw - sw2 / sw) - mean_trigamma;
  const double cap = std::min(kMaxPriorDf, dfs.empty() ? kMaxPriorDf : dfs.front() * (sw - 1));
  double d0 = cap;
  if (excess > boost::math::trigamma(cap / 2)) {
    if (excess >= boost::math::trigamma(kMinPriorDf / 2)) return fallback;
    double lo = std::log(kMinPriorDf), hi = std::log(cap);
    for (int i = 0; i < 60; ++i) {
      const double mid = (lo + hi) / 2;
      (boost::math::trigamma(std::exp(mid) / 2) > excess ? lo : hi) = mid;
    }
    d0 = std::exp((lo + hi) / 2);
  }
  VariancePrior out = fallback;
  out.df = d0;
  out.variance = std::exp(mean + boost::math::digamma(d0 / 2) - std::log(d0 / 2));
  return out;
}

}  // namespace

PriorMixture fit_prior_mixture(const std::vector<double>& variances, const std::vector<int>& dfs,
                               const VariancePrior& start) {
  PriorMixture out{start, {}, std::vector<double>(variances.size(), 1.0)};
  if (!(start.df > 0) || !(start.variance > 0)) return out;
  std::vector<std::size_t> idx;
  std::vector<double> logs, d;
  for (std::size_t i = 0; i < variances.size() && i < dfs.size(); ++i) {
    if (!(variances[i] > 0) || !std::isfinite(variances[i]) || dfs[i] < 1) continue;
    idx.push_back(i);
    logs.push_back(std::log(variances[i]));
    d.push_back(dfs[i]);
  }
  if (idx.empty()) return out;
  // EM: the share of benchmarks the prior describes, each one's probability of belonging to
  // it, the prior refitted from those it describes and the noisier group's variance from the
  // rest.
  double share = 0.9;
  VariancePrior prior = start;
  // The noisier group starts where the benchmarks beyond the start prior's 95% quantile are
  // (4 x s0^2 when there are none): a far noisier benchmark the group starts too low for would
  // otherwise be explained by widening the prior.
  double noisier = 4 * start.variance;
  {
    const double cut = start.variance * f_quantile(0.95, median(d), start.df);
    double sum = 0;
    int n = 0;
    for (double l : logs)
      if (std::exp(l) > cut) {
        sum += l;
        ++n;
      }
    if (n > 0) noisier = std::max(kNoisierAtLeast * start.variance, std::exp(sum / n));
  }
  std::vector<double> w(idx.size(), 1.0);
  auto weigh = [&](std::size_t k) {
    const double v = std::exp(logs[k]);
    const double a = share * prior_log_density(v / prior.variance, d[k], prior.df);
    const double b = (1 - share) * noisier_log_density(v / noisier, d[k]);
    return a + b > 0 ? a / (a + b) : 0.0;
  };
  for (int iteration = 0; iteration < 50; ++iteration) {
    double sum = 0, rest = 0, rest_log = 0;
    for (std::size_t k = 0; k < idx.size(); ++k) {
      w[k] = weigh(k);
      sum += w[k];
      // E ln(chi^2(d) / d) = digamma(d / 2) - ln(d / 2): ln s^2 less that estimates ln s1^2.
      rest += 1 - w[k];
      rest_log += (1 - w[k]) * (logs[k] - boost::math::digamma(d[k] / 2) + std::log(d[k] / 2));
    }
    share = std::clamp(sum / static_cast<double>(idx.size()), 0.01, 0.999);
    const VariancePrior next = weighted_moment_prior(logs, d, w, prior);
    const double next_noisier =
        std::max(kNoisierAtLeast * next.variance, rest > 1e-9 ? std::exp(rest_log / rest) : 0.0);
    const bool settled = std::fabs(std::log(next.df / prior.df)) < 1e-4 &&
                         std::fabs(std::log(next.variance / prior.variance)) < 1e-5 &&
                         std::fabs(std::log(next_noisier / noisier)) < 1e-5;
    prior = next;
    noisier = next_noisier;
    if (settled) break;
  }
  out.prior = prior;
  double rest = 0;
  for (std::size_t k = 0; k < idx.size(); ++k) {
    out.weights[idx[k]] = weigh(k);
    rest += 1 - out.weights[idx[k]];
  }
  // The noisier group's prior: its variance, and as many degrees of freedom as the prior's but
  // no more than the group's benchmarks hold.
  out.noisier.variance = noisier;
  out.noisier.df = std::max(1.0, std::min(prior.df, d.front() * std::max(1.0, rest - 1)));
  out.noisier.outlier_p = prior.outlier_p;
  const double family = static_cast<double>(idx.size());
  out.noisier_shown =
      rest >= std::max(kNoisierGroupShown, 0.02 * family) && rest <= kNoisierGroupAtMost * family;
  return out;
}

bool noisier_plausible(const CrossoverFit& fit, const VariancePrior& noisier, double level) {
  if (!fit.usable() || !(noisier.df > 0) || !(noisier.variance > 0)) return false;
  const double s2 = fit.own_sd * fit.own_sd;
  return boost::math::cdf(ChiSquared(fit.df), fit.df * s2 / noisier.variance) >= level;
}

CrossoverFit moderate(const CrossoverFit& fit, const VariancePrior& prior, double weight,
                      const VariancePrior& noisier) {
  if (!(prior.df > 0) || !fit.usable() || prior_outlier(fit, prior)) return fit;
  const bool other = noisier.df > 0 && noisier.variance > 0 && weight <= kFullPriorWeight;
  if (weight < kMinPriorWeight && !other) return fit;
  CrossoverFit out = fit;
  out.prior_weight = other ? std::max(weight, 0.0) : 1.0;
  if (other) {
    const double own = fit.own_sd * fit.own_sd;
    out.noisier_sd =
        std::sqrt((noisier.df * noisier.variance + fit.df * own) / (noisier.df + fit.df));
    out.noisier_df = fit.df + noisier.df;
  }
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
