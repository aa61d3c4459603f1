// Instruction counts nobody asked for (on by default wherever Valgrind is installed) that could
// not be made: Valgrind does not know an instruction, the counting's share of the budget ran
// out, a benchmark crashed under it. Such a benchmark is judged by its time as if counting were
// off, and a note names what was not counted and why; a count that was asked for
// (`instructions: true`, `metric: instructions`, --instructions) and failed stays a failure.
// Pure.
#pragma once

#include <optional>

#include "benchpr/core/model/model.hpp"

namespace benchpr {

struct WithoutFailedDefaultCounts {
  Results results;           // the series and runs of the failed default counts left out
  std::optional<Note> note;  // what was not counted and why; none when everything was
};
WithoutFailedDefaultCounts without_failed_default_counts(const Results& results);

}  // namespace benchpr
