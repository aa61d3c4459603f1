#include "benchpr/core/session_analysis.hpp"

#include "benchpr/core/adaptive.hpp"
#include "benchpr/core/analysis.hpp"
#include "benchpr/core/measurement_notes.hpp"

#include <string>

namespace benchpr {

namespace {

Analysis read_session(const Results& results) {
  if (results.config.budget_seconds) {
    Analysis a = adaptive_analysis(results, adaptive_plan_for(results.config));
    // Say how many rounds ran and why the session stopped: the reader must be able to tell a
    // pre-registered stop from a cut-off.
    if (results.complete && !results.stop_reason.empty()) {
      a.notes.push_back("Stopped after " + std::to_string(a.analysed_rounds) +
                        " analysed rounds: " + results.stop_reason + ".");
    }
    return a;
  }
  return analyse(results);
}

}  // namespace

Analysis analyse_session(const Results& results) {
  Analysis a = read_session(without_lopsided_rounds(results));
  add_measurement_notes(results, a);
  return a;
}

}  // namespace benchpr
