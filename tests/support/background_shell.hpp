// A shell script run in the background for the length of a scope, in its own process group so
// everything it starts (CPU spinners, load that switches on and off) is killed with it: the
// neighbours on a shared runner that the busy- and noisy-machine tests measure beside.
#pragma once

#include <sys/types.h>

#include <string>

namespace benchpr::testing {

class BackgroundShell {
 public:
  explicit BackgroundShell(const std::string& script);
  ~BackgroundShell();
  BackgroundShell(const BackgroundShell&) = delete;
  BackgroundShell& operator=(const BackgroundShell&) = delete;

 private:
  pid_t pid_ = -1;
};

}  // namespace benchpr::testing
