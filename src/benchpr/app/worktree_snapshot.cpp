#include "benchpr/app/worktree_snapshot.hpp"

#include <filesystem>
#include <utility>
#include <vector>

#include "benchpr/app/git_remote.hpp"
#include "benchpr/app/user_error.hpp"
#include "benchpr/core/base/text.hpp"
#include "benchpr/git/repository.hpp"

namespace benchpr::app {

namespace {

using Env = std::vector<std::pair<std::string, std::string>>;

class Git {
 public:
  // `options` ("-c ..." words) go before every command.
  Git(exec::ProcessRunner& processes, std::string directory, Env env, std::string options)
      : processes_(processes),
        directory_(std::move(directory)),
        env_(std::move(env)),
        options_(std::move(options)) {}

  // The trimmed output of `git <args>`; throws GitError with git's own words on failure: the
  // repository or git failed, not the command line (exit 1, as a failed fetch).
  std::string run(const std::string& args, const std::string& what) const {
    const exec::ProcessSpec spec =
        git_process_spec(options_ + " " + args, directory_, env_, exec::kMessageTailBytes);
    const exec::ProcessResult r = processes_.run(spec);
    if (!r.ok()) {
      std::string detail(trim(r.output_tail));
      if (detail.empty()) detail = *r.describe_failure(spec.timeout_seconds);
      throw git::GitError("--head WORKTREE: cannot " + what + " (git " + args + ": " + detail +
                          ")");
    }
    return std::string(trim(r.output_tail));
  }

 private:
  exec::ProcessRunner& processes_;
  std::string directory_;
  Env env_;
  std::string options_;
};

}  // namespace

WorktreeSnapshot snapshot_worktree(exec::ProcessRunner& processes, const std::string& directory,
                                   const std::string& git_dir) {
  // The working tree may hold a pull request's files and the configuration its code wrote:
  // recording it runs none of the programs they name (clean filters, fsmonitor, hooks).
  const std::string options = no_repository_programs_options(processes, directory);
  const Git plain(processes, directory, {}, options);
  WorktreeSnapshot snap;
  try {
    snap.head_sha = plain.run("rev-parse --verify --quiet HEAD^{commit}", "find HEAD");
  } catch (const git::GitError&) {
    // The one failure that is the user's to fix.
    throw UserError(
        "--head WORKTREE: the repository has no commit yet to compare the working tree with "
        "(commit once, then run again)");
  }
  const std::string top = plain.run("rev-parse --show-toplevel", "find the working tree");

  // A private index: a copy of the user's (so unchanged files are not hashed again), then
  // `add -A` over the whole tree records edits, deletions and untracked files that no
  // .gitignore excludes. The user's index is only read.
  const std::string index = git_dir + "/benchpr-worktree.index";
  std::error_code ec;
  std::filesystem::remove(index, ec);
  const std::string user_index =
      plain.run("rev-parse --path-format=absolute --git-path index", "find the index");
  const Git git(processes, top,
                {{"GIT_INDEX_FILE", index},
                 // The snapshot is benchpr's, not the user's: no identity needed from them.
                 {"GIT_AUTHOR_NAME", "benchpr"},
                 {"GIT_AUTHOR_EMAIL", "benchpr@localhost"},
                 {"GIT_COMMITTER_NAME", "benchpr"},
                 {"GIT_COMMITTER_EMAIL", "benchpr@localhost"}},
                options);
  struct RemoveIndex {
    std::string path;
    ~RemoveIndex() {
      std::error_code ignored;
      std::filesystem::remove(path, ignored);
      std::filesystem::remove(path + ".lock", ignored);
    }
  } cleanup{index};
  if (std::filesystem::exists(user_index, ec)) {
    std::filesystem::copy_file(user_index, index, std::filesystem::copy_options::overwrite_existing,
                               ec);
    if (ec)
      throw git::GitError("--head WORKTREE: cannot copy the index " + user_index + ": " +
                          ec.message());
    // The copy keeps the index's own time: git trusts an entry's cached stat only when the file
    // is older than the index, and re-reads "racily clean" ones. A copy stamped now would make
    // a file edited within the same clock tick as the last commit (same size, same time) look
    // unchanged, and the PR side would be measured without that edit.
    const auto index_time = std::filesystem::last_write_time(user_index, ec);
    if (!ec) std::filesystem::last_write_time(index, index_time, ec);
    if (ec)
      throw git::GitError("--head WORKTREE: cannot keep the time of the index " + user_index +
                          ": " + ec.message());
  } else {
    git.run("read-tree " + snap.head_sha, "read HEAD's tree");
  }
  git.run("add -A -- .", "record the working tree");
  const std::string tree = git.run("write-tree", "write the working tree's tree");
  const std::string head_tree = plain.run("rev-parse " + snap.head_sha + "^{tree}", "read HEAD");
  if (tree == head_tree) {
    snap.sha = snap.head_sha;
    return snap;
  }
  snap.changed = true;
  snap.sha = git.run("commit-tree " + tree + " -p " + snap.head_sha + " -m " +
                         shell_quote("benchpr: working tree on top of " + short_sha(snap.head_sha)),
                     "commit the working tree");
  // A ref keeps the snapshot from garbage collection while it is measured.
  plain.run(std::string("update-ref ") + kWorktreeRef + " " + snap.sha, "keep the snapshot");
  return snap;
}

}  // namespace benchpr::app
