#pragma once

#include "benchpr/app/options.hpp"

namespace benchpr::app {

// `benchpr run`: compare two revisions (local, pull request or Actions event).
int run_command(const RunOptions& options);
// `benchpr publish results.json`: render (and post) from a results file; runs no code.
int publish_command(const PublishOptions& options);

}  // namespace benchpr::app
