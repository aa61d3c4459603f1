// The value syntaxes of .benchpr.yml that YAML does not know: durations and percentages.
#include <charconv>
#include <cmath>
#include <optional>
#include <string_view>

#include "benchpr/config/config_parser.hpp"
#include "benchpr/core/base/text.hpp"

namespace benchpr::config {
namespace {

// A plain non-negative decimal number at the start of `s` ("90", "1.5", ".5"); consumed from `s`.
// from_chars alone would also take "inf", "nan" and exponents, none of which a person writes
// for a timeout.
std::optional<double> take_number(std::string_view& s) {
  std::size_t n = 0;
  bool digits = false;
  bool dot = false;
  while (n < s.size()) {
    const char c = s[n];
    if (c >= '0' && c <= '9') {
      digits = true;
    } else if (c == '.' && !dot) {
      dot = true;
    } else {
      break;
    }
    ++n;
  }
  if (!digits) return std::nullopt;
  double value = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + n, value);
  if (ec != std::errc() || end != s.data() + n || !std::isfinite(value)) return std::nullopt;
  s.remove_prefix(n);
  return value;
}

}  // namespace

std::optional<double> parse_duration(std::string_view text) {
  std::string_view s = trim(text);
  if (s.empty()) return std::nullopt;
  {
    std::string_view bare = s;
    if (const auto seconds = take_number(bare); seconds && bare.empty()) return seconds;
  }
  // Components in decreasing order, each unit at most once: "1h30m", "2m 30s", "250ms".
  struct Unit {
    std::string_view suffix;
    double seconds;
  };
  static constexpr Unit kUnits[] = {{"h", 3600}, {"ms", 0.001}, {"m", 60}, {"s", 1}};
  static constexpr int kRank[] = {0, 3, 1, 2};  // position of each unit in h > m > s > ms
  int last_rank = -1;
  double total = 0;
  while (!s.empty()) {
    const auto number = take_number(s);
    if (!number) return std::nullopt;
    int matched = -1;
    for (int u = 0; u < 4; ++u) {
      if (s.starts_with(kUnits[u].suffix)) {
        matched = u;
        break;
      }
    }
    if (matched < 0 || kRank[matched] <= last_rank) return std::nullopt;
    last_rank = kRank[matched];
    s.remove_prefix(kUnits[matched].suffix.size());
    total += *number * kUnits[matched].seconds;
    s = trim(s);
  }
  return total;
}

std::optional<double> parse_percentage(std::string_view text) {
  std::string_view s = trim(text);
  if (!s.ends_with('%')) return std::nullopt;
  s = trim(s.substr(0, s.size() - 1));
  const auto number = take_number(s);
  if (!number || !s.empty()) return std::nullopt;
  return *number / 100;
}

}  // namespace benchpr::config
