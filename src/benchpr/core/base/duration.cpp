#include "benchpr/core/base/duration.hpp"

#include <array>
#include <cmath>
#include <utility>

#include <fmt/format.h>

namespace benchpr {

std::string format_duration(double seconds) {
  if (!(seconds >= 0)) return "?";
  if (seconds < 1) return fmt::format("{}ms", static_cast<long>(std::lround(seconds * 1000)));
  if (seconds < 10 && std::fabs(seconds - std::round(seconds)) > 0.05) {
    return fmt::format("{:.1f}s", seconds);
  }
  long total = std::lround(seconds);
  long h = total / 3600, m = (total % 3600) / 60, s = total % 60;
  std::string out;
  if (h) out += fmt::format("{}h", h);
  if (m) out += fmt::format("{}m", m);
  if (s || out.empty()) out += fmt::format("{}s", s);
  return out;
}

std::optional<double> nanoseconds_per(std::string_view unit) {
  static constexpr std::array<std::pair<std::string_view, double>, 7> kTimes = {{
      {"ns", 1.0},
      {"us", 1e3},
      {"\xC2\xB5s", 1e3},  // µs, U+00B5 MICRO SIGN
      {"\xCE\xBCs", 1e3},  // μs, U+03BC GREEK SMALL LETTER MU
      {"ms", 1e6},
      {"s", 1e9},
      {"sec", 1e9},
  }};
  for (const auto& [name, factor] : kTimes) {
    if (unit == name) return factor;
  }
  return std::nullopt;
}

}  // namespace benchpr
