#include "benchpr/core/schedule.hpp"

#include <random>

namespace benchpr {

std::vector<RoundPlan> make_schedule(int rounds, int warmup, std::uint64_t seed) {
  std::vector<RoundPlan> plan;
  if (rounds < 0) rounds = 0;
  if (warmup < 0) warmup = 0;
  rounds = round_up_even(rounds);  // whole AB/BA blocks only: orders stay balanced
  // mt19937_64's output sequence is fixed by the standard, so a recorded seed replays exactly.
  std::mt19937_64 rng(seed);
  int index = 0;
  for (int w = 0; w < warmup; ++w, ++index) {
    plan.push_back({index, true, (w % 2 == 0) ? Side::Base : Side::Head});
  }
  for (int b = 0; b < rounds / 2; ++b) {
    const Side first = (rng() >> 63) ? Side::Head : Side::Base;
    const Side second = first == Side::Base ? Side::Head : Side::Base;
    plan.push_back({index++, false, first});
    plan.push_back({index++, false, second});
  }
  return plan;
}

}  // namespace benchpr
