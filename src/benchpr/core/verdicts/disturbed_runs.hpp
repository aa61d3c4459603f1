// Processes the machine slowed as a whole. On a shared machine (a VM's stolen cycles, a
// neighbour's burst) one process now and then runs every benchmark far slower than that side's
// other processes do: on cctz, with each run's value the least time of its repetitions, 18 of
// 184 processes sat 4.6-49% above their side's others while 150 sat within 2% (median over the
// suite's benchmarks; docs/method.md, "The run's value"). Such a process is no reading
// of either revision's code. Its round adds tens of percent of noise to every benchmark of the
// suite, and its runs land in a "slower mode" whose share no test can bound: benchmarks within
// ±2% in each mode stayed open for it. Its round is left out of the suite's comparisons.
//
// The test is on levels, never on the PR's change: a process's shift is the median over the
// suite's benchmarks of how far its value sits above the median of that benchmark's values on
// the same side, so a PR that slows every benchmark moves its side's medians with it and shifts
// no process. Both sides are judged alike, and when the disturbed processes are lopsided
// between them (Fisher p <= 0.05) nothing is left out: the PR may be what slows them. Below
// that, one side's excess is left out only while it hides little of the mean time
// (kDisturbedHiddenShare), since a PR that slows a few of its own processes looks the same.
#pragma once

#include <string>
#include <vector>

#include "benchpr/core/model/model.hpp"

namespace benchpr {

// A process is disturbed when its shift exceeds the suite's median shift by this many of its
// robust SDs (1.4826 x MAD) and by at least kDisturbedFloor: at 6 robust SDs an undisturbed
// process is flagged with probability about 1e-9 under normal noise.
inline constexpr double kDisturbedRobustSds = 6;
inline constexpr double kDisturbedFloor = 0.05;  // log units: about 5%
// The shift of a process is read only when it ran at least this many of the suite's benchmarks,
// and a suite is read only with at least this many analysed rounds.
inline constexpr int kDisturbedMinBenchmarks = 5;
inline constexpr int kDisturbedMinRounds = 10;
// One side's disturbed processes beyond the other's may be that revision's doing (a PR that
// slows some of its own processes as a whole): they are left out only while what they would
// hide of the mean time (their shifts' sum over the rounds read) stays within this share of the
// threshold; the rest stay in, where the analysis sees them (method_study --bursts).
inline constexpr double kDisturbedHiddenShare = 0.25;

struct DisturbedRun {
  std::string suite;
  int round = 0;   // plan index
  int number = 0;  // analysed-round number, as people count them
  Side side = Side::Base;
  double shift = 0;  // log units above the side's other processes
};

struct DisturbedRuns {
  std::vector<DisturbedRun> runs;  // left out: their rounds are removed from the suite
  // Suites whose disturbed processes were lopsided between the sides (kept), with their counts.
  struct Kept {
    std::string suite;
    int base = 0;
    int head = 0;
  };
  std::vector<Kept> kept;
  // Suites whose disturbed processes are more one side's than the other's, though not so many
  // as to keep them all (Fisher p above 0.05): a revision that slowed some of its own processes
  // as a whole would look like this. Past the other side's count, that side's are left out only
  // while they hide at most kDisturbedHiddenShare of the threshold; the rest are kept.
  struct Uneven {
    std::string suite;
    int base = 0;  // disturbed processes found on each side
    int head = 0;
    double p = 1;       // Fisher's exact test between the sides' shares of them
    int kept = 0;       // of the heavier side's, kept in the comparison
    double hidden = 0;  // what the excess left out hides of a typical benchmark's mean time (logs)
  };
  std::vector<Uneven> uneven;
};

// On the first `rounds` analysed rounds (all of them when negative): an adaptive look reads only
// its own rounds. `hidden_share` negative leaves out every disturbed process whatever the sides'
// counts (the first version, for the method study's comparison).
DisturbedRuns disturbed_runs(const Results& results, int rounds = -1,
                             double hidden_share = kDisturbedHiddenShare);

// The results with the rounds of `runs` removed from their suites' series (both sides, so the
// rounds stay paired).
Results without_disturbed_runs(const Results& results, const DisturbedRuns& disturbed);

// Notes for the comment: what was left out and why, or why it was kept. Empty when nothing was
// found. (The method study's reading, which leaves processes out.)
std::vector<Note> disturbed_notes(const DisturbedRuns& disturbed);

// Notes for the comment of the session's reading, which leaves nothing out: the processes found
// (disturbed_runs with a negative hidden_share) are named per suite and side, kept in the
// comparison, their counts tested between the sides (Fisher): a PR that pays a one-off cost in
// some of its processes looks exactly like a machine that slowed them, and only the mean time
// over every process is what its users pay. `rounds`: the analysed rounds (processes per side).
std::vector<Note> kept_disturbance_notes(const DisturbedRuns& found, int rounds);

}  // namespace benchpr
