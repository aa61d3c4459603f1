#include "benchpr/app/workflow_template.hpp"

#include <fmt/format.h>

namespace benchpr::app {

std::string pull_request_workflow_yaml() {
  return fmt::format(
      R"(# Written by `benchpr init`. benchpr builds the pull request and its base, runs the
# benchmarks of .benchpr.yml in interleaved rounds and keeps one comment on the pull request
# up to date. Pull requests from forks get a read-only token here: benchpr measures them,
# writes the job summary and posts nothing; to comment on those too, use the fork-safe pair of
# workflows described in benchpr's docs/github.md.
name: benchmarks
on:
  pull_request:
    types: [opened, synchronize, reopened]

permissions:
  contents: read        # check out the code
  pull-requests: write  # create and update the benchpr comment
  statuses: write       # the commit status benchpr (status: "true" below)

concurrency:            # a new push cancels the run for the previous one
  group: benchpr-${{{{ github.event.pull_request.number }}}}
  cancel-in-progress: true

jobs:
  compare:
    runs-on: ubuntu-latest
    timeout-minutes: 60
    steps:
      - uses: actions/checkout@v4
        with:
          fetch-depth: 0    # the base commit and the merge base are needed too
          persist-credentials: false  # no token in .git/config for the PR's build to read
      - name: Compare base and PR
        id: benchpr
        # benchpr's action: replace with the OWNER/NAME@REF you take benchpr from (a tag or a
        # commit SHA pins the version).
        uses: {}
        with:
          fail-on: never    # or: regression (fails the job on "don't merge")
          status: "true"    # commit status benchpr on the PR head (can be a required check)
          comment: always   # or: on-change (only when some verdict is not unchanged), never
)",
      kActionReference);
}

std::string sharded_workflow_yaml(int shards) {
  std::string list;
  for (int i = 1; i <= shards; ++i) list += (i > 1 ? ", " : "") + std::to_string(i);
  return fmt::format(
      R"(# Written by `benchpr init --shards {0}`. {0} jobs each build the pull request and its base
# and measure their share of the benchmarks of .benchpr.yml in interleaved rounds (both revisions
# on the same runner); one job merges the shards, so the verdicts and the recommendation are
# judged over every benchmark, and keeps one comment on the pull request up to date. Pull
# requests from forks get a read-only token here: to comment on those too, use the fork-safe
# variant in benchpr's docs/github.md.
name: benchmarks
on:
  pull_request:
    types: [opened, synchronize, reopened]

permissions:
  contents: read        # check out the code

concurrency:            # a new push cancels the run for the previous one
  group: benchpr-${{{{ github.event.pull_request.number }}}}
  cancel-in-progress: true

jobs:
  measure:
    runs-on: ubuntu-latest
    timeout-minutes: 60
    strategy:
      fail-fast: false  # the other shards still count when one fails
      matrix:
        shard: [{1}]
    steps:
      - uses: actions/checkout@v4
        with:
          fetch-depth: 0    # the base commit and the merge base are needed too
          persist-credentials: false  # no token in .git/config for the PR's build to read
      - name: Measure shard ${{{{ matrix.shard }}}} of {0}
        id: benchpr
        # benchpr's action: replace with the OWNER/NAME@REF you take benchpr from
        uses: {2}
        with:
          token: ""         # a shard measures only; the merge job posts
          args: --shard ${{{{ matrix.shard }}}}/{0}
      - name: Keep the shard's results for the merge
        if: always()        # partial results (a timeout, a failed build) still count
        uses: actions/upload-artifact@v4
        with:
          name: benchpr-shard-${{{{ matrix.shard }}}}
          path: ${{{{ steps.benchpr.outputs.results }}}}
          if-no-files-found: error
          retention-days: 7

  merge:
    needs: measure
    if: ${{{{ !cancelled() }}}}   # a failed shard leaves a partial comparison, still posted
    runs-on: ubuntu-latest
    permissions:
      pull-requests: write  # create and update the benchpr comment
      statuses: write       # the commit status benchpr (status: "true" below)
    steps:
      # No checkout: this job runs no code of the pull request.
      - uses: actions/download-artifact@v4
        with:
          pattern: benchpr-shard-*
          path: shards
      - name: Merge the shards
        id: merge
        # benchpr's action: replace with the OWNER/NAME@REF you take benchpr from
        uses: {2}
        with:
          command: merge
          args: shards      # every shard results file under this directory
      - name: Post the comment
        if: ${{{{ !cancelled() && steps.merge.outputs.results != '' }}}}
        # benchpr's action: replace with the OWNER/NAME@REF you take benchpr from
        uses: {2}
        with:
          command: publish
          args: ${{{{ steps.merge.outputs.results }}}}
          status: "true"    # commit status benchpr on the PR head (can be a required check)
          comment: always   # or: on-change (only when some verdict is not unchanged), never
)",
      shards, list, kActionReference);
}

}  // namespace benchpr::app
