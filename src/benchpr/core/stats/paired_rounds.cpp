#include "benchpr/core/stats/paired_rounds.hpp"

#include <algorithm>
#include <cmath>
#include <map>

#include "benchpr/core/model/placement_rotation.hpp"

#include "benchpr/core/stats/stats.hpp"

namespace benchpr {

namespace {
constexpr double kColdP = 0.002;
constexpr int kMinFamilyForColdGate = 8;
constexpr double kColdFamilyAlpha = 0.05;
constexpr int kMinOthersForColdCheck = 3;
constexpr int kMinOthersForTrend = 6;
constexpr int kMinRoundsAfterDrop = 4;

double at(const std::vector<double>& v, int i) {
  return i >= 0 && static_cast<std::size_t>(i) < v.size() ? v[static_cast<std::size_t>(i)]
                                                          : kMissing;
}
bool usable(double v) { return std::isfinite(v) && v > 0; }
}  // namespace

std::vector<AnalysedRound> analysed_rounds(const Results& results) {
  std::vector<AnalysedRound> out;
  int number = 0;
  for (const RoundPlan& p : results.plan) {
    if (p.index >= results.rounds_done) break;
    if (p.warmup) continue;
    ++number;
    const std::size_t shifts = results.placement_shifts.size();
    out.push_back({p.index, number, p.head_second(), placement_cycle(number, shifts),
                   shifts > 1 ? 2 * static_cast<int>(shifts) : 0});
  }
  return out;
}

double cold_p(double first, double x0, const std::vector<double>& xs,
              const std::vector<double>& ys) {
  const std::size_t n = std::min(xs.size(), ys.size());
  if (n < static_cast<std::size_t>(kMinOthersForColdCheck)) return NAN;
  const double nd = static_cast<double>(n);
  double mx = 0, my = 0;
  for (std::size_t i = 0; i < n; ++i) {
    mx += xs[i] / nd;
    my += ys[i] / nd;
  }
  double sxx = 0, sxy = 0;
  for (std::size_t i = 0; i < n; ++i) {
    sxx += (xs[i] - mx) * (xs[i] - mx);
    sxy += (xs[i] - mx) * (ys[i] - my);
  }
  const bool trend = n >= static_cast<std::size_t>(kMinOthersForTrend) && sxx > 0;
  const double slope = trend ? sxy / sxx : 0;
  double rss = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const double e = ys[i] - my - slope * (xs[i] - mx);
    rss += e * e;
  }
  const double df = nd - (trend ? 2 : 1);
  const double sd = std::sqrt(rss / df);
  if (!(sd > 0)) return NAN;
  const double leverage = 1 / nd + (trend ? (x0 - mx) * (x0 - mx) / sxx : 0);
  const double t = (first - my - slope * (x0 - mx)) / (sd * std::sqrt(1 + leverage));
  const double tail = stats::t_two_sided_p(t, df) / 2;
  return t > 0 ? tail : 1 - tail;
}

PlacementCentred centre_placements(const PairedRounds& r, int shifts) {
  PlacementCentred out{r.d, 0};
  if (shifts < 2 || r.d.empty()) return out;
  const auto k = static_cast<std::size_t>(shifts);
  std::vector<double> sum(k, 0.0);
  std::vector<int> count(k, 0);
  for (std::size_t i = 0; i < r.d.size(); ++i) {
    const auto slot = static_cast<std::size_t>(placement_slot(r.numbers[i], k));
    sum[slot] += r.d[i];
    ++count[slot];
  }
  // The mean over placements weighs each the same, also where a round of one is missing.
  double grand = 0;
  int present = 0;
  for (std::size_t s = 0; s < k; ++s)
    if (count[s] > 0) {
      grand += sum[s] / count[s];
      ++present;
    }
  grand /= present;
  for (std::size_t i = 0; i < r.d.size(); ++i) {
    const auto slot = static_cast<std::size_t>(placement_slot(r.numbers[i], k));
    out.d[i] = r.d[i] - sum[slot] / count[slot] + grand;
  }
  out.df_cost = std::max(0, present - 1);
  return out;
}

bool cold_start_shared(const std::vector<double>& cold_ps) {
  int tested = 0, above = 0;
  for (double p : cold_ps) {
    if (std::isnan(p)) continue;
    ++tested;
    if (p < 0.5) ++above;
  }
  if (tested < kMinFamilyForColdGate) return true;
  // P(X >= above) for X ~ Binomial(tested, 1/2), in logs (no overflow at 100,000 benchmarks).
  double tail = 0;
  for (int k = above; k <= tested; ++k) {
    tail += std::exp(std::lgamma(tested + 1.0) - std::lgamma(k + 1.0) -
                     std::lgamma(tested - k + 1.0) - tested * std::log(2.0));
    if (tail > kColdFamilyAlpha) return false;
  }
  return tail <= kColdFamilyAlpha;
}

PairedRounds pair_rounds(const BenchmarkSeries& series, const std::vector<AnalysedRound>& rounds,
                         bool cold_check) {
  PairedRounds out;
  std::vector<double> level;
  const double sign = series.better == Better::Lower ? 1.0 : -1.0;
  const auto paired = [&](const AnalysedRound& r) {
    return usable(at(series.base, r.round)) && usable(at(series.head, r.round));
  };
  // The last analysed round the benchmark ran in (a value on either side): its cycles up to the
  // one that ends there were run whole, whatever a round of them lost; a cycle it left (its last
  // look came first) or that is still running is not read.
  int last_run = 0;
  for (const AnalysedRound& r : rounds)
    if (usable(at(series.base, r.round)) || usable(at(series.head, r.round)))
      last_run = std::max(last_run, r.number);
  for (const AnalysedRound& r : rounds) {
    if (!paired(r)) continue;
    if (r.cycle >= 0 && (r.cycle + 1) * r.cycle_rounds > last_run) continue;
    const double b = at(series.base, r.round);
    const double h = at(series.head, r.round);
    out.d.push_back(sign * std::log(h / b));
    out.s.push_back(r.head_second ? 1 : -1);
    out.numbers.push_back(r.number);
    out.base.push_back(b);
    out.head.push_back(h);
    level.push_back((std::log(b) + std::log(h)) / 2);
  }
  // Only the first analysed round can be "cold": caches, frequency scaling and page faults
  // settle after it. Later outliers are left to the fit.
  if (out.d.size() >= static_cast<std::size_t>(kMinOthersForColdCheck + 1) &&
      out.numbers.front() == 1) {
    // Judged on the round's level only: its log ratio is the outcome being tested, and
    // dropping rounds for an extreme outcome would bias the test (docs/method.md). Cold is
    // worse: slower, or lower where higher is better.
    std::vector<double> xs, ys;
    for (std::size_t i = 1; i < level.size(); ++i) {
      xs.push_back(out.numbers[i]);
      ys.push_back(sign * level[i]);
    }
    const double p = cold_p(sign * level.front(), out.numbers.front(), xs, ys);
    out.cold_p = p;
    out.cold_first = cold_check && p < kColdP;
    if (out.cold_first && out.d.size() >= static_cast<std::size_t>(kMinRoundsAfterDrop + 1)) {
      out.dropped = out.numbers.front();
      out.d.erase(out.d.begin());
      out.s.erase(out.s.begin());
      out.numbers.erase(out.numbers.begin());
      out.base.erase(out.base.begin());
      out.head.erase(out.head.begin());
    }
  }
  return out;
}

}  // namespace benchpr
