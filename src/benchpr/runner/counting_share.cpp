#include "benchpr/runner/counting_share.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "benchpr/core/base/duration.hpp"
#include "benchpr/core/evidence/instruction_analysis.hpp"
#include "benchpr/runner/instrument_on_open.hpp"

namespace benchpr::runner {

double default_counting_share(double budget) {
  return std::max(kDefaultCountingLeast, kDefaultCountingShare * budget);
}

double start_up_bound(const StartUp& start_up, bool late) {
  const bool cpu_known = start_up.cpu > 0;
  const double cpu = cpu_known ? start_up.cpu : start_up.wall;
  const double rest = cpu_known ? std::max(0.0, start_up.wall - start_up.cpu) : 0.0;
  return late ? kUninstrumentedSlowdown * cpu + rest : 2 * (kLeastCallgrindSlowdown * cpu + rest);
}

CountingEstimate estimate_counting(const std::vector<SuiteStartUp>& suites, double spent) {
  CountingEstimate e;
  e.sides = e.all = std::max(0.0, spent);
  for (const SuiteStartUp& s : suites) {
    const double start_up = start_up_bound(s.start_up, s.late);
    // The base's processes; the PR's listing (about the base's) and processes.
    e.sides += start_up + s.start_up.wall + start_up;
    // And the base's processes again, which list nothing.
    e.all += start_up + s.start_up.wall + start_up + start_up;
  }
  return e;
}

namespace {

// "3m45s of the 15m budget (a quarter)".
std::string share_words(double share, double budget, const char* fraction) {
  return fmt::format("{} of the {} budget ({})", format_duration(share), format_duration(budget),
                     fraction);
}

// How the bound reads a start-up, for the log.
std::string bound_words() {
  return fmt::format(
      "each side's processes pay a suite's start-up: the CPU time of its listing at {}x "
      "instrumented (two processes one after the other) or {}x uninstrumented (two at once), "
      "the rest of the listing's wall time once",
      2 * kLeastCallgrindSlowdown, kUninstrumentedSlowdown);
}

}  // namespace

CountingShare counting_share(double budget, const CountingEstimate& estimate) {
  CountingShare out;
  const double usual = default_counting_share(budget);
  const double widest = kWidestCountingShare * budget;
  out.seconds = usual;
  const char* usual_fraction =
      usual > kDefaultCountingShare * budget ? "at least a minute" : "a quarter";
  const std::string split =
      "the base may take half of it, the PR what the base leaves, the base counted again what "
      "is left; the time rounds get the rest";
  if (estimate.all <= usual || widest <= usual) {
    out.sentence = fmt::format("counting instructions may take {}: {}",
                               share_words(usual, budget, usual_fraction), split);
    return out;
  }
  if (estimate.sides > widest) {
    out.sentence = fmt::format(
        "counting instructions may take {}: counting both sides would take about {} by the "
        "start-up bound ({}), more than half the budget; {}",
        share_words(usual, budget, usual_fraction), format_duration(estimate.sides), bound_words(),
        split);
    return out;
  }
  out.seconds = widest;
  out.widened = true;
  out.sentence = fmt::format(
      "counting instructions may take {}, not {}: counting both sides would take about {} by the "
      "start-up bound, {} with the base counted again ({}); {}",
      share_words(widest, budget, "half"), format_duration(usual), format_duration(estimate.sides),
      format_duration(estimate.all), bound_words(), split);
  return out;
}

bool recount_fits(double left, double start_up) {
  return left >= std::max(kLeastRecountSeconds, start_up);
}

bool recount_can_change_reading(const BenchmarkSeries& s, double threshold) {
  return analyse_instruction_series(s, threshold).verdict != Verdict::Inconclusive;
}

}  // namespace benchpr::runner
