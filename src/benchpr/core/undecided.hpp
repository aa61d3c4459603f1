// What an adaptive session says about the benchmarks it left open because the budget could not
// settle them: named once, with their noise and what would settle them, instead of the same
// advice on every row. Pure.
#pragma once

#include "benchpr/core/model.hpp"

namespace benchpr {

// An open benchmark ("no signal") is too noisy for the budget when settling ±threshold would
// take at least twice the rounds it got (or more than 1,000): no budget near this one would
// decide it. Adds one note naming them
// (at most 5, then a count) and clears their rows' "≈ N rounds would settle" (the note says it).
// Only for complete sessions with a budget: a fixed plan's rows keep their own advice.
void name_too_noisy(const Results& results, Analysis& analysis);

// The standard deviation of a benchmark's per-round log ratios (its rounds' noise), as a
// fraction; NaN with fewer than 3 rounds.
double round_noise(const BenchmarkAnalysis& b);

}  // namespace benchpr
