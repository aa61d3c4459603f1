// The GitHub workflow `benchpr init` writes: benchpr on every pull request of the repository,
// through benchpr's composite action (action.yml at the root of benchpr's repository).
#pragma once

#include <string>
#include <string_view>

namespace benchpr::app {

// Where the composite action is published ("OWNER/NAME@REF"): the one place that names it. The
// workflow `init` writes and every snippet in docs/github.md use it (a test checks both), with
// a comment telling users to put the reference they take benchpr from.
inline constexpr std::string_view kActionReference = "benchpr/benchpr@main";

// .github/workflows/benchpr.yml for pull requests from branches of the same repository.
std::string pull_request_workflow_yaml();

// The same spread over a matrix (`benchpr init --shards N`): N jobs measure a shard each and
// upload it; one job merges the shards and posts the comment.
std::string sharded_workflow_yaml(int shards);

}  // namespace benchpr::app
