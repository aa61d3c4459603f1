// The GitHub workflows `benchpr init` writes: benchpr on every pull request of the repository,
// through benchpr's composite action (action.yml at the root of benchpr's repository), and the
// optional fork-safe pair and `/benchmark` workflow.
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

// The actions every workflow of benchpr's uses, at their current majors (all run on Node 24:
// GitHub-hosted runners no longer run Node 20 actions). The one place that names them: the
// workflows `init` writes, action.yml, the repository's workflows and docs/github.md use exactly
// these, and a test looks for any other major in all of them.
inline constexpr std::string_view kCheckoutAction = "actions/checkout@v7";
inline constexpr std::string_view kCacheRestoreAction = "actions/cache/restore@v6";
inline constexpr std::string_view kCacheSaveAction = "actions/cache/save@v6";
inline constexpr std::string_view kUploadArtifactAction = "actions/upload-artifact@v7";
inline constexpr std::string_view kDownloadArtifactAction = "actions/download-artifact@v8";
inline constexpr std::string_view kPinnedActions[] = {kCheckoutAction, kCacheRestoreAction,
                                                      kCacheSaveAction, kUploadArtifactAction,
                                                      kDownloadArtifactAction};

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
// write token: shards, the fork-safe measuring job, /benchmark's measuring job). Only then is
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
