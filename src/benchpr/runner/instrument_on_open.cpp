#include "benchpr/runner/instrument_on_open.hpp"

#include <fcntl.h>
#include <unistd.h>
#include <filesystem>
#include <system_error>

namespace benchpr::runner {

std::optional<std::string> write_instrument_on_open(const std::string& dir) {
  const std::string_view bytes = instrument_on_open_library();
  if (bytes.empty()) return std::nullopt;
  // Absolute: the Callgrind processes run in the worktree, not in `dir`.
  std::error_code ec;
  const std::filesystem::path absolute = std::filesystem::absolute(dir, ec);
  if (ec) return std::nullopt;
  const std::string path = (absolute / "instrument-on-open.so").string();
  // O_EXCL: a file already there (planted, or left) is not written into or trusted.
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0500);
  if (fd < 0) return std::nullopt;
  std::size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
    if (n <= 0) {
      ::close(fd);
      ::unlink(path.c_str());
      return std::nullopt;
    }
    done += static_cast<std::size_t>(n);
  }
  if (::close(fd) != 0) {
    ::unlink(path.c_str());
    return std::nullopt;
  }
  return path;
}

}  // namespace benchpr::runner
