// Temporary directories and small file helpers for tests.
#pragma once

#include <string>

namespace benchpr::testing {

// A fresh directory under $TMPDIR (or /tmp), removed recursively on destruction.
class TempDir {
 public:
  TempDir();
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::string& path() const { return path_; }
  std::string operator/(const std::string& rel) const { return path_ + "/" + rel; }

 private:
  std::string path_;
};

void write_file(const std::string& path, const std::string& content);  // creates parent dirs
std::string read_file(const std::string& path);                        // throws if missing

struct CommandResult {
  int exit_code = 0;
  std::string output;  // stdout and stderr together
};
// Runs `command` with /bin/sh -c in `cwd` ("" = current directory); never throws.
CommandResult run_command(const std::string& command, const std::string& cwd = "");
// Same, but fails the current test (ADD_FAILURE) and throws when the exit code is non-zero.
std::string run_checked(const std::string& command, const std::string& cwd = "");

}  // namespace benchpr::testing
