// A live test (ctest label `live`): what the kernel accounts to a real child, user time apart from
// system time. It reads the machine it runs on, so it is labelled apart from the tests that
// decide on fixed inputs; `.ci/run` runs it with the rest.
#include <string>

#include <gtest/gtest.h>

#include "benchpr/exec/process.hpp"
#include "support/temp_dir.hpp"

namespace benchpr::exec {
namespace {

ProcessResult run_in_temp_dir(const std::string& command) {
  testing::TempDir dir;
  ProcessSpec s;
  s.command = command;
  s.cwd = dir.path();
  s.timeout_seconds = 60;
  PosixProcessRunner runner;
  return runner.run(s);
}

// CPU time is what command suites compare, so it must be the child's own: a shell loop spends
// its time in user space, dd copying from /dev/zero spends it in the kernel. Neither can use more
// CPU than the wall time it ran (one thread). No bound is an absolute time (a fast machine copies
// 256 MiB in 0.04 s, a busy one stretches the wall time): each process must have used some CPU,
// and the kind of time its work is made of must dominate the other kind several times over.
TEST(ExecRusageLive, SeparatesUserAndSystemTimeOfTheChild) {
  ProcessResult user = run_in_temp_dir("i=0; while [ $i -lt 300000 ]; do i=$((i+1)); done");
  ASSERT_TRUE(user.ok()) << user.describe_failure(60).value_or("");
  EXPECT_GT(user.user_seconds, 0.0);
  EXPECT_GT(user.user_seconds, 5 * user.system_seconds);
  EXPECT_LE(user.user_seconds + user.system_seconds, user.wall_seconds + 0.01);

  // 1 GiB: enough kernel work that the child's system time is many scheduler ticks on any machine.
  ProcessResult kernel =
      run_in_temp_dir("dd if=/dev/zero of=/dev/null bs=64M count=16 2>/dev/null");
  ASSERT_TRUE(kernel.ok()) << kernel.describe_failure(60).value_or("");
  EXPECT_GT(kernel.system_seconds, 0.0);
  EXPECT_GT(kernel.system_seconds, 5 * kernel.user_seconds);
  EXPECT_LE(kernel.user_seconds + kernel.system_seconds, kernel.wall_seconds + 0.01);
}

}  // namespace
}  // namespace benchpr::exec
