#include "benchpr/core/verdicts/disturbed_runs.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <utility>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "benchpr/core/notes/measurement_notes.hpp"
#include "benchpr/core/stats/mode_fit.hpp"
#include "benchpr/core/stats/paired_rounds.hpp"
#include "benchpr/core/stats/stats.hpp"
#include "benchpr/core/wording/sentence.hpp"
#include "benchpr/core/wording/wording.hpp"

namespace benchpr {
namespace {

// A side's values of one series over the analysed rounds, as logs signed so that + is worse.
std::vector<std::pair<std::size_t, double>> side_logs(const std::vector<double>& values,
                                                      const std::vector<AnalysedRound>& rounds,
                                                      Better better) {
  std::vector<std::pair<std::size_t, double>> out;
  for (const AnalysedRound& r : rounds) {
    const auto i = static_cast<std::size_t>(r.round);
    if (i >= values.size() || is_missing(values[i]) || !(values[i] > 0)) continue;
    const double l = std::log(values[i]);
    out.emplace_back(i, better == Better::Lower ? l : -l);
  }
  return out;
}

struct RunKey {
  std::size_t round;
  Side side;
  auto operator<=>(const RunKey&) const = default;
};

// What the note says of one side's excess of disturbed processes.
std::string uneven_words(const DisturbedRuns::Uneven& u) {
  const bool pr = u.head > u.base;
  std::string out = fmt::format(
      "More were found on the {} side ({} against {}, Fisher p {:.2f}), which may be that "
      "revision's doing: ",
      pr ? "PR's" : "base's", pr ? u.head : u.base, pr ? u.base : u.head, u.p);
  if (u.kept > 0)
    return out + fmt::format("{} of them stay{} in the comparison, where {} show{}.", u.kept,
                             u.kept == 1 ? "s" : "", u.kept == 1 ? "it" : "they",
                             u.kept == 1 ? "s" : "");
  return out + fmt::format("leaving them out hides about {} of a typical benchmark's mean time.",
                           format_percent(std::expm1(u.hidden)));
}

}  // namespace

DisturbedRuns disturbed_runs(const Results& results, int read, double hidden_share) {
  DisturbedRuns out;
  std::vector<AnalysedRound> rounds = analysed_rounds(results);
  if (read >= 0 && static_cast<std::size_t>(read) < rounds.size())
    rounds.resize(static_cast<std::size_t>(read));
  if (static_cast<int>(rounds.size()) < kDisturbedMinRounds) return out;
  std::map<std::size_t, int> number_of;
  for (const AnalysedRound& r : rounds) number_of[static_cast<std::size_t>(r.round)] = r.number;

  std::set<std::string> suites;
  for (const BenchmarkSeries& s : results.series) suites.insert(s.suite);
  for (const std::string& suite : suites) {
    // Each run's distances above its side's median, one per benchmark it ran.
    std::map<RunKey, std::vector<double>> distances;
    for (const BenchmarkSeries& s : results.series) {
      if (s.suite != suite) continue;
      for (const Side side : {Side::Base, Side::Head}) {
        const auto logs = side_logs(side == Side::Base ? s.base : s.head, rounds, s.better);
        if (logs.size() < 3) continue;
        std::vector<double> values;
        for (const auto& [i, l] : logs) values.push_back(l);
        const double median = stats::median(values);
        for (const auto& [i, l] : logs) distances[{i, side}].push_back(l - median);
      }
    }
    std::vector<std::pair<RunKey, double>> shifts;
    for (auto& [key, d] : distances)
      if (static_cast<int>(d.size()) >= kDisturbedMinBenchmarks)
        shifts.emplace_back(key, stats::median(d));
    if (static_cast<int>(shifts.size()) < 2 * kDisturbedMinRounds) continue;
    std::vector<double> all;
    for (const auto& [key, shift] : shifts) all.push_back(shift);
    const double center = stats::median(all);
    std::vector<double> deviations;
    for (double x : all) deviations.push_back(std::fabs(x - center));
    const double robust_sd = 1.4826 * stats::median(deviations);
    const double bar = center + std::max(kDisturbedFloor, kDisturbedRobustSds * robust_sd);

    std::vector<DisturbedRun> found;
    int base = 0, head = 0, base_runs = 0, head_runs = 0;
    std::set<std::size_t> found_rounds;
    for (const auto& [key, shift] : shifts) {
      (key.side == Side::Base ? base_runs : head_runs)++;
      if (shift <= bar) continue;
      (key.side == Side::Base ? base : head)++;
      found_rounds.insert(key.round);
      found.push_back({suite, static_cast<int>(key.round), number_of[key.round], key.side, shift});
    }
    if (found.empty()) continue;
    // Disturbances come and go: many rounds of them are the machine's normal state (then
    // leaving them out would cost more than it brings), and many more on one side may be the
    // PR's doing.
    if (4 * found_rounds.size() > rounds.size()) continue;
    const double p = stats::fisher_exact_p(base, base_runs, head, head_runs);
    if (p <= 0.05) {
      out.kept.push_back({suite, base, head});
      continue;
    }
    if (base == head || hidden_share < 0) {
      out.runs.insert(out.runs.end(), found.begin(), found.end());
      continue;
    }
    // The lighter side's all go; the heavier side's, largest first, as many as the lighter side
    // has, and more only while the excess left out hides at most hidden_share of the threshold
    // (a smaller one may still fit where a larger one did not).
    const Side heavier = head > base ? Side::Head : Side::Base;
    std::vector<DisturbedRun> heavy;
    double light_sum = 0;
    for (const DisturbedRun& r : found) {
      if (r.side == heavier) {
        heavy.push_back(r);
      } else {
        light_sum += r.shift;
        out.runs.push_back(r);
      }
    }
    std::sort(heavy.begin(), heavy.end(),
              [](const DisturbedRun& a, const DisturbedRun& b) { return a.shift > b.shift; });
    const int paired = std::min(base, head);
    const double allowed = hidden_share * std::log1p(results.config.threshold);
    const auto n = static_cast<double>(rounds.size());
    double heavy_sum = 0;
    int taken = 0;
    for (const DisturbedRun& r : heavy) {
      if (taken >= paired && (heavy_sum + r.shift - light_sum) / n > allowed) continue;
      heavy_sum += r.shift;
      ++taken;
      out.runs.push_back(r);
    }
    out.uneven.push_back({suite, base, head, p, static_cast<int>(heavy.size()) - taken,
                          std::max(0.0, (heavy_sum - light_sum) / n)});
  }
  return out;
}

Results without_disturbed_runs(const Results& results, const DisturbedRuns& disturbed) {
  if (disturbed.runs.empty()) return results;
  Results out = results;
  for (BenchmarkSeries& s : out.series) {
    for (const DisturbedRun& r : disturbed.runs) {
      if (r.suite != s.suite) continue;
      const auto i = static_cast<std::size_t>(r.round);
      if (i < s.base.size()) s.base[i] = kMissing;
      if (i < s.head.size()) s.head[i] = kMissing;
    }
  }
  return out;
}

std::vector<Note> disturbed_notes(const DisturbedRuns& disturbed) {
  std::vector<Note> notes;
  std::map<std::string, std::vector<const DisturbedRun*>> by_suite;
  for (const DisturbedRun& r : disturbed.runs) by_suite[r.suite].push_back(&r);
  for (const auto& [suite, runs] : by_suite) {
    std::vector<int> base, head;
    double least = runs.front()->shift, most = least;
    for (const DisturbedRun* r : runs) {
      (r->side == Side::Base ? base : head).push_back(r->number);
      least = std::min(least, r->shift);
      most = std::max(most, r->shift);
    }
    // In round order, whatever order they were chosen in.
    std::sort(base.begin(), base.end());
    std::sort(head.begin(), head.end());
    std::vector<std::string> where;
    if (!base.empty()) where.push_back("the base's in " + round_ranges(base));
    if (!head.empty()) where.push_back("the PR's in " + round_ranges(head));
    Sentence text;
    text.text("Suite ").code(suite).text(fmt::format(
        ": {} process{} ran as a whole {}{} slower than the others of {} side ({}): a "
        "disturbance of the machine, not of either revision's code, so {} left out of its "
        "comparisons.",
        runs.size(), runs.size() == 1 ? "" : "es",
        least == most ? "" : format_percent(std::expm1(least)) + "–",
        format_percent(std::expm1(most)), runs.size() == 1 ? "its" : "their",
        fmt::join(where, ", "), runs.size() == 1 ? "that round is" : "those rounds are"));
    for (const DisturbedRuns::Uneven& u : disturbed.uneven)
      if (u.suite == suite) text.text(" " + uneven_words(u));
    notes.emplace_back(NoteKind::DisturbedRuns, std::move(text).take());
  }
  // A suite whose disturbed processes were all one side's excess, all kept.
  for (const DisturbedRuns::Uneven& u : disturbed.uneven) {
    if (by_suite.count(u.suite)) continue;
    Sentence text;
    text.text("Suite ").code(u.suite).text(fmt::format(
        ": {} base and {} PR processes ran as a whole far slower than the others of their side. ",
        u.base, u.head));
    text.text(uneven_words(u));
    notes.emplace_back(NoteKind::DisturbedRuns, std::move(text).take());
  }
  for (const DisturbedRuns::Kept& k : disturbed.kept) {
    Sentence text;
    text.text("Suite ").code(k.suite).text(fmt::format(
        ": {} base and {} PR processes ran as a whole far slower than the others of their "
        "side. Far more on one side may be the PR's doing: their rounds are kept.",
        k.base, k.head));
    notes.emplace_back(NoteKind::DisturbedRuns, std::move(text).take());
  }
  return notes;
}

std::vector<Note> kept_disturbance_notes(const DisturbedRuns& found, int rounds) {
  std::map<std::string, std::pair<int, int>> counts;  // suite -> (base, PR) processes found
  std::map<std::string, std::pair<double, double>> range;
  for (const DisturbedRun& r : found.runs) {
    auto& [base, head] = counts[r.suite];
    (r.side == Side::Base ? base : head)++;
    auto [it, inserted] = range.try_emplace(r.suite, r.shift, r.shift);
    it->second.first = std::min(it->second.first, r.shift);
    it->second.second = std::max(it->second.second, r.shift);
  }
  for (const DisturbedRuns::Kept& k : found.kept) counts[k.suite] = {k.base, k.head};
  std::vector<Note> notes;
  for (const auto& [suite, c] : counts) {
    const auto [base, head] = c;
    const double p = stats::fisher_exact_p(base, rounds, head, rounds);
    Sentence text;
    text.text("Suite ").code(suite).text(
        fmt::format(": {} base and {} PR process{} ran every benchmark as a whole", base, head,
                    base + head == 1 ? "" : "es"));
    if (const auto it = range.find(suite); it != range.end()) {
      const auto [least, most] = it->second;
      text.text(fmt::format(" {}{}", least == most ? "" : format_percent(std::expm1(least)) + "–",
                            format_percent(std::expm1(most))));
    } else {
      text.text(" far");
    }
    text.text(
        " slower than the others of their side. They are kept in the comparison: a machine's "
        "disturbance and a cost the revision's own code pays in some processes look alike, and "
        "the mean time counts both.");
    if (head > base && p <= 0.05) {
      text.text(fmt::format(
          " Far more are the PR's (Fisher p {:.3f}): its code may be what slows them.", p));
    } else if (base > head && p <= 0.05) {
      text.text(fmt::format(
          " Far more are the base's (Fisher p {:.3f}): the base's code may be what slows them.",
          p));
    }
    notes.emplace_back(NoteKind::DisturbedRuns, std::move(text).take());
  }
  return notes;
}

}  // namespace benchpr
