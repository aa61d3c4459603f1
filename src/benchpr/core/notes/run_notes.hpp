// The run-level notes of the analysis, in words: what core/analysis found about the run as a
// whole (cold first rounds, benchmarks too small to measure) and what the results say of it
// (partial, an edited .benchpr.yml, processes left running). Pure.
#pragma once

#include <string>
#include <vector>

#include "benchpr/core/model/model.hpp"

namespace benchpr {

// A benchmark whose every value is below a picosecond: named in a note, not compared.
struct TooSmallSeries {
  std::string name;
  double value = 0;  // its median value, in `unit`
  std::string unit;
};

// What the analysis counted for the notes.
struct RunFacts {
  int cold_left_out = 0;  // benchmarks whose cold round 1 was left out
  int cold_kept = 0;      // benchmarks whose round 1 looked cold but was kept
  std::vector<TooSmallSeries> too_small;
};

// The notes in the order the comment lists them: cold rounds, partial results, the edited
// configuration, processes left running, benchmarks too small to measure.
std::vector<Note> run_notes(const Results& results, int analysed_rounds, const RunFacts& facts);

}  // namespace benchpr
