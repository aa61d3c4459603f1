#include "benchpr/core/plan/schedule.hpp"

#include <random>
#include <string>

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

int placement_slot_of_round(const std::vector<RoundPlan>& plan, int index, std::size_t shifts) {
  int number = 0;
  for (const RoundPlan& p : plan) {
    if (!p.warmup) ++number;
    if (p.index == index) return p.warmup ? 0 : placement_slot(number, shifts);
  }
  return 0;
}

namespace {

// FNV-1a over the bytes, each part closed by its length so ("ab", "c") and ("a", "bc") differ.
class Fnv1a {
 public:
  void add(std::string_view part) {
    for (const char c : part) byte(static_cast<unsigned char>(c));
    for (std::size_t n = part.size(), i = 0; i < 8; ++i, n >>= 8)
      byte(static_cast<unsigned char>(n & 0xff));
  }
  std::uint64_t value() const { return hash_; }

 private:
  void byte(unsigned char b) {
    hash_ ^= b;
    hash_ *= 0x100000001b3ULL;
  }
  std::uint64_t hash_ = 0xcbf29ce484222325ULL;
};

// splitmix64's finaliser: FNV's low bits are weak, and the schedule draws the top bit.
std::uint64_t mix(std::uint64_t z) {
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

}  // namespace

std::uint64_t shared_shard_seed(std::string_view base_sha, std::string_view head_sha,
                                std::string_view config_text, int shard_count) {
  Fnv1a h;
  h.add("benchpr shard seed 1");
  h.add(base_sha);
  h.add(head_sha);
  h.add(config_text);
  h.add(std::to_string(shard_count));
  return mix(h.value());
}

}  // namespace benchpr
