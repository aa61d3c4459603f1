// A throw-away git repository with real commits, built with the git command line so tests see
// exactly what users' repositories look like.
#pragma once

#include <string>

#include "support/temp_dir.hpp"

namespace benchpr::testing {

// `git init -b main` in a fresh TempDir with a local identity and no signing. Every git call runs
// with GIT_CONFIG_NOSYSTEM=1, an empty global config and no inherited GIT_DIR & co., so the
// developer's own git configuration and environment cannot change what tests see.
class TempRepo {
 public:
  TempRepo();
  const std::string& path() const { return dir_.path(); }
  void write(const std::string& rel, const std::string& content);  // creates parent dirs
  void remove(const std::string& rel);                             // file or directory
  std::string commit(const std::string& message);  // git add -A && git commit; full SHA
  void branch(const std::string& name);            // at HEAD
  void checkout(const std::string& name);
  // The usual start of a pull request: commits the working tree on main as "base", then creates
  // and checks out `branch`, where the pull request's change goes. Returns the base's SHA.
  std::string commit_base_and_branch(const std::string& branch = "feature");
  // Runs `git <args>` (shell syntax: quote arguments yourself) in the repository; returns its
  // output (stdout and stderr) without the trailing newline. Fails the test on a non-zero exit.
  std::string git(const std::string& args);

 private:
  TempDir dir_;
};

// Quotes `s` as one word for /bin/sh.
std::string shell_quote(const std::string& s);

}  // namespace benchpr::testing
