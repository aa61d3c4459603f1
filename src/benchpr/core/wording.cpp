#include "benchpr/core/wording.hpp"

#include <cmath>

#include <fmt/format.h>

namespace benchpr {

namespace {
constexpr const char* kMinus = "\u2212";

std::string number(double abs_percent) {
  if (abs_percent != 0 && abs_percent < 1) {
    std::string s = fmt::format("{:.2g}", abs_percent);
    if (s.find('e') != std::string::npos) s = fmt::format("{:.2f}", abs_percent);
    return s;
  }
  return fmt::format("{:.1f}", abs_percent);
}
}  // namespace

std::string format_percent(double fraction) {
  if (std::isnan(fraction)) return "?";
  return number(std::fabs(fraction) * 100) + "%";
}

std::string format_signed_percent(double fraction) {
  if (std::isnan(fraction)) return "?";
  std::string digits = number(std::fabs(fraction) * 100);
  if (digits == "0.0" || digits == "0") return "0.0%";
  return (fraction < 0 ? kMinus : "+") + digits + "%";
}

std::string worse_word(Better better) { return better == Better::Lower ? "slower" : "lower"; }
std::string better_word(Better better) { return better == Better::Lower ? "faster" : "higher"; }

std::string describe_change(double change, Better better) {
  if (std::isnan(change)) return "?";
  const double ratio = 1 + change;
  const bool up = change > 0;
  // For time-like metrics "up" is worse; for throughput-like ones it is better.
  const std::string word =
      better == Better::Lower ? (up ? "slower" : "faster") : (up ? "higher" : "lower");
  if (ratio >= 2) return fmt::format("{:.1f}\u00d7 {}", ratio, word);
  if (ratio > 0 && ratio <= 0.5) return fmt::format("{:.1f}\u00d7 {}", 1 / ratio, word);
  return format_percent(change) + " " + word;
}

}  // namespace benchpr
