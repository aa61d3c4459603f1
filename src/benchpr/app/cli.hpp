#pragma once

#include "benchpr/core/base/error.hpp"

namespace benchpr::app {

// The one place that turns an error into the exit code (README, docs/ and `run --help` list
// them): 2 for what the user fixes before anything is measured (usage, configuration, an input
// file), 1 for everything else that stops a command. Codes 3 and 4 are results (--fail-on).
int exit_code_for(ErrorCategory category);

// Parses the command line and runs the command; returns the process exit code
// (0 ok, 1 a failure of the job such as posting, 2 usage or configuration errors).
int run_cli(int argc, char** argv);

}  // namespace benchpr::app
