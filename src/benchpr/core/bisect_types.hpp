// What a search for the commits behind a change measured (`bisect: auto`, `--bisect`): the pull
// request's first-parent chain and paired comparisons of some of its commits. Persisted in the
// results file (docs/results-format.md), so `benchpr publish` attributes the change from the
// measurements, never from words. Plain values; core/bisect.hpp plans and attributes.
#pragma once

#include <limits>
#include <string>
#include <vector>

#include "benchpr/core/stop_reason.hpp"

namespace benchpr {

// A commit of the chain: [0] is the comparison's base, the last is the PR's head.
struct BisectCommit {
  std::string sha;
  std::string subject;      // first line of its message (untrusted: shown as code)
  bool skipped = false;     // did not build: stepped over, like `git bisect skip`
  std::string skip_reason;  // the build's failure ("exit code 1")
};

// A benchmark the search follows: one the comparison labelled `regression` or `improvement`.
struct BisectTarget {
  std::string suite;  // as in the analysis ("micro", or "micro (instructions)" for counts)
  std::string name;
  double change = std::numeric_limits<double>::quiet_NaN();  // the whole PR's, head/base - 1
  double threshold = 0.02;  // what a step must reach to be named (exact counts only)
  bool exact = false;       // instruction counts: one exact value per commit
};

// One benchmark in a paired comparison of two commits of the chain.
struct BisectValue {
  std::string suite;
  std::string name;
  double from_value = std::numeric_limits<double>::quiet_NaN();  // the earlier commit
  double to_value = std::numeric_limits<double>::quiet_NaN();
  double change = std::numeric_limits<double>::quiet_NaN();   // to/from - 1
  double ci_low = std::numeric_limits<double>::quiet_NaN();   // 95% interval of the change;
  double ci_high = std::numeric_limits<double>::quiet_NaN();  // missing for exact counts
  int rounds = 0;                                             // analysed rounds (0: counts)
};

// One paired comparison: the commits `from` < `to` (indices into Bisection::commits), measured
// interleaved like the main comparison (or counted, for instructions).
struct BisectPair {
  int from = 0;
  int to = 0;
  double seconds = 0;   // what it cost, builds included (0 for the main comparison)
  std::string failure;  // "" or why it measured nothing (a commit did not build)
  std::vector<BisectValue> values;
};

struct Bisection {
  std::string method;  // "instructions" (exact counts) or "time" (interleaved rounds)
  std::vector<BisectCommit> commits;
  std::vector<BisectTarget> targets;
  // pairs[0] is the main comparison (base, head); the rest in the order measured.
  std::vector<BisectPair> pairs;
  double budget_seconds = 0;  // what was left of the comparison's budget for the search
  double seconds = 0;         // what the search spent
  bool complete = false;      // every step the search needed was measured
  StopReason stop;            // StepsDone, BudgetSpent, Interrupted, Void
};

}  // namespace benchpr
