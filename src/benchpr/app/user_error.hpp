#pragma once

#include <stdexcept>

namespace benchpr::app {

// An error the user can fix (bad flag, missing revision, bad config): printed as one line,
// exit code 2.
class UserError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace benchpr::app
