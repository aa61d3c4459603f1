// `bisect: auto` / `--bisect`: after a comparison that found a regression or an improvement,
// measure the changed benchmarks on the pull request's commits (core/bisect plans which pairs)
// and keep what was measured in Results::bisect, for the comment and the results file.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "benchpr/core/model/model.hpp"
#include "benchpr/exec/process.hpp"
#include "benchpr/git/repository.hpp"
#include "benchpr/runner/workspace.hpp"

namespace benchpr::app {

struct BisectRunSetup {
  runner::Workspace workspace;  // the comparison's: its two worktrees are reused in turn
  double budget_seconds = 0;    // what is left of the comparison's budget
  bool skip_build = false;
};

// Why no search runs for this comparison (nothing when one should): nothing labelled regression
// or improvement, a pull request of one commit, a comparison that did not finish.
std::optional<std::string> bisect_not_needed(const Results& results, const Analysis& analysis,
                                             std::size_t chain_commits);

// Searches the chain and sets results.bisect (also when the budget allows no comparison, so the
// comment says what was not covered). Failures of the code under test (a commit that does not
// build) become data; an interruption ends the search with what it measured.
void run_bisection(git::Repository& repo, exec::ProcessRunner& processes, Results& results,
                   const Analysis& analysis, std::vector<BisectCommit> chain,
                   const BisectRunSetup& setup,
                   const std::function<void(const std::string&)>& progress);

// After the comparison: runs the search when it was asked for (`--bisect`, `bisect: auto`) and
// is needed, saying why when it is not, then rewrites the work directory's results file (the
// --output file is written with the report).
void bisect_after_comparison(git::Repository& repo, exec::ProcessRunner& processes,
                             Results& results, const runner::Workspace& ws, bool skip_build,
                             const std::function<void(const std::string&)>& progress);

}  // namespace benchpr::app
