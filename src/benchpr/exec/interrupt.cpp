// The only global state of the exec layer: the interrupt flag and its self-pipe. The flag is a
// lock-free atomic rather than a plain volatile sig_atomic_t because tests set it from another
// thread; lock-free atomics are async-signal-safe.
#include <fcntl.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <csignal>
#include <mutex>

#include "benchpr/exec/interrupt_testing.hpp"
#include "benchpr/exec/process.hpp"

namespace benchpr::exec {

namespace {

std::atomic<int> g_signal{0};
static_assert(std::atomic<int>::is_always_lock_free);

// Written before any handler is installed; read by the handler.
int g_wakeup_read = -1;
int g_wakeup_write = -1;
std::once_flag g_wakeup_once;

void ensure_wakeup_pipe() {
  std::call_once(g_wakeup_once, [] {
    int fds[2];
    if (pipe2(fds, O_CLOEXEC | O_NONBLOCK) == 0) {
      g_wakeup_read = fds[0];
      g_wakeup_write = fds[1];
    }
  });
}

void wake_up() {
  if (g_wakeup_write < 0) return;
  char byte = 1;
  // A full pipe already wakes the poll; nothing to do on EAGAIN.
  [[maybe_unused]] ssize_t n = write(g_wakeup_write, &byte, 1);
}

extern "C" void on_interrupt_signal(int sig) {
  int saved_errno = errno;
  g_signal.store(sig);
  wake_up();
  errno = saved_errno;
}

}  // namespace

void install_interrupt_handlers() {
  ensure_wakeup_pipe();
  struct sigaction action {};
  action.sa_handler = on_interrupt_signal;
  sigemptyset(&action.sa_mask);
  action.sa_flags = SA_RESTART;
  sigaction(SIGINT, &action, nullptr);
  sigaction(SIGTERM, &action, nullptr);
  // A closed terminal or SSH session: stop as cleanly as for a cancelled job.
  sigaction(SIGHUP, &action, nullptr);
  // A child or a peer closing its end must show up as EPIPE, not end benchpr.
  struct sigaction ignore {};
  ignore.sa_handler = SIG_IGN;
  sigemptyset(&ignore.sa_mask);
  sigaction(SIGPIPE, &ignore, nullptr);
}

bool interrupt_requested() { return g_signal.load() != 0; }

int interrupt_signal() { return g_signal.load(); }

void request_interrupt_for_tests(int sig) {
  ensure_wakeup_pipe();
  g_signal.store(sig);
  wake_up();
}

void clear_interrupt_for_tests() {
  g_signal.store(0);
  detail::drain_interrupt_wakeup_fd();
}

namespace detail {

int interrupt_wakeup_fd() {
  ensure_wakeup_pipe();
  return g_wakeup_read;
}

void drain_interrupt_wakeup_fd() {
  if (g_wakeup_read < 0) return;
  char buf[64];
  while (read(g_wakeup_read, buf, sizeof buf) > 0) {
  }
}

}  // namespace detail

}  // namespace benchpr::exec
