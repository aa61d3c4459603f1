// The files through which a GitHub Actions step hands results to the workflow:
// $GITHUB_OUTPUT (step outputs) and $GITHUB_STEP_SUMMARY (markdown on the run's page). Every
// write starts on a fresh line, and a fingerprint of the files tells whether something else (the
// code under test, which runs as the same user) wrote to them while benchpr measured.
#pragma once

#include <cstdint>
#include <optional>

#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "benchpr/core/base/error.hpp"

namespace benchpr::github {

class ActionsFileError : public Error {
 public:
  explicit ActionsFileError(const std::string& message) : Error(ErrorCategory::Output, message) {}
};

// GitHub shows at most this much of one step's summary and fails the upload beyond it.
inline constexpr std::size_t kMaxStepSummaryBytes = 1024 * 1024;

// A random "ghadelimiter_<32 hex digits>".
std::string random_output_delimiter();

// One output in the documented multi-line form:
//   name<<DELIMITER
//   value
//   DELIMITER
// Throws ActionsFileError when the name is empty or holds a newline or "<<", or when the
// delimiter occurs in the value.
std::string format_output(std::string_view name, std::string_view value,
                          std::string_view delimiter);

// Appends the outputs to the file at `path` (normally $GITHUB_OUTPUT), each with a fresh random
// delimiter. Throws ActionsFileError when the file cannot be written.
void write_outputs(const std::string& path,
                   const std::vector<std::pair<std::string, std::string>>& outputs);

// Appends markdown (plus a final newline when missing) to the file at `path` (normally
// $GITHUB_STEP_SUMMARY). Throws ActionsFileError when the summary would exceed
// kMaxStepSummaryBytes (nothing is written then) or the file cannot be written.
void append_step_summary(const std::string& path, std::string_view markdown);

// Size and content hash of one of the step's Actions files, named by its variable.
struct ActionsFileState {
  std::string variable;  // "GITHUB_OUTPUT", ...
  std::string path;
  bool exists = false;
  std::uintmax_t size = 0;
  std::uint64_t hash = 0;  // FNV-1a of the content
};

// The state of every Actions file the environment names ($GITHUB_OUTPUT, $GITHUB_ENV,
// $GITHUB_PATH, $GITHUB_STATE, $GITHUB_STEP_SUMMARY); those not set are left out.
std::vector<ActionsFileState> fingerprint_actions_files();

// The variables whose file differs now from `before` (created, removed, resized or rewritten).
std::vector<std::string> changed_actions_files(const std::vector<ActionsFileState>& before);

}  // namespace benchpr::github
