// Child processes at the edge: benchpr runs builds and benchmarks it did not write, so every
// child gets a timeout, its own process group (killed whole), a scrubbed environment, and its
// output captured to a file with only a bounded tail kept in memory.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "benchpr/core/model/model.hpp"

namespace benchpr::exec {

// benchpr's secrets: erased from benchpr's own environment at start (the token is kept in memory)
// and never passed to a child.
const std::vector<std::string>& secret_env();

// The files through which a GitHub Actions step sets outputs, environment variables, PATH,
// state and the job summary for the steps after it. benchpr writes them itself; a child that
// inherited their names could forge a step output or plant LD_PRELOAD in a later step.
const std::vector<std::string>& actions_file_env();

// Variables never passed to any child (builds, benchmarks, git), whatever the configuration
// says: secret_env() and actions_file_env().
const std::vector<std::string>& default_scrubbed_env();

// How much of a child's output ProcessSpec::tail_bytes keeps, by what it is kept for. An output
// parsed whole is kept up to its parser's limit (formats::kMaxInputBytes).
// The last lines for a message: a failed git command, a failed probe (4 KiB).
inline constexpr std::size_t kMessageTailBytes = 4096;
// The end of a build's log, kept in the results file for a failed build (16 KiB).
inline constexpr std::size_t kBuildTailBytes = 16 * 1024;
// The end of a run's log, kept in the results file for a failed run (8 KiB).
inline constexpr std::size_t kRunTailBytes = 8 * 1024;
// A Google Benchmark listing (--benchmark_list_tests), read whole: one name a line (16 MiB).
inline constexpr std::size_t kListingBytes = 16u << 20;

struct ProcessSpec {
  std::string command;                 // run as /bin/sh -c COMMAND
  std::string cwd;                     // working directory
  double timeout_seconds = 600;        // 0 = no timeout
  std::vector<std::string> scrub_env;  // removed in addition to default_scrubbed_env()
  std::vector<std::pair<std::string, std::string>> set_env;  // added/overridden
  std::string log_path;                        // stdout+stderr appended here ("" = discard)
  std::size_t tail_bytes = kMessageTailBytes;  // how much of the output's end to keep in memory
  // The log keeps at most this much: the first and the last half, with a line saying how much
  // was cut between them (a run printing 60 MB once wrote 60 MB of log, every round).
  std::size_t log_max_bytes = 16u << 20;
  // While the process runs, `on_still_running(seconds so far, lines printed so far)` is called
  // every `still_running_seconds` (0 or no function: never), so a long silent run (a suite's
  // warm-up of hundreds of benchmarks) can say it is alive. Called on the calling thread.
  double still_running_seconds = 0;
  std::function<void(double seconds, std::size_t lines)> on_still_running;
};

struct ProcessResult {
  bool started = true;  // false: could not spawn (spawn_error says why)
  std::string spawn_error;
  int exit_code = -1;        // valid when exited normally
  int signal = 0;            // non-zero when killed by a signal
  bool timed_out = false;    // killed by benchpr after timeout_seconds
  bool interrupted = false;  // killed because benchpr itself was asked to stop
  double wall_seconds = 0;
  double user_seconds = 0;
  double system_seconds = 0;
  long max_rss_kib = 0;
  std::string output_tail;       // last tail_bytes of stdout+stderr
  std::size_t output_bytes = 0;  // all of stdout+stderr, however much was kept
  // Processes the run left running outside its process group (daemons), killed after it ended.
  int leftover_processes = 0;

  bool ok() const { return started && !timed_out && !interrupted && signal == 0 && exit_code == 0; }
  // What went wrong: "exit code 2", "killed by signal 11 (SIGSEGV)", "timed out after 5m",
  // "could not start: ..."; nothing exactly when ok().
  std::optional<std::string> describe_failure(double timeout_seconds) const;
  // The same judgement as describe_failure, as a value to decide on (None when ok()).
  FailureKind failure_kind() const;
};

// "SIGSEGV" for 11, "" for a signal without a well-known name; for failure messages.
std::string signal_name(int sig);

// The child's environment as NAME=VALUE entries: `parent` (a null-terminated environ-style array)
// minus default_scrubbed_env() and `scrub`, with `set` added or overriding. Separate from run() so
// the scrubbing can be checked without starting a process.
std::vector<std::string> child_environment(
    const char* const* parent, const std::vector<std::string>& scrub,
    const std::vector<std::pair<std::string, std::string>>& set);

// Seam so the runner can be tested with a fake that returns canned results.
class ProcessRunner {
 public:
  virtual ~ProcessRunner() = default;
  virtual ProcessResult run(const ProcessSpec& spec) = 0;
};

// The real thing: fork/exec, setpgid, poll, SIGKILL to the group on timeout or interruption.
// Whatever the child leaves running in its group is killed when it exits. With an interrupt
// already pending, run() starts nothing and returns started = false, interrupted = true.
// benchpr is made a child subreaper (PR_SET_CHILD_SUBREAPER), and after each run every process
// the run left behind, in its group or escaped from it, is killed and reaped.
class PosixProcessRunner : public ProcessRunner {
 public:
  PosixProcessRunner();
  ProcessResult run(const ProcessSpec& spec) override;
};

// Set by the signal handler when benchpr receives SIGINT/SIGTERM/SIGHUP: running children are
// killed (their whole group) and run() returns with interrupted = true.
void install_interrupt_handlers();
bool interrupt_requested();
int interrupt_signal();  // the signal received, 0 if none
// Tests set and clear the flag through exec/interrupt_testing.hpp.

// Exit codes by which /bin/sh and coreutils' `timeout` report what happened to a command.
inline constexpr int kShellSignalExitBase = 128;  // killed by signal N: exit code 128 + N
inline constexpr int kTimeoutExitCode = 124;      // `timeout` stopped the command
inline constexpr int kCannotExecuteExitCode = 126;
inline constexpr int kNotFoundExitCode = 127;

namespace detail {
// Read end of the self-pipe the interrupt handler writes to, so a poll() waiting on a child wakes
// up at once; created on first use, close-on-exec and non-blocking. Drain it before polling again.
int interrupt_wakeup_fd();
void drain_interrupt_wakeup_fd();
}  // namespace detail

}  // namespace benchpr::exec
