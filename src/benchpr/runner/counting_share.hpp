// How much of the time budget instruction counting nobody asked for (counting on by default) may
// take, and when the base is counted again after the PR's runs. Pure: the counting phase
// (runner/instruction_counts.cpp) measures, these decide.
//
// The share is a cap, not a reservation: counting ends when it is done, and the time rounds get
// whatever it leaves. A quarter of the budget is the rule. A suite with a slow start-up (what its
// `main` does before the first benchmark, such as loading data) pays it in every Callgrind
// process, and a quarter may then be too little for both sides while half is enough: the base's
// listing (the start-up, natively) tells before anything runs under Callgrind, and the share is
// then half the budget.
#pragma once

#include <string>
#include <vector>

#include "benchpr/core/model/model.hpp"

namespace benchpr::runner {

// The usual share of the budget, and the least whatever the budget (15 minutes: 3m45s).
inline constexpr double kDefaultCountingShare = 0.25;
inline constexpr double kDefaultCountingLeast = 60;
// The most counting nobody asked for may take: the time rounds keep at least the other half.
inline constexpr double kWidestCountingShare = 0.5;

// How much slower than natively a program runs under Callgrind, at least (19x measured for a
// suite's data loading; 20-100x is usual): what a start-up costs each instrumented process.
inline constexpr double kLeastCallgrindSlowdown = 15;

// Below this much of counting's share left, the moved counts are not counted again.
inline constexpr double kLeastRecountSeconds = 30;

// The usual share of `budget` seconds.
double default_counting_share(double budget);

// A suite's start-up as the listing of its benchmarks took it natively: its wall time, and the
// CPU time (user and system) in it; 0: not known.
struct StartUp {
  double wall = 0;
  double cpu = 0;
};

// The wall time one side's Callgrind processes of a suite pay for its start-up, by the bound:
// what ran on the CPU natively runs kLeastCallgrindSlowdown times slower instrumented (a job's
// two processes one after the other), kUninstrumentedSlowdown times uninstrumented (`late`: the
// two at once, runner/instrument_on_open.hpp); the rest of the listing's wall time (waiting, or
// other programs holding the cores) once. Without its CPU time, the whole wall time is read as
// CPU time. A busy machine stretches a listing's wall time, not its CPU time: 13.8 s of CPU in
// CRoaring's listings of 17 s on a quiet machine, 21 s and 43 s on a busy one.
double start_up_bound(const StartUp& start_up, bool late);

// A counted suite as the base's listing found it.
struct SuiteStartUp {
  StartUp start_up;
  bool late = false;  // counted with late instrumentation
};

// What counting is expected to take from where it stands after the base's listings (`spent`
// seconds since it began), by the start-up bound: the base's processes, the PR's listing and
// processes (`sides`), and the base counted again (`all`: one more start-up per suite). The
// benchmarks' own time under Callgrind is not in it: not known before they run.
struct CountingEstimate {
  double sides = 0;
  double all = 0;
};
CountingEstimate estimate_counting(const std::vector<SuiteStartUp>& suites, double spent);

// Counting's share of a `budget` of seconds: the usual one, or the widest where the estimate
// overruns the usual share while both sides fit the widest. `sentence` says how the budget is
// split, for the log.
struct CountingShare {
  double seconds = 0;
  bool widened = false;
  std::string sentence;
};
CountingShare counting_share(double budget, const CountingEstimate& estimate);

// Whether the base is counted again with `left` seconds of counting's share left, when its
// processes pay `start_up` seconds (start_up_bound of the suites counted again) before the first
// benchmark: a recount cut short by the deadline tells nothing and costs what is left.
bool recount_fits(double left, double start_up);

// Whether counting the base again could change the reading of a counted benchmark whose two
// sides' counts are not the same work: not when its own counts already disagree beyond what any
// change could stand clear of (core's count check: inconclusive, its time decides), as a count
// made again only widens that disagreement.
bool recount_can_change_reading(const BenchmarkSeries& s, double threshold);

}  // namespace benchpr::runner
