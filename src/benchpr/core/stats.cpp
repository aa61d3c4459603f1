#include "benchpr/core/stats.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

#include <boost/math/distributions/students_t.hpp>

namespace benchpr::stats {

namespace {
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
// Boost promotes double to long double by default; double precision is ample for p-values and
// quantiles and about six times faster, which matters at 10,000 benchmarks.
using DoublePolicy = boost::math::policies::policy<boost::math::policies::promote_double<false>>;
using StudentT = boost::math::students_t_distribution<double, DoublePolicy>;
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

double mad(const std::vector<double>& values) {
  double m = median(values);
  std::vector<double> dev;
  dev.reserve(values.size());
  for (double v : values) dev.push_back(std::fabs(v - m));
  return median(std::move(dev));
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

double CrossoverFit::p_mu() const { return usable() ? t_two_sided_p(t_mu(), df) : kNaN; }

double CrossoverFit::p_gamma() const {
  if (!usable() || !has_gamma) return 1.0;
  if (se_gamma > 0) return t_two_sided_p(gamma / se_gamma, df);
  return gamma == 0 ? 1.0 : 0.0;
}

double CrossoverFit::ci_half_width(double level) const {
  if (!usable()) return kNaN;
  return t_quantile(0.5 + level / 2, df) * se_mu;
}

double CrossoverFit::mde(double alpha, double power) const {
  if (!usable()) return kNaN;
  return (t_quantile(1 - alpha / 2, df) + t_quantile(power, df)) * se_mu;
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
  const double var = fit.residual_sd * fit.residual_sd;
  if (fit.has_gamma) {
    fit.se_mu = std::sqrt(var * s2 / det);
    fit.se_gamma = std::sqrt(var * n / det);
  } else {
    fit.se_mu = fit.residual_sd / std::sqrt(static_cast<double>(n));
  }
  return fit;
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

int rounds_needed(double sd, double margin, double alpha, double power, int max_rounds) {
  if (!(sd >= 0) || !(margin > 0)) return 0;
  auto mde = [&](int n) {
    const double df = n - 2;
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
