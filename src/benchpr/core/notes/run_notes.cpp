#include "benchpr/core/notes/run_notes.hpp"

#include <unordered_map>

#include <fmt/format.h>

#include "benchpr/core/wording/sentence.hpp"
#include "benchpr/core/wording/wording.hpp"

namespace benchpr {

namespace {

constexpr int kMaxNamedTooSmall = 5;

std::vector<Note> cold_round_notes(const RunFacts& facts) {
  std::vector<Note> notes;
  const int cold = facts.cold_left_out, cold_kept = facts.cold_kept;
  if (cold > 0) {
    notes.emplace_back(
        NoteKind::ColdRounds,
        fmt::format("Round 1 looked cold for {} benchmark{} and was left out for {}.", cold,
                    cold == 1 ? "" : "s", cold == 1 ? "it" : "them"));
  }
  if (cold_kept > 0) {
    notes.emplace_back(
        NoteKind::ColdRounds,
        fmt::format(
            "Round 1 looked cold for {} benchmark{} but was kept: too few rounds to leave it out.",
            cold_kept, cold_kept == 1 ? "" : "s"));
  }
  return notes;
}

// "The PR's runs of micro left 3 processes running (in 2 of 12 runs); benchpr killed them.":
// a benchmark that daemonises may have disturbed the runs after it, and the user should know
// that their code leaves processes behind. One note per suite and side, in the order of the runs.
std::vector<Note> leftover_process_notes(const Results& results) {
  struct Left {
    std::string suite;
    Side side;
    int processes = 0, runs_with = 0, runs = 0;
  };
  std::vector<Left> lefts;
  // One look-up per run: a results file may hold 100,000 run records of as many suites, where a
  // search through the suites seen so far took seconds (an hour at the file size limit).
  std::unordered_map<std::string, std::size_t> index[2];  // per side: suite -> lefts[i]
  for (const RunRecord& r : results.runs) {
    const auto [at, added] = index[r.side == Side::Base ? 0 : 1].try_emplace(r.suite, lefts.size());
    if (added) lefts.push_back(Left{r.suite, r.side});
    Left* it = &lefts[at->second];
    ++it->runs;
    if (r.leftover_processes > 0) {
      it->processes += r.leftover_processes;
      ++it->runs_with;
    }
  }
  std::vector<Note> notes;
  for (const Left& l : lefts) {
    if (l.processes == 0) continue;
    Sentence s;
    s.text(fmt::format("The {} runs of suite ", l.side == Side::Base ? "base" : "PR"))
        .code(l.suite)
        .text(fmt::format(" left {} process{} running (in {} of {} runs); benchpr killed {} after "
                          "each run.",
                          l.processes, l.processes == 1 ? "" : "es", l.runs_with, l.runs,
                          l.processes == 1 ? "it" : "them"));
    notes.emplace_back(NoteKind::Other, std::move(s).take());
  }
  return notes;
}

// "BM_Nop (6.4e-07 ns): too small to measure (below 1 ps), not compared; ...", naming the first
// kMaxNamedTooSmall.
Note too_small_note(const std::vector<TooSmallSeries>& too_small) {
  const int count = static_cast<int>(too_small.size());
  std::vector<TextPart> parts;
  for (int i = 0; i < count && i < kMaxNamedTooSmall; ++i) {
    const TooSmallSeries& t = too_small[static_cast<std::size_t>(i)];
    if (!parts.empty()) parts.push_back({", ", false});
    parts.push_back({t.name, true});
    parts.push_back({fmt::format(" ({:.2g} {})", t.value, t.unit), false});
  }
  if (count > kMaxNamedTooSmall)
    parts.push_back({fmt::format(" and {} more", count - kMaxNamedTooSmall), false});
  parts.push_back({fmt::format(": too small to measure (below 1 ps), not compared; leave {} out "
                               "with a suite's ",
                               count == 1 ? "it" : "them"),
                   false});
  parts.push_back({"exclude:", true});
  parts.push_back({" in .benchpr.yml.", false});
  return Note(NoteKind::TooSmall, std::move(parts));
}

}  // namespace

std::vector<Note> run_notes(const Results& results, int analysed_rounds, const RunFacts& facts) {
  std::vector<Note> notes = cold_round_notes(facts);
  if (!results.complete) {
    notes.emplace_back(
        NoteKind::Partial,
        partial_results_notice(analysed_rounds, planned_rounds(results), stopped_because(results)));
  }
  if (results.resumed_rounds > 0) {
    notes.emplace_back(fmt::format(
        "Resumed after an interruption: round{} 1{} {} measured by the earlier benchpr process "
        "and read back from its results file; the rest by the resumed one.",
        results.resumed_rounds == 1 ? "" : "s",
        results.resumed_rounds == 1 ? "" : fmt::format("–{}", results.resumed_rounds),
        results.resumed_rounds == 1 ? "was" : "were"));
  }
  if (results.config_changed_by_head) {
    notes.emplace_back(
        NoteKind::ConfigEdited,
        "This pull request edits .benchpr.yml; the base revision's configuration was used.");
  }
  for (Note& note : leftover_process_notes(results)) notes.push_back(std::move(note));
  if (!facts.too_small.empty()) notes.push_back(too_small_note(facts.too_small));
  return notes;
}

}  // namespace benchpr
