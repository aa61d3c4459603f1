#include "benchpr/runner/machine_info.hpp"

#include <sys/utsname.h>

#include <fstream>
#include <string>
#include <thread>

namespace benchpr::runner {

MachineInfo read_machine_info() {
  MachineInfo m;
  std::ifstream cpuinfo("/proc/cpuinfo");
  for (std::string line; std::getline(cpuinfo, line);) {
    if (line.rfind("model name", 0) == 0) {
      auto colon = line.find(':');
      if (colon != std::string::npos) {
        m.cpu = line.substr(line.find_first_not_of(" \t", colon + 1));
        break;
      }
    }
  }
  m.cores = static_cast<int>(std::thread::hardware_concurrency());
  utsname u{};
  if (uname(&u) == 0) m.kernel = std::string(u.sysname) + " " + u.release;
#if defined(__clang__)
  m.compiler = "clang " __clang_version__;
#elif defined(__GNUC__)
  m.compiler = "g++ " __VERSION__;
#endif
  return m;
}

}  // namespace benchpr::runner
