#include "benchpr/core/evidence/cycle_estimate.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "benchpr/core/evidence/instruction_analysis.hpp"
#include "benchpr/core/wording/sentence.hpp"
#include "benchpr/core/wording/wording.hpp"

namespace benchpr {

namespace {

// The event's value at `index`, 0 for an event the dump does not hold (the branch events
// without branch simulation), kMissing for one it holds without a usable value.
double event_at(const EventCounts& events, const std::string& name, std::size_t index) {
  const auto it = events.find(name);
  if (it == events.end()) return 0;
  return index < it->second.size() && std::isfinite(it->second[index]) ? it->second[index]
                                                                       : kMissing;
}

bool holds_cache_events(const EventCounts& events) {
  return std::all_of(std::begin(kCacheMissEvents), std::end(kCacheMissEvents),
                     [&](const char* e) { return events.count(e) > 0; });
}

double value_at(const std::vector<double>& v, std::size_t index) {
  return index < v.size() && std::isfinite(v[index]) && v[index] > 0 ? v[index] : kMissing;
}

// "4,800", "12.5", "0.50": a count per iteration (never below zero), as the comment writes counts.
std::string count_words(double v) {
  const double a = std::max(0.0, v);
  if (a >= 100) {
    const std::string digits = fmt::format("{:.0f}", a);
    std::string out;
    for (std::size_t i = 0; i < digits.size(); ++i) {
      if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
      out += digits[i];
    }
    return out;
  }
  return a >= 1 ? fmt::format("{:.1f}", a) : fmt::format("{:.2f}", a);
}

// The misses the comment names, each with its weight in the formula.
struct MissGroup {
  const char* words;
  std::vector<const char*> events;
  double weight;
};

const std::vector<MissGroup>& miss_groups() {
  static const std::vector<MissGroup> groups = {
      {"D1 misses", {"D1mr", "D1mw"}, kL1MissCycles},
      {"LL misses", {"ILmr", "DLmr", "DLmw"}, kLastLevelMissCycles},
      {"I1 misses", {"I1mr"}, kL1MissCycles},
      {"branch mispredictions", {"Bcm", "Bim"}, kBranchMissCycles},
  };
  return groups;
}

// Misses per iteration are the difference of two runs at different iteration counts, so the
// fixed costs cancel; a few misses more in the shorter run (its cache warmed otherwise) leave a
// difference a little below zero. No iteration misses less than never: such a sum reads as none.
double at_least_none(double misses) {
  return std::isfinite(misses) ? std::max(0.0, misses) : misses;
}

double group_sum(const EventCounts& events, const MissGroup& g, std::size_t index) {
  double sum = 0;
  for (const char* e : g.events) sum += event_at(events, e, index);
  return at_least_none(sum);
}

}  // namespace

double estimated_cycles(double instructions, const EventCounts& events, std::size_t index) {
  if (!std::isfinite(instructions) || !(instructions > 0) || !holds_cache_events(events))
    return kMissing;
  double cycles = instructions;
  for (const MissGroup& g : miss_groups()) cycles += g.weight * group_sum(events, g, index);
  return std::isfinite(cycles) ? cycles : kMissing;
}

double series_cycles(const BenchmarkSeries& s, Side side, std::size_t index) {
  const std::vector<double>& counts = side == Side::Base ? s.base : s.head;
  return estimated_cycles(value_at(counts, index),
                          side == Side::Base ? s.base_events : s.head_events, index);
}

void estimate_cycles(const BenchmarkSeries& s, double threshold, BenchmarkAnalysis& a) {
  a.cycles_base = series_cycles(s, Side::Base);
  a.cycles_head = series_cycles(s, Side::Head);
  a.cycles_moved = false;
  if (is_missing(a.cycles_base) || is_missing(a.cycles_head)) return;
  const double change = a.cycles_head / a.cycles_base - 1;
  // A side whose estimate from one repetition alone differs from its estimate: the loop's cache
  // behaviour is not the same at every run, and only a change clear of that difference counts.
  double spread = 0;
  for (Side side : {Side::Base, Side::Head}) {
    const double check = series_cycles(s, side, 1);
    const double count = side == Side::Base ? a.cycles_base : a.cycles_head;
    if (!is_missing(check)) spread = std::max(spread, std::fabs(check / count - 1));
  }
  // Rounded to what is shown (0.01%), as the count's own verdict is.
  const double shown = std::round(std::fabs(change) * 1e4) / 1e4;
  a.cycles_moved = shown - 2 * spread >= threshold - 1e-12;
}

std::string miss_changes(const BenchmarkSeries& s) {
  struct Changed {
    std::string text;
    double cycles;  // the change's weight in the estimate
  };
  std::vector<Changed> changed;
  for (const MissGroup& g : miss_groups()) {
    const double base = group_sum(s.base_events, g, 0), head = group_sum(s.head_events, g, 0);
    if (!std::isfinite(base) || !std::isfinite(head)) continue;
    if (count_words(base) == count_words(head)) continue;
    changed.push_back({fmt::format("{} {} → {}", g.words, count_words(base), count_words(head)),
                       std::fabs(head - base) * g.weight});
  }
  std::stable_sort(changed.begin(), changed.end(),
                   [](const Changed& x, const Changed& y) { return x.cycles > y.cycles; });
  std::string out;
  for (std::size_t i = 0; i < changed.size() && i < 2; ++i)
    out += (i == 0 ? "" : ", ") + changed[i].text;
  return out.empty() ? out : out + " per iteration";
}

std::vector<Note> cycle_estimate_notes(const Results& results, const Analysis& analysis) {
  std::vector<Note> out;
  const double threshold = results.config.instruction_threshold;
  for (const BenchmarkAnalysis& a : analysis.benchmarks) {
    if (!is_instruction_analysis(a) || !a.cycles_moved || !std::isfinite(a.change)) continue;
    const double cycles = a.cycles_head / a.cycles_base - 1;
    // Nothing to add where the estimate moved with the count.
    if (std::fabs((1 + cycles) / (1 + a.change) - 1) < threshold) continue;
    const BenchmarkSeries* s = nullptr;
    for (const BenchmarkSeries& candidate : results.series)
      if (candidate.suite == a.suite && candidate.name == a.name) s = &candidate;
    const std::string misses = s != nullptr ? miss_changes(*s) : std::string();
    const std::string count =
        a.verdict == Verdict::Unchanged
            ? fmt::format("instructions per iteration unchanged ({}, exact count)",
                          format_signed_percent(a.change))
            : fmt::format("instructions per iteration {}", format_signed_percent(a.change));
    out.emplace_back(
        NoteKind::Other,
        std::move(Sentence().code(a.name).text(fmt::format(
                      ": {}, estimated cycles {} ({} → {} per iteration{}): its loop uses "
                      "the simulated caches differently. An estimate, not a verdict: time says "
                      "what it costs.",
                      count, format_signed_percent(cycles), count_words(a.cycles_base),
                      count_words(a.cycles_head), misses.empty() ? "" : "; " + misses)))
            .take());
  }
  return out;
}

std::string cycles_phrase(const BenchmarkAnalysis& a) {
  if (is_missing(a.cycles_base) || is_missing(a.cycles_head)) return "";
  return fmt::format("estimated cycles {} ({} → {})",
                     format_signed_percent(a.cycles_head / a.cycles_base - 1),
                     count_words(a.cycles_base), count_words(a.cycles_head));
}

bool has_cycle_estimates(const Results& results) {
  return std::any_of(results.series.begin(), results.series.end(), [](const BenchmarkSeries& s) {
    return is_instruction_series(s) && (!s.base_events.empty() || !s.head_events.empty());
  });
}

}  // namespace benchpr
