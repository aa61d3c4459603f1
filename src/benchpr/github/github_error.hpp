// What went wrong talking to GitHub, in words a maintainer can act on. The message never
// contains the token.
#pragma once

#include <stdexcept>
#include <string>

namespace benchpr::github {

class GitHubError : public std::runtime_error {
 public:
  // status: the HTTP status GitHub answered, or 0 when no answer came (network failure) or the
  // request was refused before sending (a comment body that is too long).
  GitHubError(long status, const std::string& message)
      : std::runtime_error(message), status_(status) {}
  long status() const { return status_; }

 private:
  long status_;
};

}  // namespace benchpr::github
