#include <signal.h>
#include <sys/types.h>

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "benchpr/core/base/duration.hpp"
#include "benchpr/exec/interrupt_testing.hpp"
#include "benchpr/exec/process.hpp"
#include "support/temp_dir.hpp"

namespace benchpr::exec {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;
using ::testing::Optional;
using ::testing::StartsWith;
using Clock = std::chrono::steady_clock;

// The "< 20 s" bounds below tell a child killed or left behind apart from one waited for: each
// such child sleeps 60 s or more after the moment the bound counts from, and a correct run()
// returns within a second of its timeout or interrupt, so the bound holds on any loaded machine
// and fails only for a wait.
double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// Waits (a hang guard: it ends as soon as the file is there) until `path` exists.
bool appears_within_seconds(const std::string& path, double seconds) {
  auto start = Clock::now();
  while (seconds_since(start) < seconds) {
    if (std::filesystem::exists(path)) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return false;
}

// A zombie nobody reaps (PID 1 of a container may not) still answers kill -0: look at its state.
bool process_alive(pid_t pid) {
  if (kill(pid, 0) != 0) return errno != ESRCH;
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string content((std::istreambuf_iterator<char>(stat)), std::istreambuf_iterator<char>());
  auto close_paren = content.rfind(')');
  if (close_paren == std::string::npos || close_paren + 2 >= content.size()) return false;
  char state = content[close_paren + 2];
  return state != 'Z' && state != 'X';
}

// Death after SIGKILL is asynchronous: allow it a generous moment.
bool dies_within_seconds(pid_t pid, double seconds) {
  auto start = Clock::now();
  while (seconds_since(start) < seconds) {
    if (!process_alive(pid)) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return false;
}

pid_t read_pid(const std::string& path) { return std::stoi(testing::read_file(path)); }

class ScopedEnv {
 public:
  ScopedEnv(std::string name, const std::string& value) : name_(std::move(name)) {
    setenv(name_.c_str(), value.c_str(), 1);
  }
  ~ScopedEnv() { unsetenv(name_.c_str()); }

 private:
  std::string name_;
};

class ExecProcessTest : public ::testing::Test {
 protected:
  void SetUp() override { clear_interrupt_for_tests(); }
  void TearDown() override { clear_interrupt_for_tests(); }

  ProcessSpec spec(const std::string& command) {
    ProcessSpec s;
    s.command = command;
    s.cwd = dir_.path();
    s.timeout_seconds = 60;
    return s;
  }

  // Runs `s` with its timeout, doubled up to 8 s until `ready(result)`: the child got as far as
  // the test needs (set its trap, started its grandchild) before the timeout hit it. A loaded
  // machine may not run a fresh shell's first lines within 0.3 s; each try still ends in a kill.
  template <typename Ready>
  ProcessResult run_until_ready(ProcessSpec& s, Ready ready) {
    ProcessResult r = runner_.run(s);
    while (!ready(r) && s.timeout_seconds < 8) {
      s.timeout_seconds *= 2;
      r = runner_.run(s);
    }
    return r;
  }

  testing::TempDir dir_;
  PosixProcessRunner runner_;
};

TEST_F(ExecProcessTest, SuccessfulCommandIsOk) {
  ProcessResult r = runner_.run(spec("true"));
  EXPECT_TRUE(r.started);
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_EQ(r.signal, 0);
  EXPECT_TRUE(r.ok());
  EXPECT_EQ(r.describe_failure(60), std::nullopt);
  EXPECT_GT(r.wall_seconds, 0);
}

TEST_F(ExecProcessTest, ExitCodeIsReported) {
  ProcessResult r = runner_.run(spec("exit 3"));
  EXPECT_TRUE(r.started);
  EXPECT_EQ(r.exit_code, 3);
  EXPECT_FALSE(r.ok());
  EXPECT_EQ(r.describe_failure(60), "exit code 3");
  EXPECT_EQ(r.failure_kind(), FailureKind::ExitCode);
}

TEST_F(ExecProcessTest, ShellReportsOfSignalsAndMissingCommandsHaveTheirKinds) {
  // sh reports a child killed by SIGSEGV as 139, and a command it cannot find as 127.
  ProcessResult crashed = runner_.run(spec("sh -c 'kill -SEGV $$'"));
  EXPECT_EQ(crashed.describe_failure(60), "killed by signal 11 (SIGSEGV)");
  EXPECT_EQ(crashed.failure_kind(), FailureKind::Signal);
  ProcessResult missing = runner_.run(spec("./no-such-benchmark-binary"));
  EXPECT_EQ(missing.exit_code, 127);
  EXPECT_EQ(missing.failure_kind(), FailureKind::NotStarted);
  EXPECT_EQ(runner_.run(spec("true")).failure_kind(), FailureKind::None);
}

TEST_F(ExecProcessTest, CapturesStdoutAndStderrInOrder) {
  ProcessResult r = runner_.run(spec("echo out; echo err >&2; echo again"));
  EXPECT_EQ(r.output_tail, "out\nerr\nagain\n");
}

// A long run says it is alive: the callback comes while the child runs, with the lines it has
// printed so far, and never after it ended. The child waits for a file the test writes from the
// callback, so no timing decides the outcome.
TEST_F(ExecProcessTest, ALongRunSaysItIsStillRunningWithTheLinesSoFar) {
  const std::string done = dir_ / "seen";
  ProcessSpec s = spec("echo one; echo two; while [ ! -e '" + done + "' ]; do sleep 0.05; done");
  s.timeout_seconds = 60;
  s.still_running_seconds = 0.2;
  std::vector<std::pair<double, std::size_t>> calls;
  s.on_still_running = [&](double seconds, std::size_t lines) {
    calls.emplace_back(seconds, lines);
    if (lines == 2) testing::write_file(done, "");
  };
  const ProcessResult r = runner_.run(s);
  EXPECT_TRUE(r.ok()) << r.output_tail;
  ASSERT_FALSE(calls.empty());
  EXPECT_EQ(calls.back().second, 2u);
  for (std::size_t i = 0; i < calls.size(); ++i) {
    EXPECT_GE(calls[i].first, 0.2 * static_cast<double>(i + 1) - 1e-3) << i;
    if (i > 0) {
      EXPECT_GE(calls[i].second, calls[i - 1].second);
    }
  }
  const std::size_t after_exit = calls.size();
  EXPECT_TRUE(runner_.run(spec("true")).ok());
  EXPECT_EQ(calls.size(), after_exit);  // a run without the callback never calls it
}

TEST_F(ExecProcessTest, RunsInTheWorkingDirectory) {
  testing::write_file(dir_ / "marker.txt", "here\n");
  ProcessResult r = runner_.run(spec("cat marker.txt"));
  EXPECT_EQ(r.output_tail, "here\n");
}

TEST_F(ExecProcessTest, StdinIsEmpty) {
  ProcessResult r = runner_.run(spec("wc -c"));
  EXPECT_EQ(r.output_tail, "0\n");
}

TEST_F(ExecProcessTest, TailKeepsExactlyTheLastBytesAndLogGetsAll) {
  std::string full;
  for (int i = 1; i <= 20000; ++i) full += std::to_string(i) + "\n";
  ASSERT_GT(full.size(), 100'000u);  // 108894 bytes

  ProcessSpec s = spec("seq 1 20000");
  s.tail_bytes = 1000;
  s.log_path = dir_ / "out.log";
  ProcessResult r = runner_.run(s);
  ASSERT_TRUE(r.ok()) << r.describe_failure(s.timeout_seconds).value_or("");
  EXPECT_EQ(r.output_tail.size(), 1000u);
  EXPECT_EQ(r.output_tail, full.substr(full.size() - 1000));
  EXPECT_THAT(r.output_tail, ::testing::EndsWith("19999\n20000\n"));
  EXPECT_EQ(testing::read_file(s.log_path), full);
}

TEST_F(ExecProcessTest, ZeroTailBytesKeepsNothing) {
  ProcessSpec s = spec("echo something");
  s.tail_bytes = 0;
  EXPECT_EQ(runner_.run(s).output_tail, "");
}

TEST_F(ExecProcessTest, LogFileIsAppendedNotTruncated) {
  ProcessSpec s = spec("echo first");
  s.log_path = dir_ / "append.log";
  testing::write_file(s.log_path, "previous\n");
  runner_.run(s);
  s.command = "echo second >&2";
  runner_.run(s);
  EXPECT_EQ(testing::read_file(s.log_path), "previous\nfirst\nsecond\n");
}

TEST_F(ExecProcessTest, UnwritableLogPathMeansNotStarted) {
  ProcessSpec s = spec("echo never");
  s.log_path = dir_ / "no-such-dir/out.log";
  ProcessResult r = runner_.run(s);
  EXPECT_FALSE(r.started);
  EXPECT_THAT(r.spawn_error, HasSubstr(s.log_path));
  EXPECT_EQ(r.failure_kind(), FailureKind::NotStarted);
}

TEST_F(ExecProcessTest, CrashBySignalIsDescribed) {
  ProcessResult r = runner_.run(spec("kill -SEGV $$"));
  EXPECT_TRUE(r.started);
  EXPECT_EQ(r.signal, SIGSEGV);
  EXPECT_FALSE(r.timed_out);
  EXPECT_FALSE(r.ok());
  EXPECT_EQ(r.describe_failure(60), "killed by signal 11 (SIGSEGV)");
  EXPECT_EQ(r.failure_kind(), FailureKind::Signal);
}

TEST_F(ExecProcessTest, TimeoutKillsTheWholeGroup) {
  ProcessSpec s = spec(
      "rm -f grandchild.pid; sleep 1000 >/dev/null 2>&1 & echo $! > grandchild.tmp; "
      "mv grandchild.tmp grandchild.pid; sleep 60");
  s.timeout_seconds = 0.5;
  auto start = Clock::now();
  ProcessResult r = run_until_ready(
      s, [&](const ProcessResult&) { return std::filesystem::exists(dir_ / "grandchild.pid"); });
  EXPECT_LT(seconds_since(start), 20);
  EXPECT_TRUE(r.started);
  EXPECT_TRUE(r.timed_out);
  EXPECT_FALSE(r.interrupted);
  EXPECT_FALSE(r.ok());
  EXPECT_NE(r.signal, 0);
  EXPECT_EQ(r.describe_failure(s.timeout_seconds),
            "timed out after " + format_duration(s.timeout_seconds));
  EXPECT_EQ(r.failure_kind(), FailureKind::Timeout);
  pid_t grandchild = read_pid(dir_ / "grandchild.pid");
  EXPECT_TRUE(dies_within_seconds(grandchild, 10)) << "grandchild " << grandchild << " survived";
}

TEST_F(ExecProcessTest, ChildIgnoringSigtermIsKilled) {
  ProcessSpec s = spec("trap '' TERM; echo ready; while :; do sleep 0.05; done");
  s.timeout_seconds = 0.3;
  auto start = Clock::now();
  ProcessResult r = run_until_ready(s, [](const ProcessResult& r) { return r.output_tail != ""; });
  EXPECT_LT(seconds_since(start), 20);
  EXPECT_TRUE(r.timed_out);
  EXPECT_EQ(r.signal, SIGKILL);
  EXPECT_EQ(r.output_tail, "ready\n");
}

TEST_F(ExecProcessTest, LeftoversAreKilledWhenTheChildExits) {
  ProcessResult r = runner_.run(spec("sleep 1000 >/dev/null 2>&1 & echo $! > grandchild.pid"));
  EXPECT_TRUE(r.ok()) << r.describe_failure(60).value_or("");
  pid_t grandchild = read_pid(dir_ / "grandchild.pid");
  EXPECT_TRUE(dies_within_seconds(grandchild, 10)) << "grandchild " << grandchild << " survived";
}

TEST_F(ExecProcessTest, GrandchildHoldingTheOutputOpenDoesNotHang) {
  auto start = Clock::now();
  ProcessResult r = runner_.run(spec("(sleep 60 &); echo done"));
  EXPECT_LT(seconds_since(start), 20);
  EXPECT_TRUE(r.ok()) << r.describe_failure(60).value_or("");
  EXPECT_EQ(r.output_tail, "done\n");
}

TEST_F(ExecProcessTest, WriterEscapedFromTheGroupDoesNotHang) {
  auto start = Clock::now();
  ProcessResult r = runner_.run(
      spec("setsid sh -c 'echo $$ > escaped.tmp; mv escaped.tmp escaped.pid; exec sleep 60' & "
           "until [ -e escaped.pid ]; do sleep 0.01; done; echo done"));
  double elapsed = seconds_since(start);
  pid_t escaped = read_pid(dir_ / "escaped.pid");
  kill(escaped, SIGKILL);  // out of run()'s reach by design: clean up here
  EXPECT_LT(elapsed, 20);
  EXPECT_TRUE(r.ok()) << r.describe_failure(60).value_or("");
  EXPECT_EQ(r.output_tail, "done\n");
}

TEST_F(ExecProcessTest, SecretsAreScrubbedAndSetEnvAdded) {
  ScopedEnv token("GITHUB_TOKEN", "secret-github-token");
  ScopedEnv benchpr_token("BENCHPR_TOKEN", "secret-benchpr-token");
  ScopedEnv custom("BENCHPR_TEST_CUSTOM_SECRET", "secret-custom");
  ScopedEnv kept("BENCHPR_TEST_KEPT", "kept-value");
  ScopedEnv overridden("BENCHPR_TEST_OVERRIDDEN", "old-value");

  ProcessSpec s = spec("env");
  s.scrub_env = {"BENCHPR_TEST_CUSTOM_SECRET"};
  s.set_env = {{"BENCHPR_TEST_SET", "set-value"}, {"BENCHPR_TEST_OVERRIDDEN", "new-value"}};
  s.tail_bytes = 1 << 20;
  ProcessResult r = runner_.run(s);
  ASSERT_TRUE(r.ok()) << r.describe_failure(60).value_or("");
  EXPECT_THAT(r.output_tail, Not(HasSubstr("secret")));
  EXPECT_THAT(r.output_tail, Not(HasSubstr("GITHUB_TOKEN")));
  EXPECT_THAT(r.output_tail, Not(HasSubstr("BENCHPR_TEST_CUSTOM_SECRET")));
  EXPECT_THAT(r.output_tail, HasSubstr("BENCHPR_TEST_KEPT=kept-value\n"));
  EXPECT_THAT(r.output_tail, HasSubstr("BENCHPR_TEST_SET=set-value\n"));
  EXPECT_THAT(r.output_tail, HasSubstr("BENCHPR_TEST_OVERRIDDEN=new-value\n"));
  EXPECT_THAT(r.output_tail, Not(HasSubstr("old-value")));
}

TEST(ExecEnvironmentTest, ChildEnvironmentFiltersAndOverrides) {
  const char* parent[] = {"PATH=/usr/bin", "GH_TOKEN=x",   "ACTIONS_RUNTIME_TOKEN=y", "MY_SECRET=z",
                          "KEEP=a=b",      "OVERRIDE=old", "GITHUB_TOKENISH=1",       nullptr};
  std::vector<std::string> env =
      child_environment(parent, {"MY_SECRET"}, {{"OVERRIDE", "new"}, {"ADDED", "1"}});
  EXPECT_EQ(env, (std::vector<std::string>{"PATH=/usr/bin", "KEEP=a=b", "GITHUB_TOKENISH=1",
                                           "OVERRIDE=new", "ADDED=1"}));
}

TEST(ExecEnvironmentTest, DefaultScrubListNamesTheCiSecretsAndTheActionsFiles) {
  EXPECT_THAT(
      default_scrubbed_env(),
      ::testing::UnorderedElementsAre(
          "GITHUB_TOKEN", "GH_TOKEN", "ACTIONS_RUNTIME_TOKEN", "ACTIONS_ID_TOKEN_REQUEST_TOKEN",
          "ACTIONS_ID_TOKEN_REQUEST_URL", "BENCHPR_TOKEN", "BENCHPR_TOKEN_FILE", "GITHUB_OUTPUT",
          "GITHUB_ENV", "GITHUB_PATH", "GITHUB_STATE", "GITHUB_STEP_SUMMARY"));
}

TEST_F(ExecProcessTest, MissingWorkingDirectoryMeansNotStarted) {
  ProcessSpec s = spec("echo never");
  s.cwd = dir_ / "does-not-exist";
  ProcessResult r = runner_.run(s);
  EXPECT_FALSE(r.started);
  EXPECT_FALSE(r.ok());
  EXPECT_THAT(r.spawn_error, HasSubstr(s.cwd));
  EXPECT_THAT(r.spawn_error, HasSubstr("No such file or directory"));
  EXPECT_THAT(r.describe_failure(60), Optional(StartsWith("could not start: ")));
  EXPECT_THAT(r.describe_failure(60), Optional(HasSubstr(s.cwd)));
}

TEST_F(ExecProcessTest, InterruptKillsTheRunningChild) {
  // The interrupt comes once the child runs (it says so with a file), not after a fixed delay:
  // on a loaded machine the delay can end before the child starts, and an interrupt before the
  // start means no start at all (NothingStartsOnceInterrupted).
  const std::string started = dir_ / "started";
  Clock::time_point sent;
  std::thread interrupter([&] {
    appears_within_seconds(started, 60);
    sent = Clock::now();
    request_interrupt_for_tests(SIGINT);
  });
  ProcessResult r = runner_.run(spec("touch started; sleep 60"));
  const Clock::time_point returned = Clock::now();
  interrupter.join();
  EXPECT_LT(std::chrono::duration<double>(returned - sent).count(), 20);
  EXPECT_TRUE(r.started);
  EXPECT_TRUE(r.interrupted);
  EXPECT_FALSE(r.timed_out);
  EXPECT_FALSE(r.ok());
  EXPECT_EQ(r.describe_failure(60), "interrupted");
  EXPECT_TRUE(interrupt_requested());
  EXPECT_EQ(interrupt_signal(), SIGINT);
}

TEST_F(ExecProcessTest, NothingStartsOnceInterrupted) {
  request_interrupt_for_tests(SIGTERM);
  ProcessResult r = runner_.run(spec("touch started"));
  EXPECT_FALSE(r.started);
  EXPECT_TRUE(r.interrupted);
  EXPECT_EQ(r.describe_failure(60), "interrupted");
  std::ifstream started(dir_ / "started");
  EXPECT_FALSE(started.good());
}

TEST_F(ExecProcessTest, ClearingTheInterruptAllowsRunsAgain) {
  request_interrupt_for_tests(SIGINT);
  clear_interrupt_for_tests();
  EXPECT_FALSE(interrupt_requested());
  EXPECT_EQ(interrupt_signal(), 0);
  EXPECT_TRUE(runner_.run(spec("true")).ok());
}

TEST_F(ExecProcessTest, HandlersCatchSigtermAndIgnoreSigpipe) {
  install_interrupt_handlers();
  struct sigaction current {};
  sigaction(SIGPIPE, nullptr, &current);
  EXPECT_EQ(current.sa_handler, SIG_IGN);

  raise(SIGTERM);  // without the handler this would end the test process
  EXPECT_TRUE(interrupt_requested());
  EXPECT_EQ(interrupt_signal(), SIGTERM);
}

TEST_F(ExecProcessTest, ChildDoesNotInheritIgnoredSigpipe) {
  install_interrupt_handlers();
  // SigIgn is a hex mask; bit (13 - 1) is SIGPIPE.
  ProcessResult r = runner_.run(spec("sed -n 's/^SigIgn:[[:space:]]*//p' /proc/$$/status"));
  ASSERT_TRUE(r.ok()) << r.describe_failure(60).value_or("");
  unsigned long long ignored = std::stoull(r.output_tail, nullptr, 16);
  EXPECT_EQ(ignored & (1ULL << (SIGPIPE - 1)), 0u) << r.output_tail;
}

TEST_F(ExecProcessTest, RusageReportsMemoryOfAnAllocatingProcess) {
  // dd reads into a 64 MiB buffer, touching every page of it.
  ProcessResult r = runner_.run(spec("dd if=/dev/zero of=/dev/null bs=64M count=1 2>/dev/null"));
  ASSERT_TRUE(r.ok()) << r.describe_failure(60).value_or("");
  EXPECT_GT(r.max_rss_kib, 32 * 1024);
}

TEST(ExecDescribeFailureTest, DescribesEachKindOfFailure) {
  ProcessResult r;
  r.exit_code = 2;
  EXPECT_EQ(r.describe_failure(300), "exit code 2");
  EXPECT_EQ(r.failure_kind(), FailureKind::ExitCode);

  r.exit_code = -1;
  r.signal = SIGABRT;
  EXPECT_EQ(r.describe_failure(300), "killed by signal 6 (SIGABRT)");
  r.signal = 60;  // a real-time signal without a well-known name
  EXPECT_EQ(r.describe_failure(300), "killed by signal 60");
  EXPECT_EQ(r.failure_kind(), FailureKind::Signal);

  r.signal = SIGTERM;
  r.timed_out = true;
  EXPECT_EQ(r.describe_failure(300), "timed out after 5m");
  EXPECT_EQ(r.describe_failure(90), "timed out after 1m30s");
  EXPECT_EQ(r.describe_failure(0.5), "timed out after 500ms");
  EXPECT_EQ(r.failure_kind(), FailureKind::Timeout);  // benchpr sent that signal itself

  r.timed_out = false;
  r.interrupted = true;
  EXPECT_EQ(r.describe_failure(300), "interrupted");
  EXPECT_EQ(r.failure_kind(), FailureKind::Interrupted);

  ProcessResult not_started;
  not_started.started = false;
  not_started.spawn_error = "cannot change to directory '/x': No such file or directory";
  EXPECT_EQ(not_started.describe_failure(300),
            "could not start: cannot change to directory '/x': No such file or directory");
  EXPECT_EQ(not_started.failure_kind(), FailureKind::NotStarted);
}

TEST(ExecSignalNameTest, NamesCommonCrashSignals) {
  EXPECT_EQ(signal_name(SIGSEGV), "SIGSEGV");
  EXPECT_EQ(signal_name(SIGBUS), "SIGBUS");
  EXPECT_EQ(signal_name(SIGFPE), "SIGFPE");
  EXPECT_EQ(signal_name(SIGILL), "SIGILL");
  EXPECT_EQ(signal_name(SIGKILL), "SIGKILL");
  EXPECT_EQ(signal_name(0), "");
}

}  // namespace
}  // namespace benchpr::exec

namespace benchpr::exec {
namespace {

TEST(DescribeFailure, ShellReportsAKilledChildAsExitCode128PlusSignal) {
  ProcessResult r;
  r.exit_code = 139;  // what /bin/sh -c returns when its child dies of SIGSEGV
  EXPECT_EQ(r.describe_failure(60), "killed by signal 11 (SIGSEGV)");
  r.exit_code = 134;
  EXPECT_EQ(r.describe_failure(60), "killed by signal 6 (SIGABRT)");
  EXPECT_EQ(r.failure_kind(), FailureKind::Signal);
  r.exit_code = 2;
  EXPECT_EQ(r.describe_failure(60), "exit code 2");
  EXPECT_EQ(r.failure_kind(), FailureKind::ExitCode);
  r.exit_code = 127;  // the shell did not find the command: nothing ran, nothing crashed
  EXPECT_EQ(r.describe_failure(60), "exit code 127");
  EXPECT_EQ(r.failure_kind(), FailureKind::NotStarted);
}

}  // namespace
}  // namespace benchpr::exec
