// The round schedule: warm-up rounds, then analysed rounds in counterbalanced blocks (AB, BA),
// each block's first order drawn from a recorded seed so the run is reproducible.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "benchpr/core/model/model.hpp"
#include "benchpr/core/model/placement_rotation.hpp"

namespace benchpr {

// Analysed rounds come in AB/BA blocks of two, so any count of them is rounded up to even.
inline int round_up_even(int rounds) { return rounds + rounds % 2; }

// `rounds` analysed rounds (rounded up to even), preceded by `warmup` warm-up rounds.
std::vector<RoundPlan> make_schedule(int rounds, int warmup, std::uint64_t seed);

// The placement slot (core/model/placement_rotation.hpp) of the round at plan index `index`
// (warm-up rounds: 0).
int placement_slot_of_round(const std::vector<RoundPlan>& plan, int index, std::size_t shifts);

// The seed every shard of one comparison draws by itself when none is given: a hash of what all
// its runners share (the base and head commits, the configuration as recorded, the shard count)
// and nothing any one of them has alone (not the shard's index, not a clock), so the shards of a
// matrix agree on the round orders without being told and `benchpr merge` can join them.
std::uint64_t shared_shard_seed(std::string_view base_sha, std::string_view head_sha,
                                std::string_view config_text, int shard_count);

}  // namespace benchpr
