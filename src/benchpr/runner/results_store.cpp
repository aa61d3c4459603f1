#include "benchpr/runner/results_store.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

namespace benchpr::runner {

namespace {
[[noreturn]] void fail(const std::string& what, const std::string& path, int err) {
  throw StoreError(what + " " + path + ": " + std::strerror(err));
}
}  // namespace

void write_file_atomically(const std::string& path, const std::string& content) {
  std::filesystem::path target(path);
  if (target.has_parent_path()) {
    std::error_code ec;
    std::filesystem::create_directories(target.parent_path(), ec);
    if (ec) fail("cannot create the directory for", path, ec.value());
  }
  const std::string tmp = path + ".tmp." + std::to_string(getpid());
  int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) fail("cannot write", path, errno);
  const char* p = content.data();
  std::size_t left = content.size();
  while (left > 0) {
    ssize_t n = ::write(fd, p, left);
    if (n < 0) {
      if (errno == EINTR) continue;
      int err = errno;
      ::close(fd);
      ::unlink(tmp.c_str());
      fail("cannot write", path, err);
    }
    p += n;
    left -= static_cast<std::size_t>(n);
  }
  if (::fsync(fd) != 0 || ::close(fd) != 0) {
    int err = errno;
    ::unlink(tmp.c_str());
    fail("cannot write", path, err);
  }
  if (::rename(tmp.c_str(), path.c_str()) != 0) {
    int err = errno;
    ::unlink(tmp.c_str());
    fail("cannot write", path, err);
  }
}

std::string read_text_file(const std::string& path, std::size_t max_bytes) {
  // The file may have been left by the code under test: a named pipe would block open() and
  // read() forever, a link to /dev/zero would never end. Never follow a link, never block, and
  // read only a regular file, at most max_bytes of it.
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY);
  if (fd < 0) {
    const int err = errno;
    if (err == ELOOP) throw StoreError("cannot read " + path + ": a symbolic link, not a file");
    fail("cannot read", path, err);
  }
  struct Closer {
    int fd;
    ~Closer() { ::close(fd); }
  } closer{fd};
  struct stat st {};
  if (::fstat(fd, &st) != 0) fail("cannot read", path, errno);
  if (!S_ISREG(st.st_mode)) {
    const char* kind = S_ISFIFO(st.st_mode)   ? "a named pipe"
                       : S_ISDIR(st.st_mode)  ? "a directory"
                       : S_ISCHR(st.st_mode)  ? "a character device"
                       : S_ISBLK(st.st_mode)  ? "a block device"
                       : S_ISSOCK(st.st_mode) ? "a socket"
                                              : "not a regular file";
    throw StoreError("cannot read " + path + ": " + kind + ", not a regular file");
  }
  const auto too_big = [&](std::uintmax_t size) {
    return StoreError("cannot read " + path + ": the file has " + std::to_string(size) +
                      " bytes, more than the limit of " + std::to_string(max_bytes >> 20) + " MiB");
  };
  if (static_cast<std::uintmax_t>(st.st_size) > max_bytes) throw too_big(st.st_size);
  std::string content;
  content.resize(static_cast<std::size_t>(st.st_size));
  std::size_t have = 0;
  char extra[4096];
  for (;;) {
    // Reads past the size fstat gave too: the writer may still be growing the file.
    char* into = have < content.size() ? content.data() + have : extra;
    const std::size_t room = have < content.size() ? content.size() - have : sizeof extra;
    const ssize_t n = ::read(fd, into, room);
    if (n < 0) {
      if (errno == EINTR) continue;
      fail("cannot read", path, errno);
    }
    if (n == 0) break;
    if (into == extra) content.append(extra, static_cast<std::size_t>(n));
    have += static_cast<std::size_t>(n);
    if (have > max_bytes) throw too_big(have);
  }
  content.resize(have);
  return content;
}

std::optional<std::string> read_text_file_if_any(const std::string& path, std::size_t max_bytes) {
  try {
    return read_text_file(path, max_bytes);
  } catch (const StoreError&) {
    return std::nullopt;
  }
}

}  // namespace benchpr::runner
