#include "support/background_shell.hpp"

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <string>

namespace benchpr::testing {

BackgroundShell::BackgroundShell(const std::string& script) {
  // The destructor does not run when the test is killed (a ctest timeout, SIGTERM): without a
  // watch on the test process, CPU spinners outlived it and loaded every later test for hours.
  // The shell runs the script in the background and kills its whole group once the test is gone.
  const std::string watched = "( " + script + " ) & while kill -0 " + std::to_string(getpid()) +
                              " 2>/dev/null; do sleep 1; done; kill -s KILL 0";
  pid_ = fork();
  if (pid_ == 0) {
    setpgid(0, 0);
    execl("/bin/sh", "sh", "-c", watched.c_str(), static_cast<char*>(nullptr));
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
