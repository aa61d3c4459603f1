#include "benchpr/core/wording/wording.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include <fmt/format.h>
#include <fmt/ranges.h>

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

bool reads_at_least(double change, double threshold) {
  if (std::isnan(change) || std::isnan(threshold)) return false;
  if (std::fabs(change) >= std::fabs(threshold)) return true;
  return std::stod(number(std::fabs(change) * 100)) >=
         std::stod(number(std::fabs(threshold) * 100));
}

double undecided_bound(const BenchmarkAnalysis& b) {
  if (!std::isfinite(b.ci_low) || !std::isfinite(b.ci_high)) return NAN;
  return std::max(std::fabs(b.ci_low), std::fabs(b.ci_high));
}

double worse_bound(const BenchmarkAnalysis& b) {
  if (!std::isfinite(b.eq_low) || !std::isfinite(b.eq_high)) return NAN;
  return b.better == Better::Lower ? b.eq_high : 1 / (1 + b.eq_low) - 1;
}

std::string format_level(double level) {
  if (std::isnan(level)) return "?";
  const double percent = 100 * level;
  const double rest = 100 - percent;
  if (!(rest < 0.5)) return fmt::format("{:.3g}%", percent);
  if (!(rest > 0)) return "100%";
  // Enough decimals to show the distance from 100%, cut (not rounded) so it never reads 100%.
  const int decimals = std::min(9, static_cast<int>(std::ceil(-std::log10(rest))));
  const double scale = std::pow(10.0, decimals);
  return fmt::format("{:.{}f}%", std::floor(percent * scale) / scale, decimals);
}

std::string no_change_beyond(const BenchmarkAnalysis& b) {
  const double bound = undecided_bound(b);
  if (!std::isfinite(bound)) return "";
  std::string text = "no change beyond ±" + format_percent(bound);
  // A 95% bound inside the threshold beside "inconclusive" would read as a contradiction: the
  // look tested "unchanged" on a wider interval (α spent over the looks), so say how wide.
  const double eq_bound = std::max(std::fabs(b.eq_low), std::fabs(b.eq_high));
  if (!reads_at_least(bound, b.threshold) && std::isfinite(eq_bound) && std::isfinite(b.eq_level) &&
      b.eq_level > 0.95 && reads_at_least(eq_bound, b.threshold))
    text += fmt::format(" at 95% (±{} at the {} that “unchanged” tests)", format_percent(eq_bound),
                        format_level(b.eq_level));
  return text;
}

std::string format_signed_percent(double fraction) {
  if (std::isnan(fraction)) return "?";
  std::string digits = number(std::fabs(fraction) * 100);
  if (digits == "0.0" || digits == "0") return "0.0%";
  return (fraction < 0 ? kMinus : "+") + digits + "%";
}

std::string format_interval(double low, double high) {
  if (std::isnan(low) || std::isnan(high)) return "?";
  // Ratios get the change column's digits (one decimal below 10x, none above), and more when
  // a narrow interval would otherwise read "3.2x ... 3.2x".
  auto ratios = [](double lo, double hi) {
    int decimals = lo >= 9.95 ? 0 : 1;
    auto text = [&decimals](double r) { return fmt::format("{:.{}f}\u00d7", r, decimals); };
    while (decimals < 3 && lo != hi && text(lo) == text(hi)) ++decimals;
    return text(lo) + " \u2026 " + text(hi);
  };
  if (1 + low >= 2) return ratios(1 + low, 1 + high);
  if (1 + high <= 0.5 && 1 + low > 0) return ratios(1 / (1 + high), 1 / (1 + low));
  std::string lo = format_signed_percent(low);
  if (!lo.empty() && lo.back() == '%') lo.pop_back();
  return lo + " \u2026 " + format_signed_percent(high);
}

std::string size_note(const BenchmarkAnalysis& b, std::size_t family) {
  if (b.verdict != Verdict::Slower && b.verdict != Verdict::Faster) return "";
  if (!reads_at_least(b.change, b.threshold))
    return fmt::format("below the {} threshold", format_percent(b.threshold));
  std::string text = fmt::format(
      "not shown beyond \u00b1{} (half the {} threshold){}", format_percent(b.threshold / 2),
      format_percent(b.threshold),
      family > 1 ? fmt::format(" after correcting for {} benchmarks", family) : std::string());
  if (b.rounds_needed && *b.rounds_needed > 0)
    text += fmt::format("; \u2248 {} rounds would settle it", *b.rounds_needed);
  return text;
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
  // Same rule as the tables: one decimal below 10x, whole numbers from there on.
  auto times = [&](double r) {
    return r >= 9.95 ? fmt::format("{:.0f}\u00d7 {}", r, word)
                     : fmt::format("{:.1f}\u00d7 {}", r, word);
  };
  if (ratio >= 2) return times(ratio);
  if (ratio > 0 && ratio <= 0.5) return times(1 / ratio);
  return format_percent(change) + " " + word;
}

std::string plural(std::size_t n, std::string_view one, std::string_view many) {
  return fmt::format("{} {}", n, n == 1 ? one : many);
}

std::string partial_results_notice(int rounds_ran, int rounds_planned, std::string_view why) {
  return fmt::format("Partial results: {} of {} rounds ran ({}).", rounds_ran, rounds_planned, why);
}

int planned_rounds(const Results& results) {
  int planned = 0;
  for (const RoundPlan& r : results.plan) planned += r.warmup ? 0 : 1;
  return planned == 0 ? results.config.rounds : planned;
}

std::string stopped_because(const Results& results) {
  return results.stop.empty() ? "stopped early" : describe(results.stop);
}

std::string placement_rotation_text(const std::vector<int>& shifts) {
  if (shifts.size() < 2) return "";
  return fmt::format("each side's code at {} placements in turn (relinked +{} bytes)",
                     shifts.size(), fmt::join(shifts, "/"));
}

}  // namespace benchpr
