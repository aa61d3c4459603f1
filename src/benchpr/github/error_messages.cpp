#include "benchpr/github/error_messages.hpp"

#include <nlohmann/json.hpp>

#include <cmath>
#include <ctime>

namespace benchpr::github {

std::string github_error_detail(const std::string& body) {
  if (body.empty()) return "";
  auto json = nlohmann::json::parse(body, nullptr, /*allow_exceptions=*/false);
  if (json.is_discarded() || !json.is_object()) {
    std::string text = body.substr(0, 200);
    for (char& c : text) {
      if (c == '\n' || c == '\r') c = ' ';
    }
    return text;
  }
  std::string detail = json.value("message", "");
  if (json.contains("errors") && json["errors"].is_array()) {
    std::string parts;
    for (const auto& error : json["errors"]) {
      std::string part;
      if (error.is_string()) {
        part = error.get<std::string>();
      } else if (error.is_object()) {
        part = error.value("message", "");
        if (part.empty() && error.contains("code")) {
          part = error.value("field", "") + " " + error.value("code", "");
        }
      }
      if (part.empty()) continue;
      parts += (parts.empty() ? "" : "; ") + part;
    }
    if (!parts.empty()) detail += (detail.empty() ? "" : ": ") + parts;
  }
  return detail;
}

std::string error_message_for(const HttpResponse& response, const std::string& what) {
  std::string detail = github_error_detail(response.body);
  std::string words;
  switch (response.status) {
    case 401:
      words = "GitHub rejected the token (401): check that GITHUB_TOKEN is set and valid";
      break;
    case 403:
      words =
          "the token lacks permission (403): the workflow needs `permissions: pull-requests: "
          "write` (or issues: write)";
      if (!detail.empty()) words += "; GitHub said: " + detail;
      break;
    case 404:
      words =
          "not found (404): check --repo OWNER/NAME and the PR number; a token without access "
          "to a private repository also gets 404";
      break;
    case 422:
      words = "GitHub refused the request (422): " +
              (detail.empty() ? std::string("no reason given") : detail);
      break;
    default:
      words = "GitHub answered " + std::to_string(response.status) +
              (response.status >= 500 ? " (a server error)" : "") +
              (detail.empty() ? std::string() : ": " + detail);
  }
  return words + " [" + what + "]";
}

std::string format_utc(double epoch_seconds) {
  std::time_t t = static_cast<std::time_t>(std::llround(epoch_seconds));
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buffer[32];
  std::strftime(buffer, sizeof buffer, "%Y-%m-%d %H:%M:%S UTC", &tm);
  return buffer;
}

}  // namespace benchpr::github
