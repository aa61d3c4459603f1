#pragma once

namespace benchpr::app {

// Parses the command line and runs the command; returns the process exit code
// (0 ok, 1 a failure of the job such as posting, 2 usage or configuration errors).
int run_cli(int argc, char** argv);

}  // namespace benchpr::app
