#include "benchpr/core/duration.hpp"

#include <cmath>

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

}  // namespace benchpr
