#include "support/background_shell.hpp"

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

namespace benchpr::testing {

BackgroundShell::BackgroundShell(const std::string& script) {
  pid_ = fork();
  if (pid_ == 0) {
    setpgid(0, 0);
    execl("/bin/sh", "sh", "-c", script.c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
  if (pid_ > 0) setpgid(pid_, pid_);  // also here: no race with the child's own call
}

BackgroundShell::~BackgroundShell() {
  if (pid_ <= 0) return;
  kill(-pid_, SIGKILL);
  waitpid(pid_, nullptr, 0);
}

}  // namespace benchpr::testing
