#include "benchpr/core/paired_rounds.hpp"

#include <cmath>

#include "benchpr/core/stats.hpp"

namespace benchpr {

namespace {
constexpr double kColdZ = 4.0;
constexpr int kMinOthersForColdCheck = 3;
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
    out.push_back({p.index, ++number, p.head_second()});
  }
  return out;
}

double robust_z(double x, const std::vector<double>& others) {
  if (others.empty()) return 0;
  const double m = stats::median(others);
  const double spread = 1.4826 * stats::mad(others);
  if (!(spread > 0)) return 0;
  return (x - m) / spread;
}

PairedRounds pair_rounds(const BenchmarkSeries& series, const std::vector<AnalysedRound>& rounds) {
  PairedRounds out;
  std::vector<double> level;
  const double sign = series.better == Better::Lower ? 1.0 : -1.0;
  for (const AnalysedRound& r : rounds) {
    const double b = at(series.base, r.round);
    const double h = at(series.head, r.round);
    if (!usable(b) || !usable(h)) continue;
    out.d.push_back(sign * std::log(h / b));
    out.s.push_back(r.head_second ? 1 : -1);
    out.numbers.push_back(r.number);
    out.base.push_back(b);
    out.head.push_back(h);
    level.push_back((std::log(b) + std::log(h)) / 2);
  }
  // Only the first analysed round can be "cold": caches, frequency scaling and page faults
  // settle after it. Later outliers are left to the fit and the leave-one-out check.
  if (out.d.size() >= static_cast<std::size_t>(kMinOthersForColdCheck + 1) &&
      out.numbers.front() == 1) {
    std::vector<double> other_levels(level.begin() + 1, level.end());
    // Judged on the round's level only: its log ratio is the outcome being tested, and
    // dropping rounds for an extreme outcome would bias the test (docs/method.md).
    out.cold_first = std::fabs(robust_z(level.front(), other_levels)) > kColdZ;
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
