// libgit2 adapter: open a repository, resolve revisions, materialise worktrees. Behind an
// interface so the runner can be tested without a repository.
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "benchpr/core/base/error.hpp"
#include "benchpr/core/model/model.hpp"

namespace benchpr::git {

// A user-facing error: the message names the thing and the fix.
class GitError : public Error {
 public:
  explicit GitError(const std::string& message) : Error(ErrorCategory::Git, message) {}
};

// The revision is not in the repository (it may still be fetched), as opposed to a repository
// that cannot answer, an ambiguous name or a revision that is not a commit.
class RevisionNotFound : public GitError {
 public:
  using GitError::GitError;
};

class Repository {
 public:
  virtual ~Repository() = default;
  // Resolves anything git accepts (branch, tag, SHA, HEAD~2, refs/pull/7/head) to a commit.
  // Throws RevisionNotFound("revision 'x' not found in /repo: ...") when it does not exist, and
  // GitError for every other reason it cannot resolve it.
  virtual RevisionInfo resolve(const std::string& spec) = 0;
  // Content of `path` at commit `sha`, or nullopt if the file does not exist there.
  virtual std::optional<std::string> read_file(const std::string& sha, const std::string& path) = 0;
  // Makes `dir` hold exactly the tree of `sha` (created if missing). On reuse, only files that
  // differ are rewritten (mtimes of unchanged files kept) so incremental builds stay incremental;
  // build outputs not tracked by git are left alone.
  virtual void materialise(const std::string& sha, const std::string& dir) = 0;
  // The repository's git directory (.git), where benchpr keeps its work directory by default.
  virtual std::string git_dir() const = 0;
  // The working tree root ("" for a bare repository).
  virtual std::string workdir() const = 0;
  // The best common ancestor of two commits, as a full SHA: what a pull request is compared
  // against when its base branch has moved on. Throws GitError when there is none.
  virtual std::string merge_base(const std::string& a_sha, const std::string& b_sha) = 0;
  // True for a shallow clone (the default of actions/checkout), where history may be missing.
  virtual bool is_shallow() const = 0;
  // Paths (files, symlinks, submodules) that differ between the two commits' trees, sorted;
  // tells, for example, whether a pull request edits .benchpr.yml.
  virtual std::vector<std::string> changed_paths(const std::string& base_sha,
                                                 const std::string& head_sha) = 0;
};

// Opens the repository containing `path` (searching upwards). Throws GitError naming the path
// ("not a git repository: /x (run benchpr inside a clone or pass -C DIR)").
std::unique_ptr<Repository> open_repository(const std::string& path);

// ---------------------------------------------------------------------------------------------
// Writing a snapshot of tracked files into a directory: the file-system half of materialise,
// separate from libgit2 so its safety rules can be tested with trees no git tool would create.

struct SnapshotEntry {
  enum class Kind { File, Executable, Symlink, Directory };  // Directory: a submodule, left empty
  std::string path;  // relative, '/'-separated, as in the tree
  Kind kind = Kind::File;
};

// The file beside the tracked files that records what the last snapshot wrote, so the next one
// can delete what is no longer tracked without touching untracked build outputs.
inline constexpr const char* kSnapshotManifest = ".benchpr-manifest";

// Makes `dir` hold exactly `entries`. `content(i)` gives the bytes of entries[i] (the link target
// for a symlink) and is only called for files and symlinks. Unchanged files are not rewritten;
// each written file replaces the old one atomically (temporary file + rename). Throws GitError
// before writing anything if a path is absolute, contains "." / ".." / ".git" components, or
// appears twice (hostile repositories).
void write_snapshot(const std::string& dir, const std::vector<SnapshotEntry>& entries,
                    const std::function<std::string(std::size_t)>& content);

}  // namespace benchpr::git
