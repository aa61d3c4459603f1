// fork/exec of `/bin/sh -c COMMAND` in its own process group, output through one pipe, and a
// single poll loop that enforces the timeout, reacts to interruption and never waits on output
// after the child is gone for longer than a short grace.
#include <dirent.h>
#include <fcntl.h>
#include <poll.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <set>
#include <string>
#include <system_error>
#include <vector>

#include <fmt/format.h>

#include "benchpr/core/base/valid_utf8.hpp"
#include "benchpr/exec/process.hpp"
#include "benchpr/exec/unique_fd.hpp"

extern char** environ;

namespace benchpr::exec {

namespace {

using Clock = std::chrono::steady_clock;

// Between SIGTERM and SIGKILL: time for a benchmark to flush its output and exit on its own.
constexpr auto kTermGrace = std::chrono::seconds(1);
// After the child exited, how long output still in flight is read before giving up on a writer
// that escaped the process group.
constexpr auto kDrainGrace = std::chrono::seconds(1);
// Upper bound of one poll: a safety net for missed wake-ups, and the exit check interval when no
// pidfd is available.
constexpr int kPollCapMs = 250;
constexpr int kPollCapWithoutPidfdMs = 20;
constexpr std::size_t kReadChunk = 64 * 1024;
constexpr int kMaxReadsPerWakeup = 16;  // so a chatty child cannot starve the timeout checks

// Through syscall(): Debian 12's <sys/pidfd.h> lacks extern "C", so its wrapper cannot be linked
// from C++. -1 on kernels without pidfds (then exits are noticed by polling).
int open_pidfd(pid_t pid) { return static_cast<int>(syscall(SYS_pidfd_open, pid, 0)); }

std::string error_text(int err) { return std::generic_category().message(err); }

using Fd = UniqueFd;

// Written by the child to the error pipe when it fails before exec.
struct ChildFailure {
  enum Stage : int { kChdir = 1, kStdin, kExec } stage;
  int error;
};

[[noreturn]] void report_child_failure(int error_fd, ChildFailure::Stage stage) {
  ChildFailure failure{stage, errno};
  [[maybe_unused]] ssize_t n = write(error_fd, &failure, sizeof failure);
  _exit(kNotFoundExitCode);
}

// Runs between fork and exec, so only async-signal-safe calls: the parent may have other threads.
[[noreturn]] void exec_child(const char* cwd, int output_fd, int error_fd, char* const argv[],
                             char* const envp[]) {
  setpgid(0, 0);
  // Ignored dispositions (benchpr ignores SIGPIPE) and the signal mask survive exec.
  struct sigaction default_action {};
  default_action.sa_handler = SIG_DFL;
  sigemptyset(&default_action.sa_mask);
  for (int sig : {SIGPIPE, SIGINT, SIGTERM, SIGQUIT, SIGHUP}) {
    sigaction(sig, &default_action, nullptr);
  }
  sigset_t none;
  sigemptyset(&none);
  sigprocmask(SIG_SETMASK, &none, nullptr);

  if (cwd != nullptr && chdir(cwd) != 0) report_child_failure(error_fd, ChildFailure::kChdir);
  int null_fd = open("/dev/null", O_RDONLY);
  if (null_fd < 0) report_child_failure(error_fd, ChildFailure::kStdin);
  dup2(null_fd, STDIN_FILENO);
  dup2(output_fd, STDOUT_FILENO);
  dup2(output_fd, STDERR_FILENO);
  if (null_fd > STDERR_FILENO) close(null_fd);
  // Descriptors other threads opened without O_CLOEXEC must not leak into code under test (an
  // inherited pipe end would also keep someone else's reader waiting).
  close_range(STDERR_FILENO + 1, ~0U, CLOSE_RANGE_CLOEXEC);
  execve("/bin/sh", argv, envp);
  report_child_failure(error_fd, ChildFailure::kExec);
}

std::string describe_child_failure(const ChildFailure& failure, const std::string& cwd) {
  switch (failure.stage) {
    case ChildFailure::kChdir:
      return "cannot change to directory '" + cwd + "': " + error_text(failure.error);
    case ChildFailure::kStdin:
      return "cannot open /dev/null: " + error_text(failure.error);
    case ChildFailure::kExec:
      break;
  }
  return "cannot run /bin/sh: " + error_text(failure.error);
}

void write_all(int fd, const char* data, std::size_t size) {
  while (size > 0) {
    ssize_t n = write(fd, data, size);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return;  // a full disk must not stop the measurement; the tail is still kept
    data += n;
    size -= static_cast<std::size_t>(n);
  }
}

// Everything the child prints: the head and the tail of it written to the log (the middle of a
// huge output cut, and the cut said), only the end kept in memory.
class OutputSink {
 public:
  OutputSink(int log_fd, std::size_t tail_bytes, std::size_t log_max_bytes)
      : log_fd_(log_fd),
        tail_bytes_(tail_bytes),
        log_head_bytes_(log_max_bytes / 2),
        log_tail_bytes_(log_max_bytes - log_max_bytes / 2) {}

  void append(const char* data, std::size_t size) {
    total_ += size;
    lines_ += static_cast<std::size_t>(std::count(data, data + size, '\n'));
    if (log_fd_ >= 0) log(data, size);
    if (tail_bytes_ == 0) return;
    tail_.append(data, size);
    // Trim in batches so a long output costs amortised O(1) per byte.
    if (tail_.size() > 2 * tail_bytes_ + kReadChunk) trim(tail_, tail_bytes_);
  }

  // Writes what is held back of the log's end; call once the child's output has ended.
  void finish_log() {
    if (log_fd_ < 0 || total_ == logged_) return;
    trim(log_tail_, log_tail_bytes_);
    const std::size_t cut = total_ - logged_ - log_tail_.size();
    if (cut > 0) {
      const std::string note = fmt::format(
          "\n[benchpr: {} bytes of output cut here; this log keeps the first {} and the last {} "
          "of {} bytes]\n",
          cut, logged_, log_tail_.size(), total_);
      write_all(log_fd_, note.data(), note.size());
    }
    write_all(log_fd_, log_tail_.data(), log_tail_.size());
    logged_ = total_;
    log_tail_.clear();
  }

  std::string take_tail() {
    trim(tail_, tail_bytes_);
    return std::move(tail_);
  }

  std::size_t total() const { return total_; }
  std::size_t lines() const { return lines_; }

 private:
  void log(const char* data, std::size_t size) {
    if (logged_ < log_head_bytes_ && log_tail_.empty()) {
      const std::size_t n = std::min(size, log_head_bytes_ - logged_);
      write_all(log_fd_, data, n);
      logged_ += n;
      data += n;
      size -= n;
    }
    if (size == 0) return;
    log_tail_.append(data, size);
    if (log_tail_.size() > 2 * log_tail_bytes_ + kReadChunk) trim(log_tail_, log_tail_bytes_);
  }

  static void trim(std::string& text, std::size_t keep) {
    if (text.size() > keep) text.erase(0, text.size() - keep);
  }

  int log_fd_;
  std::size_t tail_bytes_;
  std::size_t log_head_bytes_;
  std::size_t log_tail_bytes_;
  std::size_t total_ = 0;   // bytes the child printed
  std::size_t lines_ = 0;   // newlines among them
  std::size_t logged_ = 0;  // of them, written to the log
  std::string tail_;
  std::string log_tail_;  // printed after the log's head, not written yet
};

// Reads what is available; false once the pipe reached end of file (or failed).
bool read_available(int fd, OutputSink& sink) {
  std::vector<char> buffer(kReadChunk);
  for (int i = 0; i < kMaxReadsPerWakeup; ++i) {
    ssize_t n = read(fd, buffer.data(), buffer.size());
    if (n > 0) {
      sink.append(buffer.data(), static_cast<std::size_t>(n));
    } else if (n == 0) {
      return false;
    } else if (errno == EINTR) {
      continue;
    } else {
      return errno == EAGAIN || errno == EWOULDBLOCK;
    }
  }
  return true;
}

// Whether the child is a zombie, without reaping it: while it is unreaped its pid (the group id)
// cannot be reused, so killing the group afterwards cannot hit a stranger.
bool child_has_exited(pid_t pid) {
  siginfo_t info{};
  if (waitid(P_PID, static_cast<id_t>(pid), &info, WEXITED | WNOHANG | WNOWAIT) != 0) {
    return errno == ECHILD;
  }
  return info.si_pid == pid;
}

void signal_group(pid_t pid, int sig) {
  killpg(pid, sig);
  kill(pid, sig);  // in case the child moved itself to another group
}

int milliseconds_until(Clock::time_point when, Clock::time_point now) {
  if (when <= now) return 0;
  auto ms = std::chrono::ceil<std::chrono::milliseconds>(when - now).count();
  return static_cast<int>(std::min<decltype(ms)>(ms, kPollCapMs));
}

double seconds_of(const timeval& tv) {
  return static_cast<double>(tv.tv_sec) + static_cast<double>(tv.tv_usec) / 1e6;
}

// Waits for the started child while copying its output; sets timed_out/interrupted when it had to
// be killed. Returns once the child has exited and its output ended (or the drain grace passed),
// with the time the child's exit was noticed.
Clock::time_point supervise(pid_t pid, int output_fd, const ProcessSpec& spec,
                            Clock::time_point start, OutputSink& sink, ProcessResult& result) {
  Fd pidfd(open_pidfd(pid));
  const int wakeup_fd = detail::interrupt_wakeup_fd();
  const bool has_deadline = spec.timeout_seconds > 0;
  // Clamped so that an absurd timeout cannot overflow the clock's nanoseconds.
  const double timeout = has_deadline ? std::min(spec.timeout_seconds, 1e8) : 0.0;
  const auto deadline =
      start + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(timeout));

  const bool says_still_running = spec.on_still_running && spec.still_running_seconds > 0;
  const auto still_running_every = std::chrono::duration_cast<Clock::duration>(
      std::chrono::duration<double>(std::min(std::max(spec.still_running_seconds, 0.01), 1e8)));
  Clock::time_point still_running_at = start + still_running_every;

  enum class Kill { kNone, kTermSent, kKillSent } kill_stage = Kill::kNone;
  Clock::time_point term_sent_at;
  bool pipe_open = true;
  bool exited = false;
  Clock::time_point exited_at;

  for (;;) {
    auto now = Clock::now();
    if (!exited && child_has_exited(pid)) {
      exited = true;
      exited_at = now;
      // Leftovers in the group would outlive the measurement and may hold the pipe open.
      killpg(pid, SIGKILL);
    }
    Clock::time_point next_event = now + std::chrono::milliseconds(kPollCapMs);
    if (exited) {
      if (!pipe_open || now - exited_at >= kDrainGrace) return exited_at;
      next_event = exited_at + kDrainGrace;
    } else if (kill_stage == Kill::kNone) {
      if (interrupt_requested()) {
        result.interrupted = true;
      } else if (has_deadline && now >= deadline) {
        result.timed_out = true;
      }
      if (result.interrupted || result.timed_out) {
        signal_group(pid, SIGTERM);
        kill_stage = Kill::kTermSent;
        term_sent_at = now;
        next_event = now + kTermGrace;
      } else if (has_deadline) {
        next_event = deadline;
      }
    } else if (kill_stage == Kill::kTermSent) {
      if (now - term_sent_at >= kTermGrace) {
        signal_group(pid, SIGKILL);
        kill_stage = Kill::kKillSent;
      } else {
        next_event = term_sent_at + kTermGrace;
      }
    }

    if (says_still_running && !exited && kill_stage == Kill::kNone) {
      if (now >= still_running_at) {
        spec.on_still_running(std::chrono::duration<double>(now - start).count(), sink.lines());
        while (still_running_at <= now) still_running_at += still_running_every;
      }
      next_event = std::min(next_event, still_running_at);
    }
    int timeout_ms = milliseconds_until(next_event, now);
    if (pidfd.get() < 0 && !exited) timeout_ms = std::min(timeout_ms, kPollCapWithoutPidfdMs);

    pollfd fds[3];
    nfds_t count = 0;
    int output_index = -1, wakeup_index = -1;
    if (pipe_open) {
      output_index = static_cast<int>(count);
      fds[count++] = {output_fd, POLLIN, 0};
    }
    if (wakeup_fd >= 0) {
      wakeup_index = static_cast<int>(count);
      fds[count++] = {wakeup_fd, POLLIN, 0};
    }
    if (pidfd.get() >= 0 && !exited) fds[count++] = {pidfd.get(), POLLIN, 0};

    int ready = poll(fds, count, timeout_ms);
    if (ready < 0 && errno != EINTR) {
      usleep(10'000);  // should not happen; never spin
      continue;
    }
    if (ready <= 0) continue;
    if (output_index >= 0 && fds[output_index].revents != 0) {
      pipe_open = read_available(output_fd, sink);
    }
    if (wakeup_index >= 0 && fds[wakeup_index].revents != 0) detail::drain_interrupt_wakeup_fd();
  }
}

// Children of benchpr other than the one just reaped: as a subreaper, benchpr inherits every
// process the run started that outlived its parent (a daemon after setsid and a double fork).
std::vector<std::pair<pid_t, pid_t>> own_children() {  // pid, process group (0: a zombie)
  std::vector<std::pair<pid_t, pid_t>> found;
  const pid_t self = getpid();
  DIR* proc = opendir("/proc");
  if (proc == nullptr) return found;
  while (const dirent* e = readdir(proc)) {
    if (e->d_name[0] < '0' || e->d_name[0] > '9') continue;
    char path[320];
    std::snprintf(path, sizeof path, "/proc/%s/stat", e->d_name);
    const int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) continue;
    char buf[512];
    const ssize_t n = read(fd, buf, sizeof buf - 1);
    close(fd);
    if (n <= 0) continue;
    buf[n] = '\0';
    // "pid (comm) state ppid pgrp ...": comm may hold spaces and parentheses.
    const char* close_paren = std::strrchr(buf, ')');
    if (close_paren == nullptr) continue;
    char state = 0;
    int ppid = 0, pgrp = 0;
    if (std::sscanf(close_paren + 1, " %c %d %d", &state, &ppid, &pgrp) != 3) continue;
    // A zombie has already ended: it is reaped, not counted.
    if (ppid == self)
      found.emplace_back(static_cast<pid_t>(std::atoi(e->d_name)), state == 'Z' ? 0 : pgrp);
  }
  closedir(proc);
  return found;
}

// Kills and reaps what the run left behind (bounded: a fork bomb cannot keep benchpr here);
// returns how many of them had left the run's process group (the group itself was already
// killed when the run ended, so those are the ones that escaped on purpose).
int sweep_leftovers(pid_t group) {
  std::set<pid_t> seen;
  int escaped = 0;
  const auto deadline = Clock::now() + std::chrono::seconds(2);
  while (Clock::now() < deadline) {
    const auto children = own_children();
    if (children.empty()) break;
    for (const auto& [pid, pgrp] : children) {
      if (seen.insert(pid).second && pgrp != 0 && pgrp != group) ++escaped;
      kill(pid, SIGKILL);
    }
    for (const auto& child : children) {
      int status = 0;
      while (waitpid(child.first, &status, WNOHANG) < 0 && errno == EINTR) {
      }
    }
    usleep(2'000);
  }
  return escaped;
}

void record_exit(int status, const rusage& usage, ProcessResult& result) {
  if (WIFEXITED(status)) result.exit_code = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) result.signal = WTERMSIG(status);
  result.user_seconds = seconds_of(usage.ru_utime);
  result.system_seconds = seconds_of(usage.ru_stime);
  result.max_rss_kib = usage.ru_maxrss;  // kilobytes on Linux
}

ProcessResult not_started(std::string why) {
  ProcessResult result;
  result.started = false;
  result.spawn_error = std::move(why);
  return result;
}

}  // namespace

PosixProcessRunner::PosixProcessRunner() {
  // Orphans of the runs (daemons) become benchpr's children instead of init's, so the sweep
  // after each run can find and kill them.
  (void)prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
}

ProcessResult PosixProcessRunner::run(const ProcessSpec& spec) {
  if (interrupt_requested()) {
    ProcessResult result = not_started("benchpr was interrupted");
    result.interrupted = true;
    return result;
  }

  Fd log_fd;
  if (!spec.log_path.empty()) {
    log_fd.reset(open(spec.log_path.c_str(), O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644));
    if (log_fd.get() < 0) {
      return not_started("cannot open log file '" + spec.log_path + "': " + error_text(errno));
    }
  }

  // Everything the child needs is built before fork: after fork only exec-safe calls are allowed.
  std::string shell = "sh", dash_c = "-c", command = spec.command;
  std::vector<char*> argv = {shell.data(), dash_c.data(), command.data(), nullptr};
  std::vector<std::string> env = child_environment(environ, spec.scrub_env, spec.set_env);
  std::vector<char*> envp;
  envp.reserve(env.size() + 1);
  for (std::string& entry : env) envp.push_back(entry.data());
  envp.push_back(nullptr);
  const char* cwd = spec.cwd.empty() ? nullptr : spec.cwd.c_str();

  int output_pipe[2], error_pipe[2];
  if (pipe2(output_pipe, O_CLOEXEC) != 0)
    return not_started("cannot create pipe: " + error_text(errno));
  Fd output_read(output_pipe[0]), output_write(output_pipe[1]);
  if (pipe2(error_pipe, O_CLOEXEC) != 0)
    return not_started("cannot create pipe: " + error_text(errno));
  Fd error_read(error_pipe[0]), error_write(error_pipe[1]);

  const auto start = Clock::now();
  pid_t pid = fork();
  if (pid < 0) return not_started("cannot fork: " + error_text(errno));
  if (pid == 0) exec_child(cwd, output_write.get(), error_write.get(), argv.data(), envp.data());

  output_write.reset();
  error_write.reset();
  // End of file on the error pipe means exec succeeded (it is close-on-exec), and by then the
  // child has made itself a group leader.
  ChildFailure failure{};
  ssize_t n;
  do {
    n = read(error_read.get(), &failure, sizeof failure);
  } while (n < 0 && errno == EINTR);
  if (n == static_cast<ssize_t>(sizeof failure)) {
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    return not_started(describe_child_failure(failure, spec.cwd));
  }

  fcntl(output_read.get(), F_SETFL, fcntl(output_read.get(), F_GETFL) | O_NONBLOCK);
  ProcessResult result;
  OutputSink sink(log_fd.get(), spec.tail_bytes, spec.log_max_bytes);
  const auto exited_at = supervise(pid, output_read.get(), spec, start, sink, result);
  output_read.reset();  // a writer that escaped the group now gets EPIPE instead of blocking
  result.wall_seconds = std::chrono::duration<double>(exited_at - start).count();

  int status = 0;
  rusage usage{};
  pid_t reaped;
  do {
    reaped = wait4(pid, &status, 0, &usage);
  } while (reaped < 0 && errno == EINTR);
  // Fails only if someone else reaped the child (SIGCHLD ignored): then nothing is known of it.
  if (reaped == pid) record_exit(status, usage, result);
  result.leftover_processes = sweep_leftovers(pid);
  sink.finish_log();
  result.output_bytes = sink.total();
  // The child may print any bytes; what benchpr keeps of them must be text it can serialise.
  result.output_tail = valid_utf8(sink.take_tail());
  return result;
}

}  // namespace benchpr::exec
