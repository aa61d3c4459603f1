#pragma once

#include "benchpr/core/model/model.hpp"

namespace benchpr::runner {

// CPU model (/proc/cpuinfo), cores, kernel (uname) and the compiler that built benchpr.
MachineInfo read_machine_info();

}  // namespace benchpr::runner
