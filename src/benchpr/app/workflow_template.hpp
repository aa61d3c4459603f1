// The GitHub workflows `benchpr init` writes: benchpr on every pull request of the repository,
// through benchpr's composite action (action.yml at the root of benchpr's repository), and the
// optional fork-safe pair and `/benchmark` workflow. Their text is templates/workflows/*.yml,
// compiled into the binary; the functions below fill in the action references and the shards.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace benchpr::app {

// Where the composite action is published ("OWNER/NAME@REF"): the one place that names it. The
// workflow `init` writes and every snippet in docs/github.md use it (a test checks both), with
// a comment telling users to put the reference they take benchpr from. The ref is the moving
// tag of the running benchpr's major release (`v1` for 1.x.y; docs/releasing.md), so a
// workflow written by benchpr 1.4 gets every 1.x fix and never a 2.0 that changes behaviour.
// BENCHPR_VERSION_MAJOR comes from the CMake project version, the one place the version lives.
inline constexpr std::string_view kActionRepository = "benchpr/benchpr";
inline constexpr std::string_view kActionReference = "benchpr/benchpr@v" BENCHPR_VERSION_MAJOR;

// The actions every workflow of benchpr's uses, pinned by full commit SHA (a tag can be moved to
// other code; a commit cannot), with the release that commit is as a comment (`# v7.0.1`) so a
// reader and Dependabot (`init` writes its github-actions entry) know the version. The one place
// that names them: the workflows `init` writes, action.yml, the repository's workflows and the
// docs use exactly these lines, and a test refuses any `uses:` of another repository that is not
// one of them (benchpr's own action, which users point at their own OWNER/NAME@REF, aside).
// Each is the newest release of its major, that major's release tag resolved to its commit in
// the action's own repository (an annotated tag to the commit it points at), and each runs on
// node24 (`runs.using` of that commit's action.yml). docs/github.md lists them. A Dependabot
// pull request moves only the YAML files: the pin test fails until this table matches them.
struct ActionPin {
  std::string_view uses;     // "actions/checkout@<40 hex digits>"
  std::string_view version;  // the release that commit is, for the comment: "v7.0.1"
};
inline constexpr ActionPin kCheckoutPin = {
    "actions/checkout@3d3c42e5aac5ba805825da76410c181273ba90b1", "v7.0.1"};
inline constexpr ActionPin kCacheRestorePin = {
    "actions/cache/restore@27d5ce7f107fe9357f9df03efb73ab90386fccae", "v5.0.5"};
inline constexpr ActionPin kCacheSavePin = {
    "actions/cache/save@27d5ce7f107fe9357f9df03efb73ab90386fccae", "v5.0.5"};
inline constexpr ActionPin kUploadArtifactPin = {
    "actions/upload-artifact@bbbca2ddaa5d8feaa63e36b76fdaad77386f024f", "v7.0.0"};
inline constexpr ActionPin kDownloadArtifactPin = {
    "actions/download-artifact@3e5f45b2cfb9172054b4087a40e8e0b5a5461e7c", "v8.0.1"};
inline constexpr ActionPin kPinnedActions[] = {kCheckoutPin, kCacheRestorePin, kCacheSavePin,
                                               kUploadArtifactPin, kDownloadArtifactPin};
inline constexpr std::string_view kCheckoutAction = kCheckoutPin.uses;
inline constexpr std::string_view kCacheRestoreAction = kCacheRestorePin.uses;
inline constexpr std::string_view kCacheSaveAction = kCacheSavePin.uses;
inline constexpr std::string_view kUploadArtifactAction = kUploadArtifactPin.uses;
inline constexpr std::string_view kDownloadArtifactAction = kDownloadArtifactPin.uses;

// "actions/checkout@<sha>  # v7.0.1" (two spaces before the comment, as yamllint asks): the value
// of a `uses:` line as every file writes it.
std::string pinned_uses(const ActionPin& pin);

// .github/dependabot.yml with one entry: package-ecosystem github-actions, weekly, so the pins
// above (and the version comments beside them) are kept up to date by pull requests.
std::string dependabot_yaml();

// .github/workflows/benchpr.yml for pull requests from branches of the same repository.
std::string pull_request_workflow_yaml();

// The same spread over a matrix (`benchpr init --shards N`): N jobs measure a shard each and
// upload it; one job merges the shards and posts the comment.
std::string sharded_workflow_yaml(int shards);

// The fork-safe pair (`benchpr init --fork-safe`): a measuring workflow on pull_request that
// holds no write token (a matrix with a merging job when shards > 1), and a publishing workflow
// on workflow_run that holds the write token and runs no code of the pull request.
std::string fork_safe_measure_workflow_yaml(int shards);
std::string fork_safe_publish_workflow_yaml();

// The `/benchmark` comment command (`benchpr init --command`): accept, measure, publish.
std::string command_workflow_yaml();

struct WorkflowFile {
  std::string path;  // under the repository, e.g. ".github/workflows/benchpr.yml"
  std::string yaml;
};

struct WorkflowChoice {
  int shards = 0;          // > 1: measure in a matrix of this many jobs
  bool fork_safe = false;  // the measure/publish pair instead of one workflow
  bool command = false;    // also the /benchmark workflow
  // The branch pull requests go to: the cache-fill workflow runs on pushes to it.
  std::string default_branch = "main";
};

// Whether a job the choice writes restores benchpr's build from the cache (the jobs without a
// write token that run on pull_request: shards, the fork-safe measuring job; not /benchmark's
// measuring job, which runs on issue_comment in the default branch's cache scope and so uses no
// cache at all). Only then is
// the cache-fill workflow written: the plain workflow's one job holds a write token and builds
// benchpr itself, so a filled cache would go unused.
bool restores_build_cache(const WorkflowChoice& choice);

// .github/workflows/benchpr-cache.yml: on every push to the default branch, build benchpr and
// save it under the key the pull requests' jobs restore. GitHub scopes caches by branch: a
// pull request's own saves serve only that pull request, the default branch's serve all, so
// without this every pull request's first run compiles benchpr.
std::string cache_fill_workflow_yaml(const std::string& default_branch);

// Every workflow file `init` writes for the choice, in the order they are written.
std::vector<WorkflowFile> workflow_files(const WorkflowChoice& choice);

}  // namespace benchpr::app
