// Which values a benchmark can plausibly report, so that nonsense (1e-200 ns against 1e200 ns, a
// negative time, a value whose ratio to the other side overflows) fails the benchmark with the
// reason instead of giving a confident verdict. Pure; used by the analysis, so `publish` of a
// crafted results file is held to the same bounds as a run.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "benchpr/core/model/model.hpp"

namespace benchpr {

struct ValueRange {
  double low = 0;
  double high = 0;
};

// Times ("ns", "us", "ms", "s", also as "…/op"): 1 ps to about 11.6 days per operation. Any
// other unit (rates, bytes, counts, a custom suite's own): 1e-30 to 1e30.
ValueRange plausible_range(std::string_view unit);

// The largest factor between a benchmark's smallest and largest value, both sides and all rounds
// together, that is still one quantity measured twice (a change of a billion times is not).
inline constexpr double kMaxValueSpread = 1e9;

// Why the series' values cannot be compared (nothing when they can): a value that is not a
// positive finite number, one outside plausible_range(unit), or a spread beyond kMaxValueSpread.
std::optional<std::string> value_range_problem(const BenchmarkSeries& series);

// The median of a time series every one of whose values (on both sides, and at least one) is
// positive but below plausible_range(unit).low: a benchmark whose loop measures nothing at all
// (spdlog's `disabled-at-compile-time`, 6.4e-07 ns). Such a benchmark is too small to measure,
// not a failure of the comparison. Nothing for any other series.
std::optional<double> too_small_to_measure(const BenchmarkSeries& series);

}  // namespace benchpr
