// Where a benchmark's instructions changed: the functions whose own (self) count per iteration
// moved the most between the base and the PR, how much of the benchmark's change they explain,
// and the call path to each. Pure; the method and its limits are in docs/why.md.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "benchpr/core/model/model.hpp"
#include "benchpr/core/model/profile.hpp"

namespace benchpr {

struct FunctionChange {
  std::string name;
  double before = 0;  // self instructions per iteration, base
  double after = 0;   // PR
  double delta = 0;   // after - before
  // delta over the benchmark's whole change (signed: a function moving against the change has a
  // negative share); kMissing when the benchmark's count did not change.
  double share = kMissing;
  bool added = false;    // only in the PR's profile
  bool removed = false;  // only in the base's
  // Its heaviest caller chain, outermost first, ending with the function itself; the frames of
  // Google Benchmark's runner and the C runtime above the benchmark's own function left out.
  std::vector<std::string> path;
};

struct ProfileDiff {
  double before = 0;  // instructions per iteration, base
  double after = 0;   // PR
  double change = 0;  // after - before
  // The listed functions, by |delta|, largest first: at most kMaxListed, each moving at least
  // kMinFunctionShare of the benchmark's count (so identical code lists none).
  std::vector<FunctionChange> functions;
  double explained = kMissing;  // sum of the listed deltas over `change`; kMissing when 0
  // |change| below `same_fraction` of the base's count: the instructions did not change, so a
  // change of time is in memory, waiting or frequency.
  bool same_instructions = false;
};

inline constexpr std::size_t kMaxListed = 8;
inline constexpr double kMinFunctionShare = 0.001;  // of the benchmark's count per iteration

// `same_fraction`: the instruction threshold (Config::instruction_threshold).
ProfileDiff diff_profiles(const FunctionProfile& base, const FunctionProfile& head,
                          double same_fraction);

// The function the benchmark's own code begins with: from the outermost frame down the heaviest
// calls while the frame is Google Benchmark's runner, main or the C runtime ("" for an empty
// profile).
std::string benchmark_root(const FunctionProfile& p);

// One box of the differential icicle graph: the PR's call tree from the benchmark's function,
// each box as wide as its inclusive count in the PR, coloured by the change of that count.
struct FlameBox {
  std::string name;
  int depth = 0;      // 0: the benchmark's function
  double x = 0;       // left edge, a fraction of the root's width
  double width = 0;   // a fraction of the root's width
  double before = 0;  // inclusive instructions per iteration in this call context, base
  double after = 0;   // PR
};

// The tree is built from caller→callee totals (Callgrind keeps no full stacks): below the first
// level a function's calls are split among its contexts in proportion to its count in each, an
// estimate docs/why.md explains. Boxes narrower than `min_width` and deeper than `max_depth` are
// left out; a function never appears twice on one path.
std::vector<FlameBox> flame_boxes(const FunctionProfile& base, const FunctionProfile& head,
                                  double min_width = 0.005, int max_depth = 12);

// The phrase for a benchmark's reason: "mostly `Parser::next_token()`" (the top function when it
// explains at least half the change), "mostly `f` and `g`", "spread over many functions", or
// "the same instructions: the difference is in memory, waiting or frequency".
std::vector<TextPart> why_phrase(const ProfileDiff& d);

}  // namespace benchpr
