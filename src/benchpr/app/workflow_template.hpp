// The GitHub workflow `benchpr init` writes: benchpr on every pull request of the repository,
// through benchpr's composite action (action.yml at the root of benchpr's repository).
#pragma once

#include <string>
#include <string_view>

namespace benchpr::app {

// Where the composite action is published ("OWNER/NAME@REF"); docs/github.md uses the same.
inline constexpr std::string_view kActionReference = "benchpr/benchpr@main";

// .github/workflows/benchpr.yml for pull requests from branches of the same repository.
std::string pull_request_workflow_yaml();

}  // namespace benchpr::app
