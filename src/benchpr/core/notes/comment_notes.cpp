#include "benchpr/core/notes/comment_notes.hpp"

#include <algorithm>
#include <cmath>
#include <set>

#include <fmt/format.h>

#include "benchpr/core/base/duration.hpp"
#include "benchpr/core/evidence/cycle_estimate.hpp"
#include "benchpr/core/evidence/instruction_analysis.hpp"
#include "benchpr/core/wording/sentence.hpp"
#include "benchpr/core/wording/wording.hpp"

namespace benchpr {

namespace {

// "2%", "0.5%": a threshold as configured, without trailing zeros (as the tables write it).
std::string threshold_text(double threshold) { return fmt::format("{:.3g}%", threshold * 100); }

// "`a`, `b` and `c`": at most five names, then "and 12 more".
void name_list(Sentence& s, const std::vector<std::string>& names) {
  constexpr std::size_t kShown = 5;
  const std::size_t items = std::min(names.size(), kShown) + (names.size() > kShown ? 1 : 0);
  for (std::size_t i = 0; i < items; ++i) {
    if (i > 0) s.text(i + 1 == items ? " and " : ", ");
    if (i < kShown) {
      s.code(names[i]);
    } else {
      s.text(fmt::format("{} more", names.size() - kShown));
    }
  }
}

// The time the counting runs took, first start to last end, and how many they were.
struct CountingRuns {
  std::size_t runs = 0;
  double seconds = 0;
};

CountingRuns counting_runs(const Results& results) {
  std::set<std::string> suites;
  for (const SuiteConfig& s : results.config.suites)
    if (results.config.counts_instructions(s)) suites.insert(instruction_suite_name(s.name));
  CountingRuns out;
  double first = 0, last = 0;
  for (const RunRecord& r : results.runs) {
    if (!suites.count(r.suite)) continue;
    if (out.runs == 0 || r.started < first) first = r.started;
    last = std::max(last, r.started + r.seconds);
    ++out.runs;
  }
  out.seconds = std::max(0.0, last - first);
  return out;
}

}  // namespace

std::vector<Note> comment_notes(const Results& results, const Analysis& analysis) {
  std::vector<Note> notes;
  if (std::optional<Note> few = too_few_rounds_note(results, analysis))
    notes.push_back(std::move(*few));
  for (const Note& note : analysis.notes)
    if (!comment_states_elsewhere(note, results)) notes.push_back(note);
  if (std::optional<Note> cold = cold_rounds_note(analysis)) notes.push_back(std::move(*cold));
  return notes;
}

std::optional<Note> too_few_rounds_note(const Results& results, const Analysis& analysis) {
  if (analysis.analysed_rounds <= 0 || analysis.analysed_rounds >= kMinDecidingRounds)
    return std::nullopt;
  const auto rounds = static_cast<std::size_t>(analysis.analysed_rounds);
  Sentence s;
  if (results.origin == Origin::ResultFiles) {
    s.text(fmt::format(
        "With {} no benchmark can be called faster, slower or unchanged: the paired analysis "
        "needs at least {} processes per side, and a results file is one process (give {} or "
        "more files per side; hyperfine keeps each run of a command, each a process).",
        plural(rounds, "run per side", "runs per side"), kMinDecidingRounds, kMinDecidingRounds));
  } else {
    s
        .text(fmt::format(
            "With {} no benchmark can be called faster, slower or unchanged: the paired analysis "
            "needs at least {} rounds (set ",
            plural(rounds, "analysed round", "analysed rounds"), kMinDecidingRounds))
        .code(fmt::format("rounds: {}", kMinDecidingRounds))
        .text(" or more in ")
        .code(".benchpr.yml")
        .text(", or ")
        .code("--rounds")
        .text(").");
  }
  return Note(NoteKind::TooFewRounds, std::move(s).take());
}

std::optional<Note> cold_rounds_note(const Analysis& analysis) {
  std::vector<std::string> dropped, kept;
  for (const BenchmarkAnalysis& b : analysis.benchmarks) {
    if (b.dropped_round) {
      dropped.push_back(b.name);
    } else if (b.has_flag(BenchmarkFlag::ColdRound)) {
      kept.push_back(b.name);
    }
  }
  if (dropped.empty() && kept.empty()) return std::nullopt;
  Sentence s;
  s.text(
      "Round 1 looked cold (both sides' times far from the later rounds', as while caches and CPU "
      "frequency settle)");
  if (!dropped.empty()) {
    s.text(" for ");
    name_list(s, dropped);
    s.text(fmt::format(": left out of {} analysis", dropped.size() == 1 ? "its" : "their"));
  }
  if (!kept.empty()) {
    s.text(dropped.empty() ? " for " : "; also for ");
    name_list(s, kept);
    s.text(", but kept there: too few rounds to leave one out");
  }
  s.text(".");
  return Note(NoteKind::ColdRounds, std::move(s).take());
}

bool comment_states_elsewhere(const Note& note, const Results& results) {
  switch (note.kind) {
    case NoteKind::Partial:
      return !results.complete;
    case NoteKind::ColdRounds:
      return true;
    case NoteKind::ConfigEdited:
      return results.config_changed_by_head;
    case NoteKind::Other:
    case NoteKind::TooFewRounds:
    case NoteKind::TooSmall:
    case NoteKind::Waiting:
    case NoteKind::MissedWork:
    case NoteKind::MachineBusy:
    case NoteKind::DisturbedRuns:
    case NoteKind::CountsDiffer:
    case NoteKind::TimeVsInstructions:
    case NoteKind::CountsNotMade:
      return false;
  }
  return false;
}

std::optional<Note> instructions_note(const Results& results, const Analysis& analysis) {
  std::size_t counted = 0;
  for (const BenchmarkAnalysis& b : analysis.benchmarks)
    counted += is_instruction_analysis(b) && std::isfinite(b.change) ? 1 : 0;
  const CountingRuns runs = counting_runs(results);
  if (runs.runs == 0 && counted == 0) return std::nullopt;
  const bool by_default =
      std::any_of(results.config.suites.begin(), results.config.suites.end(),
                  [&](const SuiteConfig& s) { return results.config.counts_by_default(s); });
  Sentence s;
  s.text("Instructions");
  if (by_default)
    s.text(" (on by default wherever Valgrind is installed; ")
        .code("instructions: false")
        .text(" in .benchpr.yml turns them off)");
  s.text(fmt::format(
      ": counted per iteration of the benchmark's loop by Callgrind (Valgrind), a suite's "
      "benchmarks sharing one process per core on each side ({} counted in {}{}), run at one "
      "iteration per repetition and at many, the difference divided by the difference in "
      "iterations, so what a repetition does once is not counted as an iteration. Counts are "
      "exact, so a change of ±{} or more is reported without rounds or confidence intervals. "
      "They do not see time spent waiting (sleep, I/O, locks), in the kernel (system calls), on "
      "cache misses or branch mispredictions, or at another clock frequency: such changes show "
      "in time only.",
      plural(counted, "benchmark", "benchmarks"), format_duration(runs.seconds),
      results.machine.cores > 1 ? fmt::format(" on {} cores", results.machine.cores) : "",
      threshold_text(results.config.instruction_threshold)));
  if (has_cycle_estimates(results))
    s.text(
        " Beside each count, Callgrind's cache simulation (32 KiB L1 caches, an 8 MiB last "
        "level) gives an estimate of cycles per iteration, KCachegrind's CEst: instructions + "
        "10 × L1 misses + 100 × last-level misses. It shows a change in how the loop uses memory "
        "that the count cannot. It decides no verdict; when it moved, a time change is not put "
        "down to code placement, nor an undecided time to the same work or the same count.");
  return Note(NoteKind::Other, std::move(s).take());
}

SuiteMeanReading read_suite_mean(const Analysis& analysis, const SuiteSummary& suite,
                                 double threshold) {
  SuiteMeanReading out;
  std::vector<const BenchmarkAnalysis*> members;
  for (const BenchmarkAnalysis& b : analysis.benchmarks) {
    if (b.suite != suite.suite || !std::isfinite(b.change) || b.change <= -1) continue;
    members.push_back(&b);
    ++out.verdicts[b.verdict];
  }
  // One benchmark is only said to carry a mean that reads as a change.
  if (members.size() < 2 || !(std::fabs(std::log1p(suite.change)) >= std::log1p(threshold)))
    return out;
  // Log changes in the "worse" direction, as the suite's mean is; 2× slower and 2× faster weigh
  // the same.
  auto worse_log = [](const BenchmarkAnalysis* b) {
    const double l = std::log1p(b->change);
    return b->better == Better::Lower ? l : -l;
  };
  double total = 0, top = -1;
  const BenchmarkAnalysis* driver = nullptr;
  for (const BenchmarkAnalysis* b : members) {
    const double m = std::fabs(worse_log(b));
    total += m;
    if (m > top) {
      top = m;
      driver = b;
    }
  }
  if (!driver || !(top > total / 2)) return out;
  double rest = 0;
  for (const BenchmarkAnalysis* b : members)
    if (b != driver) rest += worse_log(b);
  out.driver = driver->name;
  out.without_driver = std::exp(rest / static_cast<double>(members.size() - 1)) - 1;
  return out;
}

}  // namespace benchpr
