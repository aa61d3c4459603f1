// The files a Session reads and writes, in memory (runner/file_system.hpp): a test puts files
// there, refuses writes under a directory, and reads what the session wrote.
#pragma once

#include <map>
#include <set>
#include <string>
#include <vector>

#include "benchpr/runner/file_system.hpp"
#include "benchpr/runner/results_store.hpp"

namespace benchpr::testing {

class FakeFileSystem final : public runner::FileSystem {
 public:
  std::map<std::string, std::string> files;  // path -> content
  // Writes under these directories fail as a read-only or full disk makes them fail.
  std::set<std::string> unwritable_dirs;
  std::string write_refusal = "Permission denied";
  int refusals_left = -1;  // how many more writes there fail (-1: every one)
  // Reads of these paths fail with the reason given (a pipe, a link the run left there).
  std::map<std::string, std::string> read_refusals;
  std::vector<std::string> removed;  // every path the session removed, in order
  int writes = 0;                    // successful writes

  void remove(const std::string& path) override {
    removed.push_back(path);
    files.erase(path);
  }
  bool exists(const std::string& path) const override { return files.count(path) > 0; }
  std::string read(const std::string& path, std::size_t max_bytes) const override {
    if (const auto refused = read_refusals.find(path); refused != read_refusals.end())
      throw runner::StoreError("cannot read " + path + ": " + refused->second);
    const auto it = files.find(path);
    if (it == files.end()) throw runner::StoreError("cannot read " + path + ": No such file");
    if (it->second.size() > max_bytes)
      throw runner::StoreError("cannot read " + path + ": larger than the limit");
    return it->second;
  }
  void write_atomically(const std::string& path, const std::string& content) override {
    for (const std::string& dir : unwritable_dirs)
      if (path.starts_with(dir + "/") && refusals_left != 0) {
        if (refusals_left > 0) --refusals_left;
        throw runner::StoreError("cannot write " + path + ": " + write_refusal);
      }
    files[path] = content;
    ++writes;
  }
};

}  // namespace benchpr::testing
