#pragma once

#include "benchpr/core/model.hpp"

namespace benchpr {

// The reading of a whole session as every command should report it: the adaptive reading
// (looks, per-look levels) when the session had a time budget, the fixed-rounds analysis
// otherwise. `run` and `publish` both call this, so the same file gives the same comment.
Analysis analyse_session(const Results& results);

}  // namespace benchpr
