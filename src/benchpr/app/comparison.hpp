// What a run compares: two revisions, and the pull request they belong to when there is one.
// Three ways to get there: local revisions (--base/--head), a pull request by number (--pr, asks
// the API and fetches from the clone URL it reports), or the pull_request event of a GitHub Actions
// job.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "benchpr/app/git_remote.hpp"
#include "benchpr/app/options.hpp"
#include "benchpr/app/progress.hpp"
#include "benchpr/core/model/model.hpp"
#include "benchpr/git/repository.hpp"
#include "benchpr/github/github_client.hpp"
#include "benchpr/github/repo_slug.hpp"

namespace benchpr::app {

struct Comparison {
  RevisionInfo base;
  RevisionInfo head;
  std::optional<PullRequestInfo> pull_request;
  // A `pull_request` event from a fork (or a deleted one): the job's token is read-only, so
  // posting would only fail. The fork-safe pair of workflows posts for these.
  bool fork_with_read_only_token = false;
};

// Opens the repository at a directory (git::open_repository for every real run).
using RepositoryOpener = std::function<std::unique_ptr<git::Repository>(const std::string&)>;

// The repository a run works in, reopened after git fetches so libgit2 sees the new refs.
struct RepoContext {
  // The real repository and remotes: libgit2, and the git command line for fetches. `api_url`:
  // the GitHub API whose git host alone may receive `token`.
  RepoContext(std::string directory, exec::ProcessRunner& processes, std::string token,
              std::string api_url);
  // The seams: tests pass a fake repository and fetcher.
  RepoContext(std::string directory, exec::ProcessRunner& processes,
              std::unique_ptr<GitFetcher> remote, RepositoryOpener open);
  void reopen();
  // resolve() that turns "not found" into UserError.
  RevisionInfo resolve(const std::string& spec);
  bool has_commit(const std::string& sha);

  std::string directory;
  exec::ProcessRunner& processes;
  std::unique_ptr<GitFetcher> remote;
  std::unique_ptr<git::Repository> repo;

 private:
  RepositoryOpener open_;
};

// --base/--head; `--head WORKTREE` snapshots the working tree as a commit (base then defaults
// to HEAD).
Comparison local_comparison(RepoContext& ctx, const RunOptions& options);

// --pr N: GET the pull request, fetch refs/pull/N/head (or /merge) and the base branch from
// the repository's clone URL the API reports (not origin) into refs/benchpr/pull/N/*, check the
// fetched head is the one GitHub reports.
Comparison pull_request_comparison(RepoContext& ctx, const RunOptions& options,
                                   github::GitHubClient& client, const github::RepoSlug& slug,
                                   const Progress& progress);

// Inside GitHub Actions: the pull_request event at $GITHUB_EVENT_PATH, compared in the workspace
// checkout (its missing history is fetched when the checkout is shallow). A pull_request_target
// event is refused unless options.pull_request_target_write_token.
Comparison actions_comparison(RepoContext& ctx, const RunOptions& options,
                              const Progress& progress);

}  // namespace benchpr::app
