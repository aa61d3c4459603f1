// libgit2 adapter: open a repository, resolve revisions, materialise worktrees. Behind an
// interface so the runner can be tested without a repository.
#pragma once

#include <memory>
#include <optional>
#include <stdexcept>
#include <string>

#include "benchpr/core/model.hpp"

namespace benchpr::git {

// A user-facing error: the message names the thing and the fix.
class GitError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class Repository {
 public:
  virtual ~Repository() = default;
  // Resolves anything git accepts (branch, tag, SHA, HEAD~2, refs/pull/7/head) to a commit.
  // Throws GitError("revision 'x' not found in /repo: ...") when it does not exist.
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
};

// Opens the repository containing `path` (searching upwards). Throws GitError naming the path
// ("not a git repository: /x — run benchpr inside a clone or pass -C DIR").
std::unique_ptr<Repository> open_repository(const std::string& path);

}  // namespace benchpr::git
