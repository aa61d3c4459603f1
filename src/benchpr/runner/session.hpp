// Carries out a measuring session: build both worktrees, then run every suite for both sides in
// the planned interleaved order, persisting the results after every round so that a crash, a
// timeout or a cancelled job loses nothing already measured.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "benchpr/core/model.hpp"
#include "benchpr/exec/process.hpp"

namespace benchpr::runner {

struct SessionSetup {
  std::string base_dir;  // materialised worktrees (same path length)
  std::string head_dir;
  std::string out_dir;                     // per-run results files
  std::string log_dir;                     // build and run logs
  std::vector<std::string> persist_paths;  // results JSON rewritten here after every round
  bool skip_build = false;
  // Called once both sides built, before the first round: lets the caller fill in suites that
  // can only be known from a build (zero-config discovery of benchmark executables).
  std::function<void(Results&)> after_build;
};

// One line of progress for a human (stderr) or for the Actions log.
using ProgressFn = std::function<void(const std::string& line)>;

class Session {
 public:
  // `processes` is a seam: tests substitute a fake that returns canned results.
  Session(exec::ProcessRunner& processes, SessionSetup setup, ProgressFn progress);

  // `results` arrives with revisions, config, plan and seed set; leaves with builds, runs,
  // series, rounds_done, complete and stop_reason filled. Never throws for failures of the code
  // under test (they are recorded); throws StoreError when results cannot be persisted.
  void run(Results& results);

  // Runs the given extra rounds (already appended to results.plan) for `only` benchmarks
  // ("" = all). Used by adaptive rounds.
  void run_rounds(Results& results, int from_round);

 private:
  bool build(Results& results, Side side);
  void run_one(Results& results, const RoundPlan& round, const SuiteConfig& suite, Side side,
               int position);
  void persist(const Results& results);
  void finish_failures(Results& results);

  exec::ProcessRunner& processes_;
  SessionSetup setup_;
  ProgressFn progress_;
  double started_ = 0;
  double child_seconds_ = 0;
};

}  // namespace benchpr::runner
