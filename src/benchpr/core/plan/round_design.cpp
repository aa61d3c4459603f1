#include "benchpr/core/plan/round_design.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

#include <fmt/format.h>

#include "benchpr/core/base/duration.hpp"

namespace benchpr {

namespace {

bool known(double v) { return !is_missing(v) && std::isfinite(v) && v >= 0; }

bool usable(const BenchmarkNoise& n) { return known(n.within) && known(n.between); }

int even_down(int n) { return n - n % 2; }

struct Scored {
  RoundDesign design;
  bool feasible = false;
};

Scored score(const RoundDesignInput& in, double min_time, int repetitions) {
  Scored s;
  RoundDesign& d = s.design;
  d.min_time = min_time;
  d.repetitions = repetitions;
  d.round_seconds = round_seconds(in.suites, min_time, repetitions) +
                    std::max(0.0, in.overhead_seconds_per_round);
  const double affordable = d.round_seconds > 0 ? in.seconds_left / d.round_seconds : 0;
  d.rounds = even_down(static_cast<int>(std::min<double>(affordable, in.max_rounds)));
  s.feasible = d.rounds >= in.min_rounds;
  double log_sum = 0;
  int n = 0;
  for (const BenchmarkNoise& b : in.benchmarks) {
    if (!usable(b)) continue;
    log_sum += std::log(
        std::max(round_change_variance(b, min_time, repetitions, in.within_exponent), 1e-300));
    ++n;
  }
  d.variance = n > 0 && d.rounds > 0 ? std::exp(log_sum / n) / d.rounds : kMissing;
  return s;
}

std::string design_text(const RoundDesign& d) {
  return fmt::format("{:g}s × {}", d.min_time, d.repetitions);
}

}  // namespace

double value_variance_factor(int repetitions) {
  static constexpr double kSmall[] = {1.0, 0.5, 0.4487, 0.3433, 0.2868};
  if (repetitions <= 1) return 1.0;
  if (repetitions <= 5) return kSmall[repetitions - 1];
  return std::numbers::pi / (2.0 * repetitions);
}

double round_change_variance(const BenchmarkNoise& noise, double min_time, int repetitions,
                             double within_exponent) {
  const double within =
      noise.within * std::pow(kReferenceMinTime / std::max(min_time, 1e-6), within_exponent);
  return 2 * (noise.between + value_variance_factor(repetitions) * within);
}

RoundDesign choose_round_design(const RoundDesignInput& in) {
  const bool any_noise = std::any_of(in.benchmarks.begin(), in.benchmarks.end(), usable);
  const bool any_sized =
      std::any_of(in.suites.begin(), in.suites.end(), [](const SuiteCost& s) { return s.sized; });
  const Scored current = score(in, in.current.min_time, in.current.repetitions);
  if (!any_noise || !any_sized) return current.design;
  Scored best = current;
  for (double m : in.min_times) {
    for (int r : in.repetitions) {
      const Scored c = score(in, m, r);
      const bool better = c.feasible != best.feasible
                              ? c.feasible
                              : (c.feasible ? c.design.variance < best.design.variance
                                            : c.design.round_seconds < best.design.round_seconds);
      if (better) best = c;
    }
  }
  // A clear gain, or the current design cannot reach the next look.
  if (current.feasible && !(best.design.variance * kDesignSwitchGain < current.design.variance))
    return current.design;
  return best.design;
}

BenchmarkNoise estimate_noise(const BenchmarkSeries& series, const std::vector<RoundRan>& rounds,
                              double within, double within_exponent) {
  BenchmarkNoise out;
  out.within = known(within) ? within : kMissing;
  if (!known(within)) return out;
  out.between = kPriorBetweenOverWithin * within;
  std::vector<double> changes;
  double within_part = 0;
  for (const RoundRan& r : rounds) {
    const auto i = static_cast<std::size_t>(r.round);
    if (i >= series.base.size() || i >= series.head.size()) continue;
    const double b = series.base[i], h = series.head[i];
    if (is_missing(b) || is_missing(h) || !(b > 0) || !(h > 0)) continue;
    changes.push_back(std::log(h / b));
    within_part += 2 * value_variance_factor(r.repetitions) * within *
                   std::pow(kReferenceMinTime / std::max(r.min_time, 1e-6), within_exponent);
  }
  const auto n = changes.size();
  if (n < 3) return out;
  double mean = 0;
  for (double c : changes) mean += c;
  mean /= static_cast<double>(n);
  double ss = 0;
  for (double c : changes) ss += (c - mean) * (c - mean);
  const double per_round = ss / static_cast<double>(n - 1);
  out.between = std::max(0.0, (per_round - within_part / static_cast<double>(n)) / 2);
  return out;
}

SuiteCost for_benchmarks(const SuiteCost& measured, int benchmarks) {
  if (!measured.sized) return measured;
  SuiteCost out = measured;
  out.benchmarks = std::max(0, benchmarks);
  if (out.benchmarks == 0) {
    out.run_seconds = 0;
    out.cpu_seconds = 0;
    return out;
  }
  const double per_benchmark = std::max(1, measured.repetitions) * kMinTimeCost * measured.min_time;
  const double sized_before = measured.benchmarks * per_benchmark;
  const double sized_after = out.benchmarks * per_benchmark;
  if (measured.cpu_seconds > 0 && measured.cpu_seconds < measured.run_seconds) {
    const double share = measured.cpu_seconds / measured.run_seconds;
    out.cpu_seconds = std::max(0.0, measured.cpu_seconds - sized_before) + sized_after;
    out.run_seconds = out.cpu_seconds / share;
  } else {
    out.run_seconds = std::max(0.0, measured.run_seconds - sized_before) + sized_after;
  }
  return out;
}

std::string describe_design(const RoundDesign& chosen, const RoundDesign& current) {
  std::string text =
      fmt::format("--benchmark_min_time={:g}s, {} repetition{}, rounds of about {}",
                  chosen.min_time, chosen.repetitions, chosen.repetitions == 1 ? "" : "s",
                  format_duration(chosen.round_seconds));
  if (chosen.min_time == current.min_time && chosen.repetitions == current.repetitions) return text;
  // A switch that gains no precision is one the current design could not make: too few of its
  // rounds fit in what is left.
  if (known(chosen.variance) && known(current.variance) && chosen.variance > 0 &&
      current.variance > chosen.variance)
    text += fmt::format(" ({:.2g}× less variance within the budget than {})",
                        current.variance / chosen.variance, design_text(current));
  else
    text += fmt::format(" (too few rounds of {} fit in what is left of the budget)",
                        design_text(current));
  return text;
}

}  // namespace benchpr
