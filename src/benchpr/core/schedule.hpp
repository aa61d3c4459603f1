// The round schedule: warm-up rounds, then analysed rounds in counterbalanced blocks (AB, BA),
// each block's first order drawn from a recorded seed so the run is reproducible.
#pragma once

#include <cstdint>
#include <vector>

#include "benchpr/core/model.hpp"

namespace benchpr {

// Analysed rounds come in AB/BA blocks of two, so any count of them is rounded up to even.
inline int round_up_even(int rounds) { return rounds + rounds % 2; }

// `rounds` analysed rounds (rounded up to even), preceded by `warmup` warm-up rounds.
std::vector<RoundPlan> make_schedule(int rounds, int warmup, std::uint64_t seed);

}  // namespace benchpr
