#include "benchpr/app/cli.hpp"

namespace benchpr::app {
int run_cli(int, char**) { return 0; }
}  // namespace benchpr::app
