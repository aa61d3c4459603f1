// The HTTP seam of the GitHub adapter: GitHubClient speaks to an HttpTransport so tests can
// substitute a fake (or point the real libcurl transport at a loopback server) and so the REST
// logic (retries, rate limits, pagination) never touches libcurl directly.
#pragma once

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "benchpr/core/base/error.hpp"

namespace benchpr::github {

struct HttpRequest {
  std::string method;  // "GET", "POST", "PATCH", ...
  std::string url;     // absolute
  std::string body;
  std::vector<std::pair<std::string, std::string>> headers;
};

struct HttpResponse {
  long status = 0;
  std::string body;
  std::map<std::string, std::string> headers;  // names lower-cased; repeated headers joined by ", "

  // The header's value, or "" when absent. `name` must be lower-case.
  std::string header(const std::string& name) const;
};

// The request never reached GitHub or no complete answer came back (DNS, refused connection,
// TLS failure, timeout). Its message never contains credentials.
class TransportError : public Error {
 public:
  explicit TransportError(const std::string& message) : Error(ErrorCategory::GitHub, message) {}
};

class HttpTransport {
 public:
  virtual ~HttpTransport() = default;
  // Sends one request and returns whatever status came back; throws TransportError only when
  // there is no HTTP response at all.
  virtual HttpResponse send(const HttpRequest& request) = 0;
};

}  // namespace benchpr::github
