#pragma once

#include <string>

#include "benchpr/core/base/error.hpp"

namespace benchpr::app {

// An error the user can fix before anything is measured (bad flag, missing revision, bad
// config, unreadable input file): printed as one line, exit code 2. app/ turns a layer's error
// into one where it can add what the user should change.
class UserError : public Error {
 public:
  explicit UserError(const std::string& message) : Error(ErrorCategory::Usage, message) {}
};

}  // namespace benchpr::app
