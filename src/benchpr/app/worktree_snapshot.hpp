// --head WORKTREE: the working tree, uncommitted edits and untracked (not ignored) files
// included, as a commit of its own, so it is built and measured like any revision. Made with
// git's plumbing on a temporary index: the user's branch, index, stash and files stay as they are.
#pragma once

#include <string>

#include "benchpr/core/model/model.hpp"
#include "benchpr/exec/process.hpp"

namespace benchpr::app {

// The --head value that means "the working tree as it is now".
inline constexpr const char* kWorktreeRevision = "WORKTREE";
// Where the snapshot commit is kept while benchpr uses it (the next snapshot replaces it).
inline constexpr const char* kWorktreeRef = "refs/benchpr/worktree";

struct WorktreeSnapshot {
  std::string sha;       // the snapshot commit; HEAD itself when nothing is uncommitted
  std::string head_sha;  // HEAD, the snapshot's parent
  bool changed = false;  // the working tree differs from HEAD
};

// Snapshots the working tree of the repository at `directory` whose git directory is `git_dir`.
// Throws UserError when the repository has no commit yet (commit once), GitError with git's
// words when git fails or the index cannot be copied.
WorktreeSnapshot snapshot_worktree(exec::ProcessRunner& processes, const std::string& directory,
                                   const std::string& git_dir);

}  // namespace benchpr::app
