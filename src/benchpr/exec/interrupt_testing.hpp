// A test seam for the interrupt flag (exec/interrupt.cpp): production code never sets it
// except from the signal handler, so these live apart from exec/process.hpp.
#pragma once

namespace benchpr::exec {

void request_interrupt_for_tests(int sig);  // behave as if `sig` had arrived
void clear_interrupt_for_tests();

}  // namespace benchpr::exec
