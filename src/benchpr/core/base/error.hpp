// benchpr's one error convention. Everything benchpr cannot go on from is thrown as an Error
// whose category says whose problem it is; app/cli.cpp prints its message as one line and maps
// the category to the exit code, in one place. Each layer's error type (ConfigError, GitError,
// ...) is an Error of a fixed category, so a layer can be caught by type where it is handled
// (and given context there) and still ends the same way when it is not. A check that may find a
// problem returns std::optional<std::string>: the problem, or nothing. Failures of the code under
// test are not errors: builds, crashes, timeouts and broken outputs are data (FailureKind in
// core/model/model.hpp).
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>

namespace benchpr {

enum class ErrorCategory {
  Usage,     // a command line or input the user must fix before anything can be measured
  Config,    // .benchpr.yml, --templates, a token or repository GitHub refuses
  Input,     // a file benchpr reads: results file, event payload, benchmark output
  Git,       // the repository: a revision that cannot be resolved, fetched or checked out
  GitHub,    // the GitHub API did not do what was asked (after the retries)
  Output,    // a file or directory benchpr writes: results, markdown, logs, Actions files
  Void,      // code run by a side changed what is measured: the rounds measured before are
             // kept with the reason, but the comparison is void
  Internal,  // a bug in benchpr
};
std::string_view to_string(ErrorCategory category);

class Error : public std::runtime_error {
 public:
  Error(ErrorCategory category, const std::string& message)
      : std::runtime_error(message), category_(category) {}
  ErrorCategory category() const { return category_; }
  // The same error with `context` before its message ("--resume results.json: "): how a caller
  // says which flag or file it was about while the category, and so the exit code, stays.
  Error with_context(std::string_view context) const {
    return Error(category_, std::string(context) + what());
  }

 private:
  ErrorCategory category_;
};

}  // namespace benchpr
