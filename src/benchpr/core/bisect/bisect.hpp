// Which commit of a pull request carries its change: what to measure next along the PR's
// first-parent chain, and the attribution of each benchmark's change to steps of it. Pure: the
// runner (app/bisect_run) measures the pairs this plans, the renderer shows the attribution.
//
// Steps are judged as the main comparison judges the PR: a time step is named only when its own
// paired interval excludes 0; an instruction-count step when the exact count moves by the
// instruction threshold. See docs/bisect.md.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "benchpr/core/model/model.hpp"

namespace benchpr {

// Chains up to this many commits are measured commit by commit; longer ones are halved.
inline constexpr int kEveryCommitLimit = 8;

// A paired comparison to measure next: commits `from` < `to` of the chain.
struct BisectProbe {
  int from = 0;
  int to = 0;
};

// The next comparison the search needs, or nothing when every step it needs is measured (or
// stepped over). Short chains (kEveryCommitLimit commits or fewer): each commit against the last
// one that built. Longer ones: binary search from the main comparison, splitting a range at the
// commit nearest its middle and following the halves that changed (both, for a split change).
std::optional<BisectProbe> next_probe(const Bisection& b);

// About how many more comparisons the search will need (at least 1 while next_probe has one):
// the remaining budget is shared over them.
int probes_left_estimate(const Bisection& b);

// One step of the chain a benchmark's change is attributed to.
struct BisectStep {
  int from = 0;  // commits: to - from > 1 when the commits between did not build
  int to = 0;
  double change = kMissing;  // to/from - 1
  double ci_low = kMissing;
  double ci_high = kMissing;
  double share = kMissing;  // of the PR's whole change, in log terms (1 = all of it)
  int reverted_by = -1;     // index into the finding's steps of the step that undoes this one
  int reverts = -1;         // index of the step this one undoes
};

// A range of the chain where the search could not name a step.
struct BisectGap {
  int from = 0;
  int to = 0;
  bool measured = false;  // false: not covered (the budget ran out before it was measured)
};

// What the per-commit table shows for one benchmark at one commit.
struct BisectCell {
  enum class State { Inside, Measured, Skipped, NotMeasured };
  State state = State::NotMeasured;
  // Measured: the change since commit `since` (the previous commit measured, usually c - 1).
  int since = -1;
  double change = kMissing;
  double ci_low = kMissing;
  double ci_high = kMissing;
  bool named = false;  // a step the line names
};

struct BisectFinding {
  std::string suite;
  std::string name;
  double total = kMissing;  // the PR's change
  std::vector<BisectStep> steps;
  std::vector<BisectGap> gaps;  // changed (or unmeasured) ranges with no step named
  double rest = kMissing;       // of the total, what the named steps do not carry
  bool settled = false;         // steps named and no gap left
  // "came with `3f2c1ab Use a map for lookups` (+9.1%)", or "not settled: ...".
  std::vector<TextPart> line;
  std::vector<BisectCell> cells;  // one per commit of the chain ([0], the base, stays empty)
};

struct BisectReport {
  std::vector<BisectFinding> findings;  // one per target, in the targets' order
  std::vector<int> skipped;             // commits that did not build
  std::vector<BisectGap> not_covered;   // ranges the budget left unmeasured
  std::vector<TextPart> summary;        // how the search went, for the collapsed section
};

BisectReport attribute(const Bisection& b);

// "3f2c1ab Use a map for lookups": how a commit is named (subject cut to 60 characters).
std::string commit_label(const BisectCommit& c);

}  // namespace benchpr
