#include "benchpr/app/workflow_template.hpp"

#include <utility>

namespace benchpr::app {

namespace {

// The templates are written as they are read in the workflow (GitHub's `${{ }}` untouched);
// @NAME@ stands for the action references, which live in the header.
std::string fill(std::string text, int shards = 0) {
  std::string list;
  for (int i = 1; i <= shards; ++i) list += (i > 1 ? ", " : "") + std::to_string(i);
  const std::pair<std::string_view, std::string> values[] = {
      {"@ACTION@", std::string(kActionReference)},
      {"@CHECKOUT@", pinned_uses(kCheckoutPin)},
      {"@UPLOAD@", pinned_uses(kUploadArtifactPin)},
      {"@DOWNLOAD@", pinned_uses(kDownloadArtifactPin)},
      {"@SHARDS@", std::to_string(shards)},
      {"@SHARD_LIST@", list}};
  for (const auto& [name, value] : values) {
    for (std::size_t at = text.find(name); at != std::string::npos;
         at = text.find(name, at + value.size()))
      text.replace(at, name.size(), value);
  }
  return text;
}

// The measuring jobs of a matrix: each shard uploads its results for the merging job.
constexpr const char* kShardJobs = R"(  measure:
    runs-on: ubuntu-latest
    timeout-minutes: 60
    strategy:
      fail-fast: false  # the other shards still count when one fails
      matrix:
        shard: [@SHARD_LIST@]
    steps:
      - uses: @CHECKOUT@
        with:
          fetch-depth: 0    # the base commit and the merge base are needed too
          persist-credentials: false  # v6 would keep the token in $RUNNER_TEMP, readable by PR code
      - name: Measure shard ${{ matrix.shard }} of @SHARDS@
        id: benchpr
        # benchpr's action: replace with the OWNER/NAME@REF you take benchpr from
        uses: @ACTION@
        with:
          token: ""         # a shard measures only; another job posts
          args: --shard ${{ matrix.shard }}/@SHARDS@
      - name: Keep the shard's results for the merge
        if: always()        # partial results (a timeout, a failed build) still count
        uses: @UPLOAD@
        with:
          name: benchpr-shard-${{ matrix.shard }}
          path: ${{ steps.benchpr.outputs.results }}
          if-no-files-found: error
          retention-days: 7
)";

}  // namespace

std::string pinned_uses(const ActionPin& pin) {
  return std::string(pin.uses) + "  # " + std::string(pin.version);
}

std::string dependabot_yaml() {
  return R"(# Written by `benchpr init`. Dependabot opens a pull request when an action the workflows use
# has a new release: the workflows pin each action by commit SHA with its version in a comment,
# and Dependabot updates both.
version: 2
updates:
  - package-ecosystem: github-actions
    directory: /
    schedule:
      interval: weekly
)";
}

std::string pull_request_workflow_yaml() {
  return fill(R"(# Written by `benchpr init`. benchpr builds the pull request and its base, runs the
# benchmarks of .benchpr.yml in interleaved rounds and keeps one comment on the pull request
# up to date. Pull requests from forks get a read-only token here: benchpr measures them,
# writes the job summary and posts nothing; to comment on those too, use the fork-safe pair
# (`benchpr init --fork-safe`).
name: benchmarks
on:
  pull_request:
    types: [opened, synchronize, reopened]

permissions:
  contents: read        # check out the code
  pull-requests: write  # create and update the benchpr comment
  statuses: write       # the commit status benchpr (status: "true" below)

concurrency:            # a new push cancels the run for the previous one
  group: benchpr-${{ github.event.pull_request.number }}
  cancel-in-progress: true

jobs:
  compare:
    runs-on: ubuntu-latest
    timeout-minutes: 60
    steps:
      - uses: @CHECKOUT@
        with:
          fetch-depth: 0    # the base commit and the merge base are needed too
          persist-credentials: false  # v6 would keep the token in $RUNNER_TEMP, readable by PR code
      - name: Compare base and PR
        id: benchpr
        # benchpr's action: replace with the OWNER/NAME@REF you take benchpr from (a tag or a
        # commit SHA pins the version).
        uses: @ACTION@
        with:
          fail-on: never    # or: regression (fails the job on "don't merge")
          status: "true"    # commit status benchpr on the PR head (can be a required check)
          comment: always   # or: on-change (only when some verdict is not unchanged), never
          cache: "false"    # this job holds a write token: it builds benchpr, restores no cache
)");
}

std::string sharded_workflow_yaml(int shards) {
  return fill(
      std::string(
          R"(# Written by `benchpr init --shards @SHARDS@`. @SHARDS@ jobs each build the pull request and its base
# and measure their share of the benchmarks of .benchpr.yml in interleaved rounds (both revisions
# on the same runner); one job merges the shards, so the verdicts and the recommendation are
# judged over every benchmark, and keeps one comment on the pull request up to date. Pull
# requests from forks get a read-only token here: benchpr posts nothing for them; to comment on
# those too, use the fork-safe pair (`benchpr init --fork-safe --shards @SHARDS@`).
name: benchmarks
on:
  pull_request:
    types: [opened, synchronize, reopened]

permissions:
  contents: read        # check out the code

concurrency:            # a new push cancels the run for the previous one
  group: benchpr-${{ github.event.pull_request.number }}
  cancel-in-progress: true

jobs:
)") + kShardJobs +
          R"(
  merge:
    needs: measure
    if: ${{ !cancelled() }}   # a failed shard leaves a partial comparison, still posted
    runs-on: ubuntu-latest
    permissions:
      pull-requests: write  # create and update the benchpr comment
      statuses: write       # the commit status benchpr (status: "true" below)
    steps:
      # No checkout: this job runs no code of the pull request. The shards' artifacts go under
      # RUNNER_TEMP, never the workspace: jobs that ran the pull request's code uploaded them.
      - uses: @DOWNLOAD@
        with:
          pattern: benchpr-shard-*
          path: ${{ runner.temp }}/benchpr-shards
      - name: Merge the shards
        id: merge
        # benchpr's action: replace with the OWNER/NAME@REF you take benchpr from
        uses: @ACTION@
        with:
          command: merge
          args: ${{ runner.temp }}/benchpr-shards  # every shard results file under it
          cache: "false"    # this job holds a write token: it builds benchpr, restores no cache
      - name: Post the comment
        if: ${{ !cancelled() && steps.merge.outputs.results != '' }}
        # benchpr's action: replace with the OWNER/NAME@REF you take benchpr from
        uses: @ACTION@
        with:
          command: publish
          args: ${{ steps.merge.outputs.results }}
          status: "true"    # commit status benchpr on the PR head (can be a required check)
          comment: always   # or: on-change (only when some verdict is not unchanged), never
          cache: "false"    # the build of the step before is reused
)",
      shards);
}

std::string fork_safe_measure_workflow_yaml(int shards) {
  std::string head =
      R"(# Written by `benchpr init --fork-safe`. The measuring half of the fork-safe pair: it builds
# and runs the pull request's code (from forks too) and so holds no write token; it uploads the
# results, and benchpr-publish.yml posts them. Keep `name:` in step with that file.
name: benchmarks
on:
  pull_request:
    types: [opened, synchronize, reopened]

permissions:
  contents: read        # nothing else: this workflow builds and runs untrusted code

concurrency:            # a new push cancels the run for the previous one
  group: benchpr-${{ github.event.pull_request.number }}
  cancel-in-progress: true

jobs:
)";
  if (shards > 1) {
    return fill(head + kShardJobs + R"(
  merge:
    needs: measure
    if: ${{ !cancelled() }}   # a failed shard leaves a partial comparison, still posted
    runs-on: ubuntu-latest
    steps:
      # No checkout: this job runs no code of the pull request. The shards' artifacts go under
      # RUNNER_TEMP, never the workspace: jobs that ran the pull request's code uploaded them.
      - uses: @DOWNLOAD@
        with:
          pattern: benchpr-shard-*
          path: ${{ runner.temp }}/benchpr-shards
      - name: Merge the shards
        id: merge
        # benchpr's action: replace with the OWNER/NAME@REF you take benchpr from
        uses: @ACTION@
        with:
          command: merge
          token: ""
          args: ${{ runner.temp }}/benchpr-shards  # every shard results file under it
      - name: Keep the merged results for the publishing workflow
        if: ${{ !cancelled() && steps.merge.outputs.results != '' }}
        uses: @UPLOAD@
        with:
          name: benchpr-results
          path: ${{ steps.merge.outputs.results }}
          if-no-files-found: error
          retention-days: 7
)",
                shards);
  }
  return fill(head + R"(  measure:
    runs-on: ubuntu-latest
    timeout-minutes: 60
    steps:
      - uses: @CHECKOUT@
        with:
          fetch-depth: 0
          persist-credentials: false  # v6 would keep the token in $RUNNER_TEMP, readable by PR code
      - name: Compare base and PR
        id: benchpr
        # benchpr's action: replace with the OWNER/NAME@REF you take benchpr from
        uses: @ACTION@
        with:
          token: ""         # measure only: this job must not hold a write token
      - name: Keep the results for the publishing workflow
        if: always()        # partial results (a timeout, a failed build) still count
        uses: @UPLOAD@
        with:
          name: benchpr-results
          path: ${{ steps.benchpr.outputs.results }}
          if-no-files-found: error
          retention-days: 7
)");
}

std::string fork_safe_publish_workflow_yaml() {
  return fill(
      R"(# Written by `benchpr init --fork-safe`. The publishing half of the fork-safe pair: it runs on
# the default branch after the measuring workflow, holds the write token and runs no code of the
# pull request; benchpr checks that the results name the pull request that run measured.
name: benchmarks (publish)
on:
  workflow_run:
    workflows: [benchmarks]   # the `name:` of the measuring workflow
    types: [completed]

permissions:
  actions: read          # download the artifact of the other run
  pull-requests: write   # create and update the benchpr comment
  statuses: write        # the commit status benchpr (status: "true" below)

jobs:
  publish:
    # Only runs that measured: a failed or cancelled run has nothing trustworthy to post.
    if: >-
      github.event.workflow_run.event == 'pull_request' &&
      github.event.workflow_run.conclusion == 'success'
    runs-on: ubuntu-latest
    steps:
      # No actions/checkout of the pull request here: this job must not run its code. The
      # artifact (from a run of the pull request's code) goes under RUNNER_TEMP, never the
      # workspace.
      - uses: @DOWNLOAD@
        id: download
        continue-on-error: true        # a missing artifact ends in a notice, not a red job
        with:
          name: benchpr-results
          path: ${{ runner.temp }}/benchpr-artifact
          run-id: ${{ github.event.workflow_run.id }}
          github-token: ${{ github.token }}
      - name: No results to post
        if: steps.download.outcome != 'success'
        run: echo "::notice::benchpr - the measuring run left no results artifact; nothing posted"
      - name: Post the comment
        if: steps.download.outcome == 'success'
        # benchpr's action: replace with the OWNER/NAME@REF you take benchpr from
        uses: @ACTION@
        with:
          command: publish
          args: ${{ runner.temp }}/benchpr-artifact/results.json
          status: "true"    # commit status benchpr on the PR head (can be a required check)
          fail-on: never    # or: regression (fails this job on "don't merge"; the measuring
          #                   workflow must not fail on it, or its results are never posted)
          cache: "false"    # this job holds a write token: it builds benchpr, restores no cache
)");
}

std::string command_workflow_yaml() {
  return fill(
      R"(# Written by `benchpr init --command`. `/benchmark [rounds=N] [filter=REGEX] [budget=DURATION]`
# in a pull request comment, by an owner, member or collaborator, benchmarks the pull request's
# current head against its base and updates the benchpr comment. Three jobs, so that the job
# that runs the pull request's code never holds a write token and the jobs that hold one never
# run it.
name: benchmarks (/benchmark)
on:
  issue_comment:
    types: [created]

permissions: {}

jobs:
  accept:
    # Cheap filters here; benchpr checks the command, the arguments and who wrote it.
    if: github.event.issue.pull_request && startsWith(github.event.comment.body, '/benchmark')
    runs-on: ubuntu-latest
    permissions:
      pull-requests: write  # react and reply to arguments it does not take
    outputs:
      accepted: ${{ steps.command.outputs.accepted }}
      run-args: ${{ steps.command.outputs.run-args }}
    steps:
      - name: Accept or refuse the command
        id: command
        # benchpr's action: replace with the OWNER/NAME@REF you take benchpr from
        uses: @ACTION@
        with:
          command: slash-command
          cache: "false"    # this job holds a write token: it builds benchpr, restores no cache

  measure:
    needs: accept
    if: needs.accept.outputs.accepted == 'true'
    runs-on: ubuntu-latest
    timeout-minutes: 90
    concurrency:            # a newer /benchmark on the same pull request replaces this one
      group: benchpr-command-${{ github.event.issue.number }}
      cancel-in-progress: true
    permissions:
      contents: read        # fetch the pull request
      pull-requests: read   # read it from the API
    steps:
      # The default branch; benchpr fetches the pull request itself.
      - uses: @CHECKOUT@
        with:
          fetch-depth: 0
          persist-credentials: false
      - name: Compare base and PR
        id: benchpr
        # benchpr's action: replace with the OWNER/NAME@REF you take benchpr from
        uses: @ACTION@
        with:
          # --dry-run: this job runs the pull request's code and posts nothing.
          args: ${{ needs.accept.outputs.run-args }} --dry-run
          # issue_comment runs in the default branch's cache scope, which every pull request's
          # jobs restore: a job running pull request code neither restores nor saves a cache.
          cache: "false"
      - name: Keep the results for the publishing job
        if: always()
        uses: @UPLOAD@
        with:
          name: benchpr-command-results
          path: ${{ steps.benchpr.outputs.results }}
          if-no-files-found: error
          retention-days: 7

  publish:
    needs: [accept, measure]
    if: always() && needs.accept.outputs.accepted == 'true'
    runs-on: ubuntu-latest
    concurrency:            # one comment update at a time per pull request
      group: benchpr-command-publish-${{ github.event.issue.number }}
    permissions:
      pull-requests: write  # the benchpr comment and the final reaction
      statuses: write       # the commit status benchpr
    steps:
      # The artifact (from the job that ran the pull request's code) goes under RUNNER_TEMP,
      # never the workspace.
      - uses: @DOWNLOAD@
        if: needs.measure.result == 'success'
        with:
          name: benchpr-command-results
          path: ${{ runner.temp }}/benchpr-artifact
      - name: Post the comment
        id: post
        if: needs.measure.result == 'success'
        # benchpr's action: replace with the OWNER/NAME@REF you take benchpr from
        uses: @ACTION@
        with:
          command: publish
          status: "true"
          comment: always     # asked for: post even when every benchmark is unchanged
          args: ${{ runner.temp }}/benchpr-artifact/results.json
          cache: "false"      # this job holds a write token: it builds benchpr, restores no cache
      - name: React with rocket or confused
        if: always()
        # benchpr's action: replace with the OWNER/NAME@REF you take benchpr from
        uses: @ACTION@
        with:
          command: slash-command
          args: --done ${{ steps.post.outcome == 'success' && 'success' || 'failure' }}
          cache: "false"
)");
}

bool restores_build_cache(const WorkflowChoice& choice) {
  // Not /benchmark's measuring job: on issue_comment it would use the default branch's scope.
  return choice.shards > 1 || choice.fork_safe;
}

std::string cache_fill_workflow_yaml(const std::string& default_branch) {
  std::string yaml = fill(
      R"(# Written by `benchpr init`. Builds benchpr on every push to the default branch and saves the
# build in the Actions cache under the key the pull requests' jobs restore (the action's
# version, its ref, the runner's system and a hash of its sources). GitHub scopes caches by
# branch: what a pull request's run saves serves only that pull request, what the default branch
# saves serves every pull request. So with this workflow a pull request's first run starts from
# a ready benchpr instead of compiling it for minutes. This job runs no code of any pull request.
name: benchmarks (cache)
on:
  push:
    branches: ["@BRANCH@"]
  workflow_dispatch:    # fill it by hand once, right after adding this file

permissions:
  contents: read

concurrency:            # the newest push's build is the one pull requests need
  group: benchpr-cache
  cancel-in-progress: true

jobs:
  build:
    runs-on: ubuntu-latest  # the same runner image as the pull requests' jobs: part of the key
    timeout-minutes: 30
    steps:
      # No checkout: the action builds benchpr from its own sources.
      - name: Build benchpr and save it in the cache
        # benchpr's action: replace with the OWNER/NAME@REF you take benchpr from (the same
        # reference as in the other benchpr workflows, or the key differs)
        uses: @ACTION@
        with:
          command: build
          token: ""         # builds only: posts nothing
)");
  const std::string name = "@BRANCH@";
  yaml.replace(yaml.find(name), name.size(), default_branch);
  return yaml;
}

std::vector<WorkflowFile> workflow_files(const WorkflowChoice& choice) {
  std::vector<WorkflowFile> files;
  if (choice.fork_safe) {
    files.push_back(
        {".github/workflows/benchpr.yml", fork_safe_measure_workflow_yaml(choice.shards)});
    files.push_back({".github/workflows/benchpr-publish.yml", fork_safe_publish_workflow_yaml()});
  } else {
    files.push_back({".github/workflows/benchpr.yml", choice.shards > 1
                                                          ? sharded_workflow_yaml(choice.shards)
                                                          : pull_request_workflow_yaml()});
  }
  if (choice.command)
    files.push_back({".github/workflows/benchpr-command.yml", command_workflow_yaml()});
  if (restores_build_cache(choice))
    files.push_back(
        {".github/workflows/benchpr-cache.yml", cache_fill_workflow_yaml(choice.default_branch)});
  return files;
}

}  // namespace benchpr::app
