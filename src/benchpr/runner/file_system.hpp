// What a Session asks of the file system about the files of its runs and its results: a seam,
// so that a test can give it a results directory that cannot be written or a suite whose
// results file never appears (tests/support/fake_file_system.hpp), without real disks failing.
// The worktrees, their builds and the executables' copies are not behind it: those are real
// trees (git/, runner/suite_files).
#pragma once

#include <cstddef>
#include <string>

#include "benchpr/runner/results_store.hpp"

namespace benchpr::runner {

class FileSystem {
 public:
  virtual ~FileSystem() = default;
  // Removes the file at `path` when there is one (a leftover of an earlier run); never throws.
  virtual void remove(const std::string& path) = 0;
  // Whether anything is at `path`; a symbolic link is not followed (a link there exists).
  virtual bool exists(const std::string& path) const = 0;
  // A regular file of at most `max_bytes`; throws StoreError naming the path otherwise
  // (read_text_file: a link is not followed, a pipe never blocks).
  virtual std::string read(const std::string& path, std::size_t max_bytes) const = 0;
  // Replaces the file's content so that no reader sees half of it; throws StoreError naming the
  // path and the reason (write_file_atomically).
  virtual void write_atomically(const std::string& path, const std::string& content) = 0;
};

// The machine's own file system (std::filesystem and runner/results_store).
FileSystem& local_file_system();

}  // namespace benchpr::runner
