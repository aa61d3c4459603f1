// The real HttpTransport: one libcurl easy handle, reused so consecutive requests share the
// connection. Not thread-safe: use one CurlTransport per thread.
#pragma once

#include "benchpr/github/http.hpp"

namespace benchpr::github {

struct CurlOptions {
  long connect_timeout_ms = 10'000;
  long total_timeout_ms = 60'000;  // the whole request, body included
};

class CurlTransport : public HttpTransport {
 public:
  explicit CurlTransport(CurlOptions options = {});
  ~CurlTransport() override;
  CurlTransport(const CurlTransport&) = delete;
  CurlTransport& operator=(const CurlTransport&) = delete;

  // TLS peer and host are always verified and redirects are never followed: a redirect would
  // carry the Authorization header to wherever the server points.
  HttpResponse send(const HttpRequest& request) override;

 private:
  CurlOptions options_;
  void* handle_;  // CURL*, kept opaque so callers need no libcurl headers
};

}  // namespace benchpr::github
