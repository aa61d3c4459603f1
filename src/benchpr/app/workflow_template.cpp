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

}  // namespace benchpr::app
