// What an adaptive session says about the benchmarks it left open because the budget could not
// settle them: named once, with their noise and what would settle them, instead of the same
// advice on every row. Pure.
#pragma once

#include "benchpr/core/model/model.hpp"

namespace benchpr {

// An open benchmark ("no signal") is too noisy for the budget when settling ±threshold would
// take at least twice the rounds it got (or more than 1,000): no budget near this one would
// decide it. Adds one note naming them
// (at most 5, then a count) and clears their rows' "≈ N rounds would settle" (the note says it).
// Only for complete sessions with a budget: a fixed plan's rows keep their own advice.
void name_too_noisy(const Results& results, Analysis& analysis);

// Whether an open benchmark could still settle within `reachable_rounds` analysed rounds (those
// done and those the budget affords, at the cost of rounds of it alone). Settling needs its
// interval to lie within ±threshold or to leave out no change: at best (no change, or the change
// it reads where that is beyond the threshold) its half-width must shrink to max(threshold,
// |change|); its 95% CI (whatever the reading: plain, within modes), read at the normal quantile
// rather than its t(rounds − 2), shrinks as 1/√rounds. That is generous: the whole α, no correction
// over the family, even odds. A benchmark that could not settle even so is measured no further, and
// a session whose open benchmarks are all such stops instead of spending the rest of the budget on
// them. True only for an inconclusive benchmark, or a slowdown held open for its size
// (size_open_slowdown: settling it needs its interval to leave out half the threshold), with an
// interval from at least 6 rounds.
bool cannot_settle(const BenchmarkAnalysis& b, int reachable_rounds);

// The standard deviation of a benchmark's per-round log ratios (its rounds' noise), as a
// fraction; NaN with fewer than 3 rounds.
double round_noise(const BenchmarkAnalysis& b);

}  // namespace benchpr
