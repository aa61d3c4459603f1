#pragma once

#include "benchpr/core/model/model.hpp"

namespace benchpr {

// The reading of a whole session as every command should report it: the adaptive reading
// (looks, per-look levels) when the session had a time budget, the fixed-rounds analysis
// otherwise. `run` and `publish` both call this, so the same file gives the same comment.
Analysis analyse_session(const Results& results);

// The results as the session's analysis compares them: benchmarks whose CPU time missed work
// on their wall time, starved rounds left out of the wall-time comparisons. The adaptive looks
// read these, so a look decides on the values the comment will show.
Results as_compared(const Results& results);

}  // namespace benchpr
