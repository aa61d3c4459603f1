// The time plan: after the warm-up round, size the session to its budget. Pure: the runner
// measures, this decides, so the arithmetic is tested on hand-made costs.
//
// A Google Benchmark run costs about  fixed + benchmarks * repetitions * kMinTimeCost * min_time
// seconds of CPU (the library grows the iteration count until one repetition has used min_time
// of CPU time; the probing runs before it add about half again). The fixed part (process start,
// benchmarks slower than min_time, set-up) is what the warm-up run used beyond that. The wall
// time is that CPU time over the share of a CPU the warm-up run got: on a busy machine a run at
// a fifth of a CPU takes five times its CPU time, and its fixed part must not take the blame
// (it does not shrink with the min time). Without a CPU time, or where the run used more CPU
// than wall time (several threads), the same arithmetic is done on wall time. Other formats'
// runs cost what they cost. The plan keeps the configured rounds when they fit, at the min time the
// method study found best for a fixed time (docs/method.md, "Time plan"); when they do not fit it
// first shortens the min time, then drops rounds, never below kMinRounds.
#pragma once

#include <string>
#include <vector>

#include "benchpr/core/model/model.hpp"

namespace benchpr {

inline constexpr double kDefaultBudgetSeconds = 15 * 60;
// The min time the method study found to detect the most per minute (many short rounds), and
// the shortest worth running (below it the library's own overhead dominates).
inline constexpr double kPlannedMinTime = 0.05;
inline constexpr double kShortestMinTime = 0.01;
inline constexpr double kMinTimeCost = 1.5;
inline constexpr int kMinRounds = 4;

struct SuiteCost {
  std::string suite;
  double run_seconds = 0;  // mean wall time of one run in the warm-up round
  bool sized = false;      // Google Benchmark with a min time benchpr sets
  int benchmarks = 0;      // benchmarks the run reported (sized suites)
  double min_time = 0;     // min time of the warm-up run (sized suites)
  int repetitions = 1;     // repetitions of the warm-up run
  double cpu_seconds = 0;  // mean CPU time of one run in the warm-up round (0: unknown)
};

struct TimePlanInput {
  double budget_seconds = kDefaultBudgetSeconds;
  double spent_seconds = 0;   // builds and warm-up already done
  int rounds = 10;            // configured analysed rounds (the plan's ceiling)
  bool rounds_fixed = false;  // --rounds: keep them, size only the min time
  // The rounds come in multiples of this: AB/BA blocks (2), or whole cycles of the placement
  // control's offsets, each in both orders (core/model/placement_rotation.hpp).
  int rounds_step = 2;
  int repetitions = 3;
  std::vector<SuiteCost> suites;
};

// Seconds one round (both sides) costs at `min_time` with `repetitions`.
double round_seconds(const std::vector<SuiteCost>& suites, double min_time, int repetitions);

// The progress line that states a plan (TimePlan::summary); `sized`: a suite's min time is set by
// benchpr, so the line names it.
std::string describe_time_plan(const TimePlan& plan, bool sized);

// The plan, with `summary` the sentence progress prints ("10 rounds of about 40s each, done in
// about 7m"), or, when even the minimal plan overruns the budget, what would fit.
TimePlan plan_time(const TimePlanInput& in);

}  // namespace benchpr
