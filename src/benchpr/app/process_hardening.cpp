#include "benchpr/app/process_hardening.hpp"

#include <sys/prctl.h>

namespace benchpr::app {

void protect_own_environment() { (void)prctl(PR_SET_DUMPABLE, 0, 0, 0, 0); }

}  // namespace benchpr::app
