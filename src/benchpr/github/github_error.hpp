// What went wrong talking to GitHub, in words a maintainer can act on. The message never
// contains the token.
#pragma once

#include <string>

#include "benchpr/core/base/error.hpp"

namespace benchpr::github {

// GitHub refused the token, the repository or the number asked for: something the user fixes
// in the workflow's configuration, not a failure of the job.
inline bool refused(long status) { return status == 401 || status == 403 || status == 404; }

class GitHubError : public Error {
 public:
  // status: the HTTP status GitHub answered, or 0 when no answer came (network failure) or the
  // request was refused before sending (a comment body that is too long).
  GitHubError(long status, const std::string& message)
      : Error(refused(status) ? ErrorCategory::Config : ErrorCategory::GitHub, message),
        status_(status) {}
  long status() const { return status_; }

 private:
  long status_;
};

}  // namespace benchpr::github
