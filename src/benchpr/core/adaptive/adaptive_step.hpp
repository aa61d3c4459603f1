// The adaptive stopping rule, one step at a time: before a look, how far it reads (plan_look);
// after it, which benchmarks go on and whether the session stops (step_after_look). The runner
// (runner/session_rounds.cpp), the method study (bench/method_study.cpp) and the tests call
// these same two functions, so every figure the study reports is a figure of the product.
// Pure: the caller measures the time left and the price of a round, and runs what it is told.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "benchpr/core/adaptive/adaptive.hpp"
#include "benchpr/core/model/model.hpp"

namespace benchpr {

// What a round costs, in seconds (or any unit the time left is counted in): a share of it (the
// processes' start and exit) is paid whatever is open, the rest in proportion to the benchmarks
// still run.
struct RoundPrice {
  double full = 0;           // a round of all `family` benchmarks; NaN or <= 0: not known yet
  int family = 1;            // the benchmarks the rounds time
  double fixed_share = 0.2;  // of a full round, paid whatever is open

  // A round of `open` benchmarks (NaN when the price is not known).
  double of(int open) const;
  // The price, from a block of rounds that cost `seconds_per_round` with `open` benchmarks run.
  static RoundPrice measured(double seconds_per_round, int open, int family, double fixed_share);
};

// How looks are scheduled and when a session stops. The defaults are what benchpr ships; the
// method study varies the fields to compare designs (docs/method.md, "Adaptive rounds").
struct StoppingRule {
  SpendingPolicy policy;
  int step = 10;  // analysed rounds between looks (the first look's rounds); even
  // The first stage's horizon in analysed rounds (kHorizonInFirstLooks steps).
  int horizon = kHorizonInFirstLooks * 10;
  int most_rounds = kMostLookedRounds;  // the most analysed rounds any look reads
  bool two_stages = true;               // go on past the horizon on policy.late_share
  // The stages are read on what the cheapest rounds (one benchmark open) would reach after the
  // first look, not on its full rounds (next_look's `reachable`).
  bool cheapest_reach = true;
  // Benchmarks that cannot settle in the rounds the budget still affords (cannot_settle) are
  // measured no further, and a session left with only such benchmarks stops.
  bool stop_unsettlable = true;
  // A slowdown whose size is open stays open for rounds (size_open_slowdown). Fixed by a
  // session's first look: a session resumed from a file whose looks did not keep it goes on
  // without.
  bool keep_size_open = true;

  // The rule for looks every `step` analysed rounds (rounded up to even).
  static StoppingRule every(int step);
  // The most analysed rounds the looks of a session that recorded `looks` read.
  int last_round(const std::vector<LookRecord>& looks) const;
};

// Before rounds: the next look, or why there is none (then the session ends there).
struct LookPlan {
  std::optional<LookRecord> look;
  StopReason stop_reason;  // set when there is no look
};
// `looks` are the looks so far, `analysed_done` the analysed rounds they read, `seconds_left`
// the budget left (may be <= 0), `open` the benchmarks the next rounds run.
LookPlan plan_look(const StoppingRule& rule, const std::vector<LookRecord>& looks,
                   int analysed_done, double seconds_left, const RoundPrice& price, int open);

// After a look: what the next rounds run, or why the session stops.
struct LookStep {
  std::vector<std::size_t> open;      // series (indices of the results) still open
  std::vector<std::size_t> runnable;  // of those, the ones the next rounds run
  int unsettled = 0;                  // open ones that cannot settle in the rounds left
  bool stop = false;
  StopReason stop_reason;  // for the results (set when stopping)
  std::string outcome;     // for the progress line: "every benchmark is decided", ...
};
// `readings` is read_looks up to `look` (the look just run), `cut` whether its rounds were cut
// short by the deadline, `seconds_left` the budget left, `price` the price of a round now.
LookStep step_after_look(const StoppingRule& rule, const std::vector<LookRecord>& looks,
                         const LookReadings& readings, bool cut, double seconds_left,
                         const RoundPrice& price);

}  // namespace benchpr
