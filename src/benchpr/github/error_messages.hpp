// Turns GitHub's error answers into sentences that say what to do about them.
#pragma once

#include <string>

#include "benchpr/github/http.hpp"

namespace benchpr::github {

// GitHub's own explanation from a JSON error body: "message" plus the messages of "errors"
// ("Validation Failed: body is too long (maximum is 65536 characters)"); for a body that is not
// JSON, its first 200 characters. "" when there is nothing.
std::string github_error_detail(const std::string& body);

// The sentence for a 4xx/5xx answer that is not retried, e.g. for 401 "GitHub rejected the
// token (401): check that GITHUB_TOKEN is set and valid". `what` names the request
// ("GET /repos/o/r/pulls/7") and is appended.
std::string error_message_for(const HttpResponse& response, const std::string& what);

// "2024-05-01 12:34:56 UTC" for seconds since the epoch.
std::string format_utc(double epoch_seconds);

}  // namespace benchpr::github
