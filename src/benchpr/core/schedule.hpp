// The round schedule: warm-up rounds, then analysed rounds in counterbalanced blocks (AB, BA),
// each block's first order drawn from a recorded seed so the run is reproducible.
#pragma once

#include <cstdint>
#include <vector>

#include "benchpr/core/model.hpp"

namespace benchpr {

// `rounds` analysed rounds (rounded up to even), preceded by `warmup` warm-up rounds.
std::vector<RoundPlan> make_schedule(int rounds, int warmup, std::uint64_t seed);

}  // namespace benchpr
