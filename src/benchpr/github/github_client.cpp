#include "benchpr/github/github_client.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <thread>

#include "benchpr/github/error_messages.hpp"
#include "benchpr/github/redact.hpp"

namespace benchpr::github {
namespace {

std::string env_or_empty(const char* name) {
  const char* value = std::getenv(name);
  return value == nullptr ? std::string() : std::string(value);
}

bool is_write(const std::string& method) {
  return method == "POST" || method == "PATCH" || method == "PUT" || method == "DELETE";
}

std::optional<double> parse_seconds(const std::string& text) {
  if (text.empty()) return std::nullopt;
  char* end = nullptr;
  double value = std::strtod(text.c_str(), &end);
  if (end == text.c_str() || *end != '\0' || !std::isfinite(value)) return std::nullopt;
  return value;
}

// "scheme://host[:port]" of a URL, so pagination links are followed only to the API's own host
// (they carry the token).
std::string origin_of(const std::string& url) {
  auto scheme_end = url.find("://");
  if (scheme_end == std::string::npos) return "";
  auto path_start = url.find('/', scheme_end + 3);
  return url.substr(0, path_start);
}

std::string seconds_text(double seconds) {
  double rounded = std::round(seconds * 10) / 10;
  std::string text = std::to_string(rounded);
  text.erase(text.find_last_not_of('0') + 1);
  if (!text.empty() && text.back() == '.') text.pop_back();
  return text + " s";
}

void real_sleep(double seconds) {
  if (seconds > 0) std::this_thread::sleep_for(std::chrono::duration<double>(seconds));
}

double real_now() {
  using namespace std::chrono;
  return duration<double>(system_clock::now().time_since_epoch()).count();
}

}  // namespace

double secondary_limit_wait(int waits_so_far, double max_seconds) {
  double seconds = 60;
  for (int i = 0; i < waits_so_far && seconds < max_seconds; ++i) seconds *= 2;
  return std::min(seconds, max_seconds);
}

std::string resolve_api_url(std::string_view explicit_url) {
  std::string url(explicit_url);
  if (url.empty()) url = env_or_empty("GITHUB_API_URL");
  if (url.empty()) url = std::string(kDefaultApiUrl);
  while (!url.empty() && url.back() == '/') url.pop_back();
  return url;
}

namespace {
std::string& held_token() {
  static std::string token;
  return token;
}
}  // namespace

std::string token_from_environment() {
  std::string token = env_or_empty("GITHUB_TOKEN");
  if (token.empty()) token = env_or_empty("GH_TOKEN");
  return token.empty() ? held_token() : token;
}

void hold_token(std::string token) { held_token() = std::move(token); }

std::string hold_token_from_environment() {
  std::string token = token_from_environment();
  if (!token.empty()) held_token() = token;
  return token;
}

GitHubClient::GitHubClient(std::shared_ptr<HttpTransport> transport, ClientOptions options)
    : transport_(std::move(transport)), options_(std::move(options)) {
  api_url_ = resolve_api_url(options_.api_url);
  if (!options_.sleep) options_.sleep = real_sleep;
  if (!options_.now) options_.now = real_now;
  options_.max_attempts = std::max(1, options_.max_attempts);
}

std::string GitHubClient::absolute_url(const std::string& path_or_url) const {
  if (path_or_url.find("://") == std::string::npos) {
    return api_url_ + (path_or_url.starts_with('/') ? "" : "/") + path_or_url;
  }
  if (origin_of(path_or_url) != origin_of(api_url_)) {
    throw error(0, "GitHub pointed to " + origin_of(path_or_url) + ", not the API at " +
                       origin_of(api_url_) + "; not sending the token there");
  }
  return path_or_url;
}

std::string GitHubClient::describe(const std::string& method, const std::string& url) const {
  std::string path = url.starts_with(api_url_) ? url.substr(api_url_.size()) : url;
  return method + " " + path;
}

GitHubError GitHubClient::error(long status, const std::string& message) const {
  return GitHubError(status, redact(message, options_.token));
}

void GitHubClient::wait(double seconds, const std::string& why) {
  if (options_.log) options_.log(redact(why, options_.token));
  options_.sleep(seconds);
}

void GitHubClient::space_writes() {
  if (!last_write_) return;
  double since = options_.now() - *last_write_;
  if (since < options_.min_write_interval_seconds) {
    options_.sleep(options_.min_write_interval_seconds - since);
  }
}

HttpResponse GitHubClient::request(const std::string& method, const std::string& path_or_url,
                                   const std::string& body, const std::function<bool()>& landed) {
  HttpRequest req;
  req.method = method;
  req.url = absolute_url(path_or_url);
  req.body = body;
  req.headers = {{"Accept", "application/vnd.github+json"},
                 {"X-GitHub-Api-Version", "2022-11-28"},
                 {"User-Agent", std::string("benchpr/") + BENCHPR_VERSION}};
  if (!options_.token.empty())
    req.headers.emplace_back("Authorization", "Bearer " + options_.token);
  if (!body.empty()) req.headers.emplace_back("Content-Type", "application/json");
  const std::string what = describe(method, req.url);
  // A GraphQL query is sent as a POST but writes nothing: no spacing for it.
  const bool writes = is_write(method) && !req.url.ends_with("/graphql");

  double backoff = options_.first_backoff_seconds;
  int secondary_waits = 0;  // secondary rate limits waited out so far in this request
  for (int attempt = 1;; ++attempt) {
    const bool last = attempt >= options_.max_attempts;
    const std::string retrying = "; retrying in ";
    const std::string counter = " (attempt " + std::to_string(attempt + 1) + " of " +
                                std::to_string(options_.max_attempts) + ")";

    if (writes) space_writes();
    HttpResponse response;
    try {
      response = transport_->send(req);
    } catch (const TransportError& e) {
      if (last) {
        throw error(0, "could not reach GitHub at " + api_url_ + " after " +
                           std::to_string(attempt) + " attempts: " + e.what() + " [" + what + "]");
      }
      wait(backoff, std::string("could not reach GitHub: ") + e.what() + retrying +
                        seconds_text(backoff) + counter);
      backoff *= 2;
      if (landed && landed()) return HttpResponse{};
      continue;
    }
    if (writes) last_write_ = options_.now();
    if (response.status >= 200 && response.status < 300) return response;

    const long status = response.status;
    const bool limited_status = status == 403 || status == 429;

    // Primary rate limit: the hourly quota is used up until x-ratelimit-reset.
    if (limited_status && response.header("x-ratelimit-remaining") == "0") {
      auto reset = parse_seconds(response.header("x-ratelimit-reset"));
      double until = reset ? *reset - options_.now() : options_.max_wait_seconds + 1;
      if (until > options_.max_wait_seconds || last) {
        std::string when = reset ? " until " + format_utc(*reset) : std::string();
        throw error(status, "GitHub's API rate limit for this token is used up" + when +
                                "; retry after that [" + what + "]");
      }
      double pause = std::max(until, 1.0);
      wait(pause, "GitHub's API rate limit is used up; waiting " + seconds_text(pause) +
                      " until it resets" + counter);
      continue;
    }

    // Secondary rate limit: GitHub says how long to wait (retry-after, honoured as given), or
    // asks for at least a minute and, while the limit goes on, exponentially longer waits: 60 s,
    // 120 s, 240 s ... up to max_secondary_wait_seconds, for max_attempts in all. A 429 is always
    // a rate limit; a 403 is one when GitHub says so.
    std::optional<double> retry_after = parse_seconds(response.header("retry-after"));
    bool secondary =
        limited_status &&
        (retry_after || status == 429 ||
         github_error_detail(response.body).find("secondary rate limit") != std::string::npos);
    if (secondary) {
      const double pause =
          retry_after ? std::max(*retry_after, 0.0)
                      : secondary_limit_wait(secondary_waits, options_.max_secondary_wait_seconds);
      if (pause > options_.max_secondary_wait_seconds || last) {
        throw error(status, "GitHub's secondary rate limit stopped the request; retry after " +
                                format_utc(options_.now() + pause) + " [" + what + "]");
      }
      ++secondary_waits;
      wait(pause, "GitHub's secondary rate limit; waiting " + seconds_text(pause) + counter);
      continue;
    }

    if (status >= 500 && !last) {
      wait(backoff, "GitHub answered " + std::to_string(status) + retrying + seconds_text(backoff) +
                        counter);
      backoff *= 2;
      if (landed && landed()) return HttpResponse{};
      continue;
    }
    std::string message = error_message_for(response, what);
    if (status >= 500) message += " after " + std::to_string(attempt) + " attempts";
    throw error(status, message);
  }
}

}  // namespace benchpr::github
