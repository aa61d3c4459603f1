// Numbers as people read them in the comment: auto-scaled values with three significant digits,
// changes as signed percentages (or ratios once they are large) and confidence intervals.
#pragma once

#include <string>
#include <string_view>

#include "benchpr/core/model/model.hpp"

namespace benchpr::render {

// Three significant digits, trailing zeros kept so every value shows its precision
// (1.2 -> "1.20", 812.4 -> "812", 0.5 -> "0.500"); integer digits are never dropped
// (12345 -> "12345"). NaN -> "—".
std::string three_significant(double value);

// A measured value with its unit, auto-scaled:
//  - times ("ns", "us", "µs", "ms", "s", also with a suffix such as "ns/op") scale to
//    ns / µs / ms / s: 812 ns, 45.1 µs, 1.63 ms, 2.00 s (suffix kept: "45.1 µs/op");
//  - bytes per second ("B/s", "bytes/s") use decimal SI prefixes: 1.23 GB/s;
//  - items per second ("items/s") use k / M / G / T: 3.40 M/s;
//  - any other unit is printed as given after three significant digits: 48.5 ops/ms.
// NaN -> "—".
// Plain for HTML and the terminal (the caller escapes the whole value), Markdown for the comment:
// a unit that needs escaping is escaped (escape_inline, at most kUnitMaxChars characters) and
// then printed as given.
enum class UnitText { Plain, Markdown };
inline constexpr std::size_t kUnitMaxChars = 32;
std::string format_value(double value, std::string_view unit, UnitText text = UnitText::Plain);

// head/base - 1 as shown in the change column: "+7.5%", "−3.1%" (U+2212) while the ratio is
// between 0.5 and 2; beyond that the ratio in the direction that matters: "3.2× faster" /
// "2.1× slower" for time-like metrics, "3.2× higher" / "3.2× lower" for higher-is-better ones.
// NaN -> "—".
std::string format_change(double change, Better better);

// A confidence interval of a change: "+4.1 … +10.8%". NaN in either end -> "—".
std::string format_ci(double low, double high);

// A ratio >= 1 as "3.2×" (one decimal below 10, none from 10 on: "31×", "308×").
std::string format_ratio(double ratio);

}  // namespace benchpr::render
