// Writes files so that a crash or a cancelled job never leaves a half-written one: the content
// goes to a temporary file in the same directory, is flushed, then renamed over the target.
#pragma once

#include <cstddef>
#include <optional>
#include <string>

#include "benchpr/core/base/error.hpp"

namespace benchpr::runner {

class StoreError : public Error {
 public:
  explicit StoreError(const std::string& message) : Error(ErrorCategory::Output, message) {}
};

// Throws StoreError naming the path and the reason ("cannot write /x/results.json: No space
// left on device").
void write_file_atomically(const std::string& path, const std::string& content);

inline constexpr std::size_t kMaxReadBytes = 256u << 20;

// Reads a regular file of at most max_bytes; throws StoreError naming the path for anything
// else: a symbolic link (not followed), a named pipe or device (never opened blocking), a file
// too large, a read error.
std::string read_text_file(const std::string& path, std::size_t max_bytes = kMaxReadBytes);
// The same, or nothing where read_text_file would throw: for files a child process may or may
// not have written (a Callgrind job's rc, log and dumps), whose absence is itself the answer.
std::optional<std::string> read_text_file_if_any(const std::string& path,
                                                 std::size_t max_bytes = kMaxReadBytes);

}  // namespace benchpr::runner
