#include "benchpr/runner/workspace.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <thread>

namespace benchpr::runner {

namespace fs = std::filesystem;

namespace {
void make_dir(const std::string& path) {
  std::error_code ec;
  fs::create_directories(path, ec);
  if (ec) {
    throw WorkspaceError("cannot create the work directory " + path + ": " + ec.message() +
                         " (pass --workdir DIR with a writable directory)");
  }
  if (::access(path.c_str(), W_OK) != 0) {
    throw WorkspaceError("the work directory " + path + " is not writable: " +
                         std::strerror(errno) + " (pass --workdir DIR with a writable directory)");
  }
}
}  // namespace

Workspace prepare_workspace(const std::string& root) {
  Workspace w;
  w.root = fs::absolute(root).lexically_normal().string();
  while (w.root.size() > 1 && w.root.back() == '/') w.root.pop_back();
  w.base_dir = w.root + "/wt/base";
  w.head_dir = w.root + "/wt/head";
  w.out_dir = w.root + "/out";
  w.log_dir = w.root + "/logs";
  w.results_path = w.root + "/results.json";
  w.base_commit_file = w.root + "/wt/base.commit";
  w.head_commit_file = w.root + "/wt/head.commit";
  for (const auto& d : {w.root, w.base_dir, w.head_dir, w.out_dir, w.log_dir}) make_dir(d);
  return w;
}

WorkspaceLock::WorkspaceLock(const std::string& root, double wait_seconds) {
  const std::string path = root + "/lock";
  fd_ = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (fd_ < 0) {
    throw WorkspaceError("cannot create the lock file " + path + ": " + std::strerror(errno) +
                         " (pass --workdir DIR with a writable directory)");
  }
  const auto deadline =
      std::chrono::steady_clock::now() + std::chrono::duration<double>(wait_seconds);
  while (::flock(fd_, LOCK_EX | LOCK_NB) != 0) {
    if (errno != EWOULDBLOCK && errno != EINTR) {
      ::close(fd_);
      throw WorkspaceError("cannot lock " + path + ": " + std::strerror(errno));
    }
    if (std::chrono::steady_clock::now() >= deadline) {
      ::close(fd_);
      fd_ = -1;
      throw WorkspaceError("another benchpr run is using the work directory " + root +
                           " (wait for it to finish, or pass --workdir DIR for a separate one)");
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
  }
}

WorkspaceLock::~WorkspaceLock() {
  if (fd_ >= 0) ::close(fd_);  // closing releases the flock
}

}  // namespace benchpr::runner
