#include "benchpr/core/stats/mode_fit.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <utility>

#include <boost/math/distributions/normal.hpp>

#include <fmt/format.h>

#include "benchpr/core/stats/stats.hpp"

namespace benchpr::stats {

namespace {

// 10 rounds: with fewer runs the best split of one sample without modes is too often clear (the
// 99.9% quantile of its separation under normal noise is 5.26 at 20 runs, 5.91 at 16 and 7.08
// at 12, and lighter-tailed noise splits more cleanly still).
constexpr int kMinValues = 20;
// A single run far from all the others is read apart as well: its round's ratio is then left to
// the mode covariate, which makes this an outlier rule on runs, not on rounds. Under normal
// noise a run 6 SDs out of 20 almost never happens (0.1% of A/A readings at 10 rounds found
// any split at all); with 5% of runs at 10x the noise it brought the share of A/A readings
// significant at 5% from 3.2% to 4.7% at 10 rounds (20,000 single-benchmark readings).
constexpr int kMinGroup = 1;
// Groups closer than this many SDs within them share the runs that lie between them (a run 3
// SDs from its mode's centre is 1 in 370), and such a split is found mainly where the noise
// happened to be small, so the within-mode fit would read both too optimistically (modes 5 SDs
// apart: 7-11% of A/A fits significant at 5%, against 5.2% at 10 SDs). It is also above what
// the best split of one normal sample of 20 or more runs without modes reaches in 99.9% of
// samples (5.26 at 20 runs, 3.75 at 60: simulated, 200,000 samples each).
constexpr double kSeparationNeeded = 6;
constexpr int kMaxRefinements = 10;  // split, fit, split again: settles in two or three

// Least squares of d on the columns of `x` (each of length n): coefficients, and the diagonal
// of (X'X)^-1; nullopt when X'X is singular (a column repeats another or is all zero).
struct LinearFit {
  std::vector<double> beta;
  std::vector<double> inverse_diagonal;
  double rss = 0;
};
std::optional<LinearFit> least_squares(const std::vector<std::vector<double>>& x,
                                       const std::vector<double>& d) {
  const std::size_t p = x.size(), n = d.size();
  // [X'X | I | X'd], reduced by Gauss-Jordan with partial pivoting.
  std::vector<std::vector<double>> m(p, std::vector<double>(2 * p + 1, 0));
  for (std::size_t i = 0; i < p; ++i) {
    for (std::size_t j = 0; j < p; ++j)
      for (std::size_t r = 0; r < n; ++r) m[i][j] += x[i][r] * x[j][r];
    m[i][p + i] = 1;
    for (std::size_t r = 0; r < n; ++r) m[i][2 * p] += x[i][r] * d[r];
  }
  for (std::size_t c = 0; c < p; ++c) {
    std::size_t pivot = c;
    for (std::size_t i = c + 1; i < p; ++i)
      if (std::fabs(m[i][c]) > std::fabs(m[pivot][c])) pivot = i;
    if (std::fabs(m[pivot][c]) < 1e-9 * static_cast<double>(n)) return std::nullopt;
    std::swap(m[c], m[pivot]);
    const double scale = m[c][c];
    for (double& v : m[c]) v /= scale;
    for (std::size_t i = 0; i < p; ++i) {
      if (i == c || m[i][c] == 0) continue;
      const double f = m[i][c];
      for (std::size_t j = 0; j < 2 * p + 1; ++j) m[i][j] -= f * m[c][j];
    }
  }
  LinearFit out;
  for (std::size_t i = 0; i < p; ++i) {
    out.beta.push_back(m[i][2 * p]);
    out.inverse_diagonal.push_back(m[i][p + i]);
  }
  for (std::size_t r = 0; r < n; ++r) {
    double e = d[r];
    for (std::size_t i = 0; i < p; ++i) e -= out.beta[i] * x[i][r];
    out.rss += e * e;
  }
  return out;
}

// The crossover fit with the mode covariate c_r = m_PR - m_base: nullopt when c is zero in
// every round (the plain fit is then the same) or cannot be told from the order.
std::optional<CrossoverFit> fit_with_modes(const std::vector<double>& d, const std::vector<int>& s,
                                           const std::vector<double>& c, bool has_gamma) {
  const auto n = static_cast<int>(d.size());
  if (std::all_of(c.begin(), c.end(), [](double v) { return v == 0; })) return std::nullopt;
  std::vector<std::vector<double>> x{std::vector<double>(d.size(), 1.0)};
  if (has_gamma) x.emplace_back(s.begin(), s.end());
  x.push_back(c);
  const int p = static_cast<int>(x.size());
  if (n - p < 1) return std::nullopt;
  const std::optional<LinearFit> lf = least_squares(x, d);
  if (!lf) return std::nullopt;
  CrossoverFit fit;
  fit.n = n;
  fit.df = n - p;
  fit.has_gamma = has_gamma;
  fit.mu = lf->beta[0];
  fit.gamma = has_gamma ? lf->beta[1] : 0;
  fit.residual_sd = std::sqrt(lf->rss / fit.df);
  fit.own_sd = fit.residual_sd;
  fit.se_mu_unit = std::sqrt(lf->inverse_diagonal[0]);
  fit.se_gamma_unit = has_gamma ? std::sqrt(lf->inverse_diagonal[1]) : 0;
  fit.se_mu = fit.residual_sd * fit.se_mu_unit;
  fit.se_gamma = fit.residual_sd * fit.se_gamma_unit;
  return fit;
}

// log P(X = a) for the hypergeometric count of the first sample's successes.
double log_hypergeometric(int a, int n_a, int n_b, int successes) {
  const auto log_choose = [](int n, int k) {
    return std::lgamma(n + 1.0) - std::lgamma(k + 1.0) - std::lgamma(n - k + 1.0);
  };
  return log_choose(n_a, a) + log_choose(n_b, successes - a) - log_choose(n_a + n_b, successes);
}

}  // namespace

std::optional<ModeSplit> split_modes(const std::vector<double>& values) {
  const auto n = static_cast<int>(values.size());
  if (n < kMinValues) return std::nullopt;
  std::vector<int> order(values.size());
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](int a, int b) { return values[a] < values[b]; });
  // Centred on the mean, so the sums of squares keep their precision.
  double mean = 0;
  for (double v : values) mean += v;
  mean /= n;
  std::vector<double> sum(n + 1, 0), sum2(n + 1, 0);
  for (int i = 0; i < n; ++i) {
    const double v = values[order[i]] - mean;
    sum[i + 1] = sum[i] + v;
    sum2[i + 1] = sum2[i] + v * v;
  }
  double best = INFINITY;
  int cut = 0;  // the lower group is the `cut` smallest values
  for (int k = kMinGroup; k <= n - kMinGroup; ++k) {
    const double s0 = sum[k], s1 = sum[n] - sum[k];
    const double within = sum2[k] - s0 * s0 / k + (sum2[n] - sum2[k]) - s1 * s1 / (n - k);
    if (within < best) {
      best = within;
      cut = k;
    }
  }
  if (cut == 0) return std::nullopt;
  ModeSplit split;
  split.gap = (sum[n] - sum[cut]) / (n - cut) - sum[cut] / cut;
  const double within_sd = std::sqrt(std::max(0.0, best) / (n - 2));
  // Identical values within each group are a timer's resolution, not modes: the within-mode fit
  // would have no noise left to read.
  if (!(within_sd > 0)) return std::nullopt;
  split.separation = split.gap / within_sd;
  if (!(split.separation >= kSeparationNeeded)) return std::nullopt;
  split.labels.assign(values.size(), 0);
  for (int i = cut; i < n; ++i) split.labels[order[i]] = 1;
  return split;
}

double fisher_exact_p(int a, int n_a, int b, int n_b) {
  const int successes = a + b;
  const int lo = std::max(0, successes - n_b), hi = std::min(n_a, successes);
  const double seen = log_hypergeometric(a, n_a, n_b, successes);
  double p = 0;
  for (int x = lo; x <= hi; ++x) {
    const double lp = log_hypergeometric(x, n_a, n_b, successes);
    // Tables as likely as the one seen count too (a relative tolerance, as R's fisher.test).
    if (lp <= seen + 1e-7) p += std::exp(lp);
  }
  return std::min(1.0, p);
}

ModeFit fit_crossover_modes(const std::vector<double>& d, const std::vector<int>& s,
                            const std::vector<double>& base_log, const ModeOptions& options) {
  ModeFit out;
  out.fit = fit_crossover(d, s);
  const std::size_t n = std::min({d.size(), s.size(), base_log.size()});
  out.runs = static_cast<int>(n);
  if (!out.fit.usable() || n != d.size()) return out;

  // The pooled runs: the base's, and the PR's moved back by the change, split into modes; then
  // the within-mode fit's change, and the split again, until the labels settle.
  const auto pooled_at = [&](double change) {
    std::vector<double> pooled(base_log.begin(), base_log.begin() + static_cast<long>(n));
    for (std::size_t i = 0; i < n; ++i) pooled.push_back(base_log[i] + d[i] - change);
    return split_modes(pooled);
  };
  struct Reading {
    std::vector<int> labels;
    double gap = 0;
    CrossoverFit fit;
  };
  const auto read_from = [&](double start) -> std::optional<Reading> {
    std::optional<ModeSplit> split = pooled_at(start);
    std::optional<Reading> reading;
    for (int refinement = 0; refinement < kMaxRefinements && split; ++refinement) {
      if (reading && split->labels == reading->labels) {
        reading->gap = split->gap;  // the gap as seen from the settled change
        break;
      }
      std::vector<double> c(n);
      for (std::size_t i = 0; i < n; ++i) c[i] = split->labels[n + i] - split->labels[i];
      // Every round's two runs in one mode: the rounds' ratios hold no gap, the plain fit is
      // the within-mode fit.
      const std::optional<CrossoverFit> f =
          std::all_of(c.begin(), c.end(), [](double v) { return v == 0; })
              ? std::optional<CrossoverFit>(out.fit)
              : fit_with_modes(d, s, c, out.fit.has_gamma);
      if (!f) break;
      reading = Reading{split->labels, split->gap, *f};
      // A refined change that loses the modes keeps the last split that had them.
      split = pooled_at(f->mu);
    }
    return reading;
  };
  // Where to start: where rounds jump between modes their ratios cluster at -gap, 0 and +gap,
  // and the median may sit in any cluster, or between two. From no change and from both middle
  // rounds; of the readings that find modes, the one with the smallest change. Two readings
  // can explain the same runs (base runs mostly slow and the PR's fast, or the PR faster by the
  // gap with its runs all slow): the smaller change is the likelier one, and a real change of
  // the gap shows in the shares of the other (tested below).
  std::vector<double> sorted_d(d.begin(), d.begin() + static_cast<long>(n));
  std::sort(sorted_d.begin(), sorted_d.end());
  std::optional<Reading> best;
  for (const double start : {0.0, sorted_d[(n - 1) / 2], sorted_d[n / 2]}) {
    std::optional<Reading> r = read_from(start);
    if (r && (!best || std::fabs(r->fit.mu) < std::fabs(best->fit.mu))) best = std::move(r);
  }
  if (!best) return out;
  // A side whose runs all sit in one mode could as well sit in the other: nothing in its own
  // runs places it. Its runs moved to the other mode are the same split with the change moved
  // by the gap, and where that change is smaller, it is the reading (the split from that start
  // may have been just short of clear, and the PR's runs all slow read as a change of the gap:
  // 1.6% of A/A pull requests with modes 5% apart had a false `regression` at 10 rounds).
  for (const std::size_t side : {std::size_t{0}, n}) {
    const auto first = best->labels.begin() + static_cast<long>(side);
    if (!std::all_of(first, first + static_cast<long>(n), [&](int m) { return m == *first; }))
      continue;
    std::vector<int> labels = best->labels;
    for (std::size_t i = side; i < side + n; ++i) labels[i] = 1 - labels[i];
    std::vector<double> c(n);
    for (std::size_t i = 0; i < n; ++i) c[i] = labels[n + i] - labels[i];
    const std::optional<CrossoverFit> f = fit_with_modes(d, s, c, out.fit.has_gamma);
    if (f && std::fabs(f->mu) < std::fabs(best->fit.mu)) best = Reading{labels, best->gap, *f};
  }
  out.modes = true;
  out.gap = best->gap;
  out.fit = best->fit;
  for (std::size_t i = 0; i < n; ++i) {
    out.slow_base += best->labels[i];
    out.slow_head += best->labels[n + i];
  }
  out.share_p = fisher_exact_p(out.slow_base, out.runs, out.slow_head, out.runs);
  out.shares_differ = out.share_p <= options.share_alpha;
  if (out.share_p <= options.whole_alpha) {
    // Runs moved between modes beyond doubt: the PR changed the benchmark's mean time, and the
    // plain fit reads that change, modes included.
    out.whole = true;
    out.fit = fit_crossover(d, s);
  }
  return out;
}

namespace {

// The difference of the slower mode's shares, PR minus base, and the half-width of its `level`
// interval (Agresti-Caffo: one success and one failure added to each side, then the Wald
// interval).
struct ShareDifference {
  double diff = 0;
  double half = 0;
};
ShareDifference share_difference(const ModeFit& fit, double level) {
  const double n = fit.runs + 2.0;
  const double pb = (fit.slow_base + 1.0) / n;
  const double ph = (fit.slow_head + 1.0) / n;
  const double z = boost::math::quantile(boost::math::normal(),
                                         std::min(1 - (1 - level) / 2, 1 - stats::kFarthestTail));
  return {ph - pb, z * std::sqrt(pb * (1 - pb) / n + ph * (1 - ph) / n)};
}

}  // namespace

double share_shift_bound(const ModeFit& fit, double level) {
  if (!fit.modes || fit.whole || fit.runs <= 0) return 0;
  const int slow = fit.slow_base + fit.slow_head;
  const int fast = 2 * fit.runs - slow;
  if (std::min(slow, fast) < 2) return 0;
  const ShareDifference s = share_difference(fit, level);
  return std::fabs(fit.gap) * std::max(std::fabs(s.diff - s.half), std::fabs(s.diff + s.half));
}

bool within_change_outweighed(const ModeFit& fit, double share_alpha, double level) {
  if (!fit.modes || fit.whole || fit.runs <= 0 || fit.share_p > share_alpha || !fit.fit.usable())
    return false;
  const double mu = fit.fit.mu;
  const int moved = fit.slow_head - fit.slow_base;  // > 0: the PR's runs moved into the slower
  if (moved == 0 || (moved > 0) == (mu > 0)) return false;
  const ShareDifference s = share_difference(fit, level);
  const double shift = fit.gap * s.diff;
  const double half = std::hypot(fit.fit.ci_half_width(level), std::fabs(fit.gap) * s.half);
  // mu's side of the interval of mu + shift: its near end at or past 0.
  return (mu > 0 ? 1.0 : -1.0) * (mu + shift) - half <= 0;
}

std::string modes_phrase(const ModeFit& fit) {
  if (!fit.modes) return {};
  const double gap = std::expm1(fit.gap) * 100;
  const int slow = fit.slow_base + fit.slow_head;
  if (slow == 1 || slow == 2 * fit.runs - 1) {
    // One run alone on one side of the split: an outlier, read apart.
    const bool alone_is_slow = slow == 1;
    const bool base = alone_is_slow ? fit.slow_base == 1 : fit.slow_base == fit.runs - 1;
    return fmt::format("one {} run {:.1f}% {} than all others, read apart from them",
                       base ? "base" : "PR", gap, alone_is_slow ? "slower" : "faster");
  }
  const std::string counts = fmt::format("{} of {} base runs and {} of {} PR runs in the slower",
                                         fit.slow_base, fit.runs, fit.slow_head, fit.runs);
  if (fit.whole)
    return fmt::format(
        "runs in two modes {:.1f}% apart; the PR moved runs between them ({}, p {:.2g}): "
        "compared as a whole",
        gap, counts, fit.share_p);
  if (fit.shares_differ)
    return fmt::format(
        "runs in two modes {:.1f}% apart, compared within each mode; the PR moved runs between "
        "them ({}, p {:.3f})",
        gap, counts, fit.share_p);
  return fmt::format("runs in two modes {:.1f}% apart ({}), compared within each mode", gap,
                     counts);
}

}  // namespace benchpr::stats
