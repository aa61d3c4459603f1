#include "benchpr/core/adaptive/session_analysis.hpp"

#include "benchpr/core/adaptive/adaptive.hpp"
#include "benchpr/core/adaptive/undecided.hpp"
#include "benchpr/core/evidence/default_counts.hpp"
#include "benchpr/core/evidence/identical_programs.hpp"
#include "benchpr/core/notes/measurement_notes.hpp"
#include "benchpr/core/verdicts/analysis.hpp"
#include "benchpr/core/verdicts/disturbed_runs.hpp"

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

namespace benchpr {

namespace {

Analysis read_session(const Results& results) {
  if (results.config.budget_seconds) {
    Analysis a = adaptive_analysis(results, plan_of(results));
    name_too_noisy(results, a);
    // Say how many rounds ran, why the session stopped and what the time went to: the reader
    // must be able to tell a decided comparison from one the budget cut off.
    // Every benchmark in identical programs: no round ran, and the headline says why.
    const bool all_identical =
        !a.benchmarks.empty() &&
        std::all_of(a.benchmarks.begin(), a.benchmarks.end(), decided_by_identical_programs);
    if (results.complete && !results.stop.empty() && !all_identical) {
      a.notes.push_back("Stopped after " + std::to_string(a.analysed_rounds) +
                        " analysed rounds: " + describe(results.stop) + "." +
                        spending_sentence(results));
    }
    return a;
  }
  return analyse(results);
}

}  // namespace

Results as_compared(const Results& results) { return values_as_compared(results).fair; }

Analysis analyse_session(const Results& all) {
  // Counts nobody asked for that could not be made are a note; their benchmarks are judged by
  // their time, as if counting were off.
  const WithoutFailedDefaultCounts counted = without_failed_default_counts(all);
  const Results& results = counted.results;
  // A benchmark whose CPU time missed work is compared on its wall time, before starved rounds
  // are left out of the wall-time comparisons (it is one of them now). Processes slowed as a
  // whole are found on what is left (core/disturbed_runs) and named, never left out: the PR's
  // code can slow its own processes as much as the machine can.
  const ComparedValues values = values_as_compared(results);
  // Named as the whole session's rounds show them (an early look read only its own rounds).
  const DisturbedRuns disturbed = disturbed_runs(values.fair, -1, -1);
  Analysis a = read_session(values.fair);
  add_measurement_notes(values.compared, a, values.missed);
  for (Note& note : kept_disturbance_notes(disturbed, a.analysed_rounds))
    a.notes.push_back(std::move(note));
  if (counted.note) a.notes.push_back(*counted.note);
  return a;
}

}  // namespace benchpr
