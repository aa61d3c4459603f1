#include <csignal>
#include <string>

#include "benchpr/core/base/duration.hpp"
#include "benchpr/exec/process.hpp"

namespace benchpr::exec {

std::string signal_name(int sig) {
  // A table rather than sigabbrev_np: the names are part of user-facing messages and must not
  // depend on the C library.
  switch (sig) {
    case SIGHUP:
      return "SIGHUP";
    case SIGINT:
      return "SIGINT";
    case SIGQUIT:
      return "SIGQUIT";
    case SIGILL:
      return "SIGILL";
    case SIGTRAP:
      return "SIGTRAP";
    case SIGABRT:
      return "SIGABRT";
    case SIGBUS:
      return "SIGBUS";
    case SIGFPE:
      return "SIGFPE";
    case SIGKILL:
      return "SIGKILL";
    case SIGUSR1:
      return "SIGUSR1";
    case SIGSEGV:
      return "SIGSEGV";
    case SIGUSR2:
      return "SIGUSR2";
    case SIGPIPE:
      return "SIGPIPE";
    case SIGALRM:
      return "SIGALRM";
    case SIGTERM:
      return "SIGTERM";
    case SIGXCPU:
      return "SIGXCPU";
    case SIGXFSZ:
      return "SIGXFSZ";
    case SIGSYS:
      return "SIGSYS";
    default:
      return "";
  }
}

namespace {
// Commands run under /bin/sh, which reports a child killed by signal N as exit code 128+N:
// that N, or 0 when the exit code is not such a report.
int signal_reported_by_shell(int exit_code) {
  const int sig = exit_code - kShellSignalExitBase;
  return sig > 0 && sig < 32 && !signal_name(sig).empty() ? sig : 0;
}
}  // namespace

std::optional<std::string> ProcessResult::describe_failure(double timeout_seconds) const {
  // Interruption and timeout come before the signal: benchpr sent that signal itself. An
  // interruption before the start is still an interruption, not a failure to start.
  if (interrupted) return "interrupted";
  if (!started) return "could not start: " + spawn_error;
  if (timed_out) return "timed out after " + format_duration(timeout_seconds);
  if (signal != 0) {
    std::string name = signal_name(signal);
    return "killed by signal " + std::to_string(signal) + (name.empty() ? "" : " (" + name + ")");
  }
  if (const int sig = signal_reported_by_shell(exit_code); sig != 0) {
    return "killed by signal " + std::to_string(sig) + " (" + signal_name(sig) + ")";
  }
  if (exit_code != 0) return "exit code " + std::to_string(exit_code);
  return std::nullopt;
}

FailureKind ProcessResult::failure_kind() const {
  // In the order of describe_failure, so the kind and the message always agree.
  if (interrupted) return FailureKind::Interrupted;
  if (!started) return FailureKind::NotStarted;
  if (timed_out) return FailureKind::Timeout;
  if (signal != 0 || signal_reported_by_shell(exit_code) != 0) return FailureKind::Signal;
  // 126 and 127 are the shell's "cannot execute" and "not found": nothing of the command ran.
  if (exit_code == kCannotExecuteExitCode || exit_code == kNotFoundExitCode)
    return FailureKind::NotStarted;
  if (exit_code != 0) return FailureKind::ExitCode;
  return FailureKind::None;
}

}  // namespace benchpr::exec
