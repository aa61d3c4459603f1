#include "benchpr/core/evidence/instruction_analysis.hpp"

#include <algorithm>

#include <cmath>
#include <tuple>

#include <fmt/format.h>

#include "benchpr/core/evidence/cycle_estimate.hpp"
#include "benchpr/core/wording/sentence.hpp"

#include "benchpr/core/wording/wording.hpp"

namespace benchpr {

namespace {

constexpr const char* kSuffix = " (instructions)";

double first_value(const std::vector<double>& v) {
  return !v.empty() && std::isfinite(v.front()) && v.front() > 0 ? v.front() : kMissing;
}

std::string count_text(double v) {
  return v >= 100 ? fmt::format("{:.0f}", v) : fmt::format("{:.2f}", v);
}

// The check count at index 1, when there is one.
double check_value(const std::vector<double>& v) {
  return v.size() > 1 && std::isfinite(v[1]) && v[1] > 0 ? v[1] : kMissing;
}

// The base's count made again after the PR's (runner: a count that moved is counted again), or
// missing.
double again_value(const std::vector<double>& v) {
  return v.size() > 2 && std::isfinite(v[2]) && v[2] > 0 ? v[2] : kMissing;
}

bool time_significant(Verdict v) {
  return v == Verdict::Regression || v == Verdict::Slower || v == Verdict::Improvement ||
         v == Verdict::Faster;
}

}  // namespace

std::string instruction_suite_name(const std::string& suite) { return suite + kSuffix; }

bool is_instruction_series(const BenchmarkSeries& s) { return s.metric == kInstructionsMetric; }

bool is_instruction_analysis(const BenchmarkAnalysis& b) { return b.metric == kInstructionsMetric; }

BenchmarkAnalysis analyse_instruction_series(const BenchmarkSeries& s, double threshold) {
  BenchmarkAnalysis a;
  a.suite = s.suite;
  a.name = s.name;
  a.unit = s.unit;
  a.better = Better::Lower;
  a.metric = s.metric;
  const double base = first_value(s.base), head = first_value(s.head);
  a.base_value = base;
  a.head_value = head;
  if (!s.base_failure.empty() || !s.head_failure.empty()) {
    a.verdict = Verdict::Failed;
    std::string why;
    if (!s.base_failure.empty()) why = "base: " + s.base_failure;
    if (!s.head_failure.empty()) why += (why.empty() ? "PR: " : "; PR: ") + s.head_failure;
    a.reason = why;
    return a;
  }
  if (is_missing(base) && is_missing(head)) {
    a.verdict = Verdict::Failed;
    a.reason = "no instruction count on either side";
    return a;
  }
  if (is_missing(base)) {
    a.verdict = Verdict::Added;
    return a;
  }
  if (is_missing(head)) {
    a.verdict = Verdict::Removed;
    return a;
  }
  a.rounds_used = 1;
  a.change = head / base - 1;
  // With cache simulation, the estimated cycles beside the count: evidence, not the verdict.
  estimate_cycles(s, threshold, a);
  // The self-check: each side's count from one repetition alone must agree with its count.
  std::string disagree;
  double spread = 0;  // how far a side's two counts are apart, the farther side's
  for (const auto& [word, count, check] :
       {std::tuple<const char*, double, double>{"base", base, check_value(s.base)},
        std::tuple<const char*, double, double>{"PR", head, check_value(s.head)}}) {
    if (is_missing(check) || std::fabs(check / count - 1) <= count_agreement(threshold)) continue;
    spread = std::max(spread, std::fabs(check / count - 1));
    disagree += fmt::format(
        "{}the {}'s two counts differ by {} ({} and {} instructions per "
        "iteration)",
        disagree.empty() ? "" : "; ", word, format_percent(std::fabs(check / count - 1)),
        count_text(count), count_text(check));
  }
  // A base that counts otherwise after the PR's runs than before: its work depends on when or
  // where it runs, not on the code, so neither side's count is the code's.
  if (const double again = again_value(s.base);
      !is_missing(again) && std::fabs(again / base - 1) > count_agreement(threshold)) {
    spread = std::max(spread, std::fabs(again / base - 1));
    disagree += fmt::format(
        "{}the base's counts before and after the PR's differ by {} ({} and {} instructions per "
        "iteration)",
        disagree.empty() ? "" : "; ", format_percent(std::fabs(again / base - 1)), count_text(base),
        count_text(again));
  }
  if (!disagree.empty())
    a.count_check = ": " + disagree +
                    ": its loop does not do the same work at every run, so its count is not exact.";
  // Exact: the interval is the point itself, so every reader of ci/eq sees no uncertainty.
  a.ci_low = a.ci_high = a.eq_low = a.eq_high = a.change;
  // No per-round changes: there are no rounds, and the per-round table is about time.
  if (a.change > 0) a.worse_rounds = 1;
  if (a.change < 0) a.better_rounds = 1;
  // Compared on the relative change rounded to what is shown (0.01%), so that 0.5% against a
  // 0.5% threshold is a regression whatever the last bits of the division say.
  const double shown = std::round(std::fabs(a.change) * 1e4) / 1e4;
  if (spread > 0) {
    // Counts that differ from run to run of one side decide only a change that stands clear of
    // that difference on both sides; the same varying work on both sides (equal counts, equal
    // checks) is unchanged; anything else is left to time.
    const double checks = check_value(s.head) / check_value(s.base) - 1;
    if (shown < count_agreement(threshold) && std::fabs(checks) < count_agreement(threshold)) {
      a.verdict = Verdict::Unchanged;
      a.reason = fmt::format(
          "within ±{} (the same counts on both sides, though not the same at every run)",
          format_percent(threshold));
      return a;
    }
    if (shown - 2 * spread < threshold - 1e-12) {
      a.verdict = Verdict::Inconclusive;
      a.reason = fmt::format(
          "its counts are not repeatable (two counts of one side differ by {}), so a change of "
          "{} cannot be read from them: its time decides",
          format_percent(spread), format_percent(std::fabs(a.change)));
      return a;
    }
  }
  if (shown >= threshold - 1e-12) {
    a.verdict = a.change > 0 ? Verdict::Regression : Verdict::Improvement;
    a.reason = fmt::format("{} instructions per iteration, at least the {} threshold",
                           a.change > 0 ? "more" : "fewer", format_percent(threshold));
  } else {
    a.verdict = Verdict::Unchanged;
    a.reason = fmt::format("within ±{} (exact count)", format_percent(threshold));
  }
  return a;
}

double count_agreement(double threshold) { return threshold / 2; }

namespace {

// What the hot code says beside a time change on flat counts: "" when there is no evidence.
std::string hot_code_sentence(const Results* results, const BenchmarkAnalysis& t,
                              bool cycles_moved) {
  if (results == nullptr) return "";
  for (const CodeEvidence& e : results->hot_code) {
    if (e.suite != t.suite || e.name != t.name || !e.missing.empty() || e.functions.empty())
      continue;
    if (!e.unrun_changed.empty())
      return " Its counted run may not be the path it runs natively: this machine's CPU has "
             "AVX-512, which Valgrind does not run, and " +
             e.unrun_changed +
             ", which did not run under Callgrind, changed: time stays the judge.";
    for (const HotFunction& f : e.functions)
      if (!f.same_where_run())
        return " Its hot code differs between the builds (" + f.name +
               "): the PR's code, not code placement.";
    // A changed function whose executed instructions are the same (HotFunction::executed_same)
    // is the same code where the benchmark runs it (core/evidence/placement.cpp).
    std::string same = " Its hot code is byte-identical";
    for (const HotFunction& f : e.functions)
      if (f.executed_same && !f.identical) {
        same = " The code it runs is the same (" + f.name + " changed only where it does not run)";
        break;
      }
    // Identical code that moved is read as placement unless the counts could not be read as
    // exact or the simulated cache misses moved the estimated cycles (core/evidence/placement.hpp).
    for (const HotFunction& f : e.functions)
      if (!f.outside && f.shift() != 0)
        return cycles_moved ? same +
                                  " at other addresses, but its estimated cycles moved too "
                                  "(Callgrind's simulated cache misses): not put down to code "
                                  "placement."
                            : same + " at other addresses.";
    return same + " at the same addresses: not code placement either.";
  }
  return "";
}

}  // namespace

std::vector<Note> time_instruction_disagreements(const Analysis& analysis, const Results* results) {
  std::vector<Note> out;
  const auto note = [&out](const std::string& name, const std::string& rest,
                           NoteKind kind = NoteKind::TimeVsInstructions) {
    out.emplace_back(kind, std::move(Sentence().code(name).text(rest)).take());
  };
  for (const BenchmarkAnalysis& ins : analysis.benchmarks)
    if (is_instruction_analysis(ins) && !ins.count_check.empty())
      note(ins.name, ins.count_check, NoteKind::CountsDiffer);
  for (const BenchmarkAnalysis& ins : analysis.benchmarks) {
    if (!is_instruction_analysis(ins) || !std::isfinite(ins.change)) continue;
    for (const BenchmarkAnalysis& t : analysis.benchmarks) {
      if (is_instruction_analysis(t) || t.name != ins.name ||
          instruction_suite_name(t.suite) != ins.suite || !std::isfinite(t.change))
        continue;
      const bool ins_flat = ins.verdict == Verdict::Unchanged;
      const bool ins_moved =
          ins.verdict == Verdict::Regression || ins.verdict == Verdict::Improvement;
      if (ins_flat && time_significant(t.verdict)) {
        note(t.name,
             fmt::format(": time {} ({}) while instructions per iteration are flat ({}): the "
                         "difference is in what instructions do not count (waiting, cache "
                         "misses, system calls, frequency).{}",
                         describe_change(t.change, t.better), to_string(t.verdict),
                         format_signed_percent(ins.change),
                         hot_code_sentence(results, t, ins.cycles_moved)));
      } else if (ins_moved && t.verdict == Verdict::Unchanged) {
        note(t.name,
             fmt::format(": instructions per iteration {} but time is unchanged within the time "
                         "threshold: the CPU hides the extra work, or the change is below what "
                         "time can show here.",
                         format_signed_percent(ins.change)));
      } else if (ins_moved && time_significant(t.verdict) && (ins.change > 0) != (t.change > 0)) {
        // Either way round: fewer instructions and slower, or more and faster. Where the code
        // sits is among the causes: on cctz, moving identical code by 32 bytes moved a 4 ns
        // benchmark by 11% (docs/placement.md).
        note(t.name,
             fmt::format(": instructions per iteration {} but time {}: {} instructions "
                         "are not always {} (memory, branches, vector width, where the "
                         "code sits).",
                         format_signed_percent(ins.change), describe_change(t.change, t.better),
                         ins.change < 0 ? "fewer" : "more", ins.change < 0 ? "faster" : "slower"));
      }
    }
  }
  return out;
}

}  // namespace benchpr
