// benchpr's work directory: the two worktrees (paths of identical length, since the path lands
// in binaries and on the stack), run outputs, logs and the results file, guarded by a lock so
// two runs on one repository never share worktrees.
#pragma once

#include <string>

#include "benchpr/core/base/error.hpp"

namespace benchpr::runner {

class WorkspaceError : public Error {
 public:
  explicit WorkspaceError(const std::string& message) : Error(ErrorCategory::Config, message) {}
};

struct Workspace {
  std::string root;
  std::string base_dir;      // root/wt/base
  std::string head_dir;      // root/wt/head (same length as base_dir)
  std::string out_dir;       // per-run result files
  std::string log_dir;       // build and run logs
  std::string results_path;  // root/results.json, rewritten after every round
  // The commit each worktree was last materialised at (root/wt/base.commit, root/wt/head.commit):
  // what a resumed comparison checks its worktrees against.
  std::string base_commit_file;
  std::string head_commit_file;
};

// Creates the directories (error names the path when it cannot).
Workspace prepare_workspace(const std::string& root);

// An exclusive flock on root/lock. Waits up to wait_seconds for another run, then throws
// WorkspaceError naming the directory and the fix.
class WorkspaceLock {
 public:
  WorkspaceLock(const std::string& root, double wait_seconds);
  ~WorkspaceLock();
  WorkspaceLock(const WorkspaceLock&) = delete;
  WorkspaceLock& operator=(const WorkspaceLock&) = delete;

 private:
  int fd_ = -1;
};

}  // namespace benchpr::runner
