#include "benchpr/render/units.hpp"

#include <array>
#include <cmath>
#include <utility>

#include <fmt/format.h>

#include "benchpr/core/base/duration.hpp"
#include "benchpr/core/wording/wording.hpp"
#include "benchpr/render/escape.hpp"

namespace benchpr::render {

namespace {

constexpr const char* kDash = "—";

struct Scale {
  double factor;
  std::string_view prefix;
};

// Decimals that give three significant digits for |v| once rounded (so 999.7 counts as 1000).
int decimals_for(double v) {
  const double a = std::fabs(v);
  if (a == 0) return 2;
  int exponent = static_cast<int>(std::floor(std::log10(a)));
  int decimals = std::max(0, 2 - exponent);
  const double rounded = std::round(a * std::pow(10.0, decimals)) / std::pow(10.0, decimals);
  if (rounded >= std::pow(10.0, exponent + 1)) decimals = std::max(0, 2 - (exponent + 1));
  return decimals;
}

// Largest scale whose value shows as >= 1 once rounded; the value in that scale.
template <std::size_t N>
std::pair<double, std::string_view> pick_scale(double value, const std::array<Scale, N>& scales) {
  std::size_t chosen = 0;
  for (std::size_t i = 0; i < N; ++i) {
    const double x = std::fabs(value) / scales[i].factor;
    const int d = decimals_for(x);
    const double shown = std::round(x * std::pow(10.0, d)) / std::pow(10.0, d);
    if (shown >= 1) chosen = i;
  }
  return {value / scales[chosen].factor, scales[chosen].prefix};
}

constexpr std::array<Scale, 4> kTimeScales{{{1, "ns"}, {1e3, "µs"}, {1e6, "ms"}, {1e9, "s"}}};
constexpr std::array<Scale, 5> kDecimalScales{
    {{1, ""}, {1e3, "k"}, {1e6, "M"}, {1e9, "G"}, {1e12, "T"}}};

}  // namespace

std::string three_significant(double value) {
  if (std::isnan(value)) return kDash;
  if (std::isinf(value)) return value > 0 ? "∞" : "−∞";
  std::string s = fmt::format("{:.{}f}", std::fabs(value), decimals_for(value));
  return (value < 0 ? "\u2212" : "") + s;
}

std::string format_value(double value, std::string_view unit, UnitText text) {
  if (std::isnan(value)) return kDash;
  // The unit comes from the results file (a custom suite's "unit", JMH's "scoreUnit"): in
  // markdown it is escaped like a name, or it could carry HTML, a heading or a @mention.
  const auto shown = [text](std::string_view u) {
    return text == UnitText::Markdown ? escape_inline(u, kUnitMaxChars) : std::string(u);
  };
  const std::size_t slash = unit.find('/');
  const std::string_view head = unit.substr(0, slash);
  const std::string_view suffix = slash == std::string_view::npos ? "" : unit.substr(slash);
  if (const double ns = nanoseconds_per(head).value_or(0); ns > 0) {
    const auto [scaled, name] = pick_scale(value * ns, kTimeScales);
    return fmt::format("{} {}{}", three_significant(scaled), name, shown(suffix));
  }
  if (unit == "B/s" || unit == "bytes/s" || unit == "bytes_per_second") {
    const auto [scaled, prefix] = pick_scale(value, kDecimalScales);
    return fmt::format("{} {}B/s", three_significant(scaled), prefix);
  }
  if (unit == "items/s" || unit == "items_per_second") {
    const auto [scaled, prefix] = pick_scale(value, kDecimalScales);
    return fmt::format("{} {}/s", three_significant(scaled), prefix);
  }
  if (unit.empty()) return three_significant(value);
  return fmt::format("{} {}", three_significant(value), shown(unit));
}

std::string format_ratio(double ratio) {
  if (std::isnan(ratio)) return kDash;
  return ratio < 9.95 ? fmt::format("{:.1f}×", ratio) : fmt::format("{:.0f}×", ratio);
}

std::string format_change(double change, Better better) {
  if (std::isnan(change)) return kDash;
  const double ratio = 1 + change;
  if (ratio >= 2) return format_ratio(ratio) + (better == Better::Lower ? " slower" : " higher");
  if (ratio > 0 && ratio <= 0.5)
    return format_ratio(1 / ratio) + (better == Better::Lower ? " faster" : " lower");
  return format_signed_percent(change);
}

std::string format_ci(double low, double high) {
  if (std::isnan(low) || std::isnan(high)) return kDash;
  return format_interval(low, high);
}

}  // namespace benchpr::render
