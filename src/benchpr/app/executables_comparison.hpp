// `benchpr run --base-exe A --head-exe B`: two built Google Benchmark executables compared the
// way `run` compares revisions (interleaved AB/BA rounds, each run from a fresh copy, the same
// time plan, statistics and comment), without git and without building anything.
#pragma once

#include "benchpr/app/options.hpp"

namespace benchpr::app {

// The whole command; throws UserError when the executables or the options do not fit.
int run_executables(const RunOptions& options);

}  // namespace benchpr::app
