#pragma once

#include "benchpr/app/options.hpp"

namespace benchpr::app {

// `benchpr run`: compare two revisions (local, pull request or Actions event).
int run_command(const RunOptions& options);
// `benchpr publish results.json`: render (and post) from a results file; runs no code.
int publish_command(const PublishOptions& options);
// `benchpr init`: writes a commented .benchpr.yml for the project and a GitHub workflow.
int init_command(const InitOptions& options);

}  // namespace benchpr::app
