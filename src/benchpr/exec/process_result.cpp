#include <csignal>
#include <string>

#include "benchpr/core/duration.hpp"
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

std::string ProcessResult::describe_failure(double timeout_seconds) const {
  // Interruption and timeout come before the signal: benchpr sent that signal itself. An
  // interruption before the start is still an interruption, not a failure to start.
  if (interrupted) return "interrupted";
  if (!started) return "could not start: " + spawn_error;
  if (timed_out) return "timed out after " + format_duration(timeout_seconds);
  if (signal != 0) {
    std::string name = signal_name(signal);
    return "killed by signal " + std::to_string(signal) + (name.empty() ? "" : " (" + name + ")");
  }
  // Commands run under /bin/sh, which reports a child killed by signal N as exit code 128+N.
  if (exit_code > 128 && exit_code < 128 + 32 && !signal_name(exit_code - 128).empty()) {
    const int sig = exit_code - 128;
    return "killed by signal " + std::to_string(sig) + " (" + signal_name(sig) + ")";
  }
  if (exit_code != 0) return "exit code " + std::to_string(exit_code);
  return "";
}

}  // namespace benchpr::exec
