#include "benchpr/app/token_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>

#include <fmt/format.h>

#include "benchpr/app/process_hardening.hpp"
#include "benchpr/app/user_error.hpp"
#include "benchpr/core/base/text.hpp"
#include "benchpr/exec/process.hpp"
#include "benchpr/exec/unique_fd.hpp"
#include "benchpr/github/github_client.hpp"

namespace benchpr::app {

namespace {

// A token is a few dozen characters; anything far longer is not a token file.
constexpr std::size_t kMaxTokenFileBytes = 16 * 1024;

std::string read_token(const std::string& path, const std::string& what) {
  const exec::UniqueFd fd(::open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK));
  if (fd.get() < 0)
    throw UserError(fmt::format("{}: cannot open {}: {}", what, path, std::strerror(errno)));
  struct stat st {};
  if (::fstat(fd.get(), &st) != 0 || !S_ISREG(st.st_mode))
    throw UserError(fmt::format("{}: {} is not a regular file", what, path));
  if (st.st_uid != ::geteuid())
    throw UserError(
        fmt::format("{}: {} belongs to another user; write the token to a file of "
                    "your own with mode 0600",
                    what, path));
  if ((st.st_mode & 077) != 0)
    throw UserError(
        fmt::format("{}: {} is readable or writable by others (mode {:04o}); "
                    "create it with mode 0600 (umask 077)",
                    what, path, st.st_mode & 07777));
  std::string content;
  char buffer[4096];
  for (;;) {
    const ssize_t n = ::read(fd.get(), buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0)
      throw UserError(fmt::format("{}: cannot read {}: {}", what, path, std::strerror(errno)));
    if (n == 0) break;
    content.append(buffer, static_cast<std::size_t>(n));
    if (content.size() > kMaxTokenFileBytes)
      throw UserError(fmt::format("{}: {} is larger than {} bytes: not a token", what, path,
                                  kMaxTokenFileBytes));
  }
  std::string token(trim(content));
  std::memset(content.data(), 0, content.size());
  std::memset(buffer, 0, sizeof buffer);
  if (token.empty()) throw UserError(fmt::format("{}: {} is empty", what, path));
  if (token.find_first_of(" \t\r\n") != std::string::npos)
    throw UserError(
        fmt::format("{}: {} holds more than one word; write the token alone", what, path));
  return token;
}

}  // namespace

void load_token_file(const std::string& flag_path) {
  std::string path = flag_path;
  std::string what = "--token-file";
  if (path.empty()) {
    const char* env = std::getenv(kTokenFileVariable);
    if (!env || !*env) return;
    path = env;
    what = kTokenFileVariable;
  }
  std::string token = read_token(path, what);
  // Read once: the file is not left for a later process of the same user to find.
  if (::unlink(path.c_str()) != 0 && errno != ENOENT) {
    throw UserError(
        fmt::format("{}: cannot delete {} after reading it: {}", what, path, std::strerror(errno)));
  }
  github::hold_token(std::move(token));
  erase_from_environment(exec::secret_env());
}

}  // namespace benchpr::app
