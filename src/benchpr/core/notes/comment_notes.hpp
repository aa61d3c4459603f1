// What the comment says beside its tables, decided from the results and their analysis: the
// notes it lists (in its order, and without those it states in places of its own), what
// instruction counts are, and what a suite's mean summarises. Sentences with names kept apart as
// code (TextPart), for the renderer to escape and lay out. Pure.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "benchpr/core/model/model.hpp"

namespace benchpr {

// The notes the comment lists, in its order: too few rounds for any verdict first, then the
// analysis's notes except those the comment states elsewhere (comment_states_elsewhere), then
// the cold first round with the benchmarks named.
std::vector<Note> comment_notes(const Results& results, const Analysis& analysis);

// "With 2 analysed rounds no benchmark can be called faster, slower or unchanged …", and how
// many rounds (or result files) would do; nothing with none or enough.
std::optional<Note> too_few_rounds_note(const Results& results, const Analysis& analysis);

// "Round 1 looked cold (…) for `a` and `b`: left out of their analysis; also for `c`, but kept
// there: …": what cold means, and the benchmarks it was left out of or kept for (at most five
// named in each list); nothing when no round 1 looked cold.
std::optional<Note> cold_rounds_note(const Analysis& analysis);

// Whether the comment states what an analysis note says in a place of its own: a partial run
// (its notice under the headline), an edited configuration (its warning) and the cold rounds'
// counts (cold_rounds_note names the benchmarks).
bool comment_states_elsewhere(const Note& note, const Results& results);

// What instruction counts are, what they cannot see and what they cost (how many benchmarks
// were counted, in how long, on how many cores; the cycle estimate when there is one); nothing
// when no suite counted instructions.
std::optional<Note> instructions_note(const Results& results, const Analysis& analysis);

// What a suite's geometric mean summarises: its members (the suite's benchmarks with a finite
// change) counted by verdict, and, when one of them carries most of the mean, which one and what
// the others come to without it.
struct SuiteMeanReading {
  std::map<Verdict, int> verdicts;  // members per verdict; verdicts with none are absent
  // The member whose change (as a log, in the worse direction) is more than half of all the
  // members' together, when the suite's mean reads at least its threshold.
  std::optional<std::string> driver;
  double without_driver = kMissing;  // the geometric mean change of the other members
};
// `threshold`: the suite's own, or the run's.
SuiteMeanReading read_suite_mean(const Analysis& analysis, const SuiteSummary& suite,
                                 double threshold);

}  // namespace benchpr
