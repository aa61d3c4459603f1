#include "benchpr/core/stats/value_range.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "benchpr/core/base/duration.hpp"

namespace benchpr {

namespace {

// Nanoseconds per unit of time ("ms/op" too), or 0 when `unit` is not a time.
double nanoseconds_per_op(std::string_view unit) {
  if (unit.ends_with("/op")) unit.remove_suffix(3);
  return nanoseconds_per(unit).value_or(0);
}

constexpr double kMinNanoseconds = 1e-3;  // 1 ps
constexpr double kMaxNanoseconds = 1e15;  // about 11.6 days
constexpr double kMinOther = 1e-30;
constexpr double kMaxOther = 1e30;

// The first value of `values` that is not plausible, described; nothing when all are.
std::optional<std::string> first_problem(const std::vector<double>& values, const ValueRange& range,
                                         std::string_view unit, std::string_view side) {
  for (double v : values) {
    if (std::isnan(v)) continue;  // kMissing: no value that round
    if (std::isinf(v) || v <= 0)
      return fmt::format("{} value {:g} {} is not a positive number", side, v, unit);
    if (v < range.low || v > range.high)
      return fmt::format("{} value {:g} {} is outside the plausible range ({:g} to {:g} {})", side,
                         v, unit, range.low, range.high, unit);
  }
  return std::nullopt;
}

}  // namespace

ValueRange plausible_range(std::string_view unit) {
  if (const double ns = nanoseconds_per_op(unit); ns > 0)
    return {kMinNanoseconds / ns, kMaxNanoseconds / ns};
  return {kMinOther, kMaxOther};
}

std::optional<std::string> value_range_problem(const BenchmarkSeries& series) {
  const ValueRange range = plausible_range(series.unit);
  if (auto problem = first_problem(series.base, range, series.unit, "base")) return problem;
  if (auto problem = first_problem(series.head, range, series.unit, "PR")) return problem;

  double low = INFINITY, high = 0;
  for (const std::vector<double>* values : {&series.base, &series.head}) {
    for (double v : *values) {
      if (std::isnan(v)) continue;
      low = std::min(low, v);
      high = std::max(high, v);
    }
  }
  if (high > 0 && high / low > kMaxValueSpread)
    return fmt::format(
        "values span a factor of {:.3g} ({:g} to {:g} {}), more than {:g}: not one quantity "
        "measured twice",
        high / low, low, high, series.unit, kMaxValueSpread);
  return std::nullopt;
}

std::optional<double> too_small_to_measure(const BenchmarkSeries& series) {
  if (nanoseconds_per_op(series.unit) <= 0 || !series.base_failure.empty() ||
      !series.head_failure.empty())
    return std::nullopt;
  const double low = plausible_range(series.unit).low;
  std::vector<double> values;
  for (const std::vector<double>* side : {&series.base, &series.head}) {
    for (double v : *side) {
      if (std::isnan(v)) continue;
      if (!(v > 0 && v < low)) return std::nullopt;
      values.push_back(v);
    }
  }
  if (values.empty()) return std::nullopt;
  std::sort(values.begin(), values.end());
  return values[values.size() / 2];
}

}  // namespace benchpr
