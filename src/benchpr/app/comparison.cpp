#include "benchpr/app/comparison.hpp"

#include <cstdlib>
#include <optional>
#include <stdexcept>
#include <utility>

#include "benchpr/app/actions_event.hpp"
#include "benchpr/app/user_error.hpp"
#include "benchpr/app/worktree_snapshot.hpp"
#include "benchpr/core/base/error.hpp"
#include "benchpr/core/base/text.hpp"
#include "benchpr/github/event_payload.hpp"

namespace benchpr::app {

namespace {

PullRequestInfo pull_request_info(int number, const std::string& repo, const std::string& title,
                                  const std::vector<std::string>& labels, const std::string& url) {
  PullRequestInfo info;
  info.number = number;
  info.repo = repo;
  info.title = title;
  info.labels = labels;
  info.url = url;
  return info;
}

// A shallow checkout (actions/checkout's default depth 1) lacks the base commit and the history
// a merge base needs: fetch it, or say exactly what to change in the workflow.
void ensure_history(RepoContext& ctx, const std::vector<std::string>& shas,
                    const Progress& progress) {
  const std::string fix = "set fetch-depth: 0 in the actions/checkout step";
  if (ctx.repo->is_shallow()) {
    progress.line("the checkout is shallow: fetching its history (" + fix + " to skip this)");
    const std::optional<std::string> error = ctx.remote->unshallow(ctx.remote->origin_url());
    ctx.reopen();
    if (error && ctx.repo->is_shallow()) {
      throw git::GitError("the checkout is shallow and fetching its history failed (" + *error +
                          "): " + fix);
    }
  }
  std::vector<std::string> missing;
  for (const auto& sha : shas)
    if (!ctx.has_commit(sha)) missing.push_back(sha);
  if (missing.empty()) return;
  progress.line("fetching missing commits from origin");
  const std::optional<std::string> error = ctx.remote->fetch(ctx.remote->origin_url(), missing);
  ctx.reopen();
  for (const auto& sha : missing) {
    if (!ctx.has_commit(sha)) {
      throw git::GitError("commit " + sha + " is not in the checkout at " + ctx.directory +
                          " and could not be fetched" + (error ? " (" + *error + ")" : "") + ": " +
                          fix);
    }
  }
}

// The merge base of two commits as the base side, described by `spec`. Histories without one
// (unrelated branches) are for the user to fix: exit 2, nothing measured.
RevisionInfo merge_base_revision(RepoContext& ctx, const std::string& base, const std::string& head,
                                 std::string spec) {
  std::string merge_base;
  try {
    merge_base = ctx.repo->merge_base(base, head);
  } catch (const git::GitError& e) {
    throw UserError(e.what());
  }
  RevisionInfo r = ctx.resolve(merge_base);
  r.spec = std::move(spec);
  r.merge_base = true;
  return r;
}

}  // namespace

RepoContext::RepoContext(std::string dir, exec::ProcessRunner& processes, std::string token,
                         std::string api_url)
    : RepoContext(dir, processes,
                  std::make_unique<GitRemote>(processes, dir, std::move(token), std::move(api_url)),
                  git::open_repository) {}

RepoContext::RepoContext(std::string dir, exec::ProcessRunner& processes,
                         std::unique_ptr<GitFetcher> remote, RepositoryOpener open)
    : directory(std::move(dir)),
      processes(processes),
      remote(std::move(remote)),
      open_(std::move(open)) {
  reopen();
}

void RepoContext::reopen() {
  try {
    repo = open_(directory);
  } catch (const git::GitError& e) {
    throw UserError(e.what());
  }
}

RevisionInfo RepoContext::resolve(const std::string& spec) {
  try {
    return repo->resolve(spec);
  } catch (const git::GitError& e) {
    throw UserError(e.what());
  }
}

bool RepoContext::has_commit(const std::string& sha) {
  try {
    repo->resolve(sha);
    return true;
  } catch (const git::RevisionNotFound&) {  // any other GitError is no reason to fetch: it rises
    return false;
  }
}

Comparison local_comparison(RepoContext& ctx, const RunOptions& options) {
  const bool worktree = options.head == kWorktreeRevision;
  if (options.base.empty() && !worktree) {
    throw UserError(
        "--base REV is required (the revision to compare against, e.g. main), or --pr NUMBER "
        "for a pull request");
  }
  Comparison c;
  c.base = ctx.resolve(options.base.empty() ? "HEAD" : options.base);
  if (!worktree) {
    c.head = ctx.resolve(options.head.empty() ? "HEAD" : options.head);
    return c;
  }
  const WorktreeSnapshot snap =
      snapshot_worktree(ctx.processes, ctx.directory, ctx.repo->git_dir());
  ctx.reopen();  // libgit2 sees the new commit
  c.head = ctx.resolve(snap.sha);
  c.head.spec = kWorktreeRevision;
  c.head.subject = snap.changed ? "uncommitted changes on top of " + short_sha(snap.head_sha)
                                : "the working tree (no uncommitted changes)";
  return c;
}

Comparison pull_request_comparison(RepoContext& ctx, const RunOptions& options,
                                   github::GitHubClient& client, const github::RepoSlug& slug,
                                   const Progress& progress) {
  const int n = *options.pr;
  if (n <= 0) throw UserError("--pr: expected a pull request number, got " + std::to_string(n));
  if (!options.pr_head.empty() &&
      (options.pr_head.size() != 40 ||
       options.pr_head.find_first_not_of("0123456789abcdef") != std::string::npos)) {
    throw UserError("--pr-head: expected a full commit SHA (40 lower-case hex digits), got '" +
                    options.pr_head.substr(0, 60) + "'");
  }
  const github::PullRequest pr = client.get_pull_request(slug.owner, slug.name, n);
  if (pr.head_sha.empty() || pr.base_ref.empty()) {
    throw Error(ErrorCategory::GitHub, "GitHub's answer for pull request #" + std::to_string(n) +
                                           " of " + slug.full_name() +
                                           " lacks its base branch or head commit");
  }
  // The repository's clone URL as the API reports it, never origin's: the clone's configuration
  // may have been written by an earlier pull request's code.
  if (pr.base_clone_url.empty()) {
    throw Error(ErrorCategory::GitHub,
                "GitHub's answer for pull request #" + std::to_string(n) + " of " +
                    slug.full_name() + " lacks its repository's clone URL (base.repo.clone_url)");
  }
  // /benchmark accepted the command at this head: what a push after the comment adds was not
  // what the commenter asked to run.
  if (!options.pr_head.empty() && pr.head_sha != options.pr_head) {
    throw UserError("--pr-head: pull request #" + std::to_string(n) + " is at " +
                    short_sha(pr.head_sha) + ", not " + short_sha(options.pr_head) +
                    " (pushed after the /benchmark command was accepted): nothing measured; "
                    "comment /benchmark again to measure the new head");
  }
  const bool merge = options.compare == CompareMode::Merge;
  const std::string number = std::to_string(n);
  const std::string ns = "refs/benchpr/pull/" + number + "/";
  // head.repo may be null (a deleted fork): refs/pull/N/* of the base repository always exist.
  std::vector<std::string> refspecs = {"+refs/pull/" + number + "/head:" + ns + "head",
                                       "+refs/heads/" + pr.base_ref + ":" + ns + "base"};
  if (merge) refspecs.push_back("+refs/pull/" + number + "/merge:" + ns + "merge");
  progress.line("fetching pull request #" + number + " and " + pr.base_ref + " from " +
                pr.base_clone_url);
  if (const std::optional<std::string> error = ctx.remote->fetch(pr.base_clone_url, refspecs)) {
    throw git::GitError("cannot fetch pull request #" + number + " from " + pr.base_clone_url +
                        ": " + *error +
                        (merge ? " (GitHub has no merge ref for a pull request with "
                                 "conflicts: try --compare merge-base)"
                               : ""));
  }
  ctx.reopen();
  RevisionInfo head = ctx.resolve(ns + "head");
  if (head.sha != pr.head_sha) {
    throw git::GitError("the fetched head of pull request #" + number + " is " +
                        short_sha(head.sha) + " but GitHub reports " + short_sha(pr.head_sha) +
                        ": the branch moved while benchpr fetched it; run again");
  }
  RevisionInfo base_tip = ctx.resolve(ns + "base");
  Comparison c;
  if (merge) {
    c.head = ctx.resolve(ns + "merge");
    c.head.spec = "pull/" + number + " merge";
    c.base = base_tip;
    c.base.spec = pr.base_ref;
  } else {
    c.head = head;
    c.head.spec = "pull/" + number + " head";
    c.base = merge_base_revision(ctx, base_tip.sha, head.sha, "merge base of " + pr.base_ref);
  }
  c.pull_request = pull_request_info(n, slug.full_name(), pr.title, pr.labels, pr.html_url);
  c.pull_request->head_sha = pr.head_sha;
  return c;
}

Comparison actions_comparison(RepoContext& ctx, const RunOptions& options,
                              const Progress& progress) {
  const std::string event_name = env_or_empty("GITHUB_EVENT_NAME");
  if (event_name == "pull_request_target" && !options.pull_request_target_write_token) {
    throw UserError(
        "refusing to run in a pull_request_target job: it would build and run the pull "
        "request's code with a token that can write to the repository (and its secrets in "
        "reach). Use the fork-safe pair (pull_request + workflow_run, docs/github.md), or pass "
        "--run-pr-code-with-write-token if every pull request here is trusted");
  }
  const github::PullRequestEvent event = read_actions_event(github::parse_pull_request_event);
  std::string repo = options.repo;
  if (repo.empty()) repo = event.repo_full_name;
  if (repo.empty()) repo = env_or_empty("GITHUB_REPOSITORY");
  if (!github::parse_repo_slug(repo)) {
    throw UserError("which GitHub repository? the event names none: pass --repo OWNER/NAME");
  }
  const bool merge = options.compare == CompareMode::Merge;
  const std::string number = std::to_string(event.number);
  const std::string merge_sha = env_or_empty("GITHUB_SHA");
  std::vector<std::string> needed = {event.base_sha, event.head_sha};
  if (merge && !merge_sha.empty()) needed.push_back(merge_sha);
  ensure_history(ctx, needed, progress);

  Comparison c;
  if (merge) {
    // What actions/checkout checks out for a pull_request event: refs/pull/N/merge.
    c.head = ctx.resolve(merge_sha.empty() ? std::string("HEAD") : merge_sha);
    c.head.spec = "pull/" + number + " merge";
    c.base = ctx.resolve(c.head.sha + "^1");
    c.base.spec = event.base_ref.empty() ? "base" : event.base_ref;
  } else {
    c.head = ctx.resolve(event.head_sha);
    c.head.spec = "pull/" + number + " head";
    c.base = merge_base_revision(
        ctx, event.base_sha, event.head_sha,
        "merge base of " +
            (event.base_ref.empty() ? std::string("the base branch") : event.base_ref));
  }
  c.pull_request = pull_request_info(event.number, repo, event.title, event.labels, event.html_url);
  c.pull_request->head_sha = event.head_sha;
  c.fork_with_read_only_token = event_name == "pull_request" && event.from_fork();
  return c;
}

}  // namespace benchpr::app
