#include "benchpr/github/curl_transport.hpp"

#include <curl/curl.h>

#include <memory>
#include <mutex>

#include "benchpr/core/base/text.hpp"
#include "benchpr/github/redact.hpp"

namespace benchpr::github {
namespace {

void global_init_once() {
  static std::once_flag flag;
  std::call_once(flag, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
}

std::size_t on_body(char* data, std::size_t size, std::size_t count, void* user) {
  static_cast<std::string*>(user)->append(data, size * count);
  return size * count;
}

std::size_t on_header(char* data, std::size_t size, std::size_t count, void* user) {
  auto& headers = *static_cast<std::map<std::string, std::string>*>(user);
  std::string_view line(data, size * count);
  // A new status line (after "100 Continue", say) starts a new header block.
  if (line.rfind("HTTP/", 0) == 0) {
    headers.clear();
    return size * count;
  }
  auto colon = line.find(':');
  if (colon == std::string_view::npos) return size * count;
  std::string name = lower(std::string(trim(line.substr(0, colon))));
  std::string value(trim(line.substr(colon + 1)));
  auto [it, inserted] = headers.emplace(name, value);
  if (!inserted) it->second += ", " + value;
  return size * count;
}

// Only http(s), so no URL (a pagination link, say) can make libcurl speak another protocol.
// CURLOPT_PROTOCOLS_STR arrived in libcurl 7.85 and deprecated the bitmask; Ubuntu 22.04 ships
// 7.81, which has only the bitmask.
void restrict_to_http(CURL* curl) {
#if LIBCURL_VERSION_NUM >= 0x075500
  curl_easy_setopt(curl, CURLOPT_PROTOCOLS_STR, "http,https");
#else
  curl_easy_setopt(curl, CURLOPT_PROTOCOLS, static_cast<long>(CURLPROTO_HTTP | CURLPROTO_HTTPS));
#endif
}

struct SlistDeleter {
  void operator()(curl_slist* list) const { curl_slist_free_all(list); }
};

// Every Authorization value the request carries, so an error message can be scrubbed of it.
std::vector<std::string> secrets_of(const HttpRequest& request) {
  std::vector<std::string> secrets;
  for (const auto& [name, value] : request.headers) {
    if (lower(name) != "authorization") continue;
    secrets.push_back(value);
    auto space = value.find(' ');
    if (space != std::string::npos) secrets.emplace_back(trim(value.substr(space + 1)));
  }
  return secrets;
}

}  // namespace

CurlTransport::CurlTransport(CurlOptions options) : options_(options) {
  global_init_once();
  handle_ = curl_easy_init();
  if (handle_ == nullptr) throw TransportError("could not initialise libcurl");
}

CurlTransport::~CurlTransport() { curl_easy_cleanup(static_cast<CURL*>(handle_)); }

HttpResponse CurlTransport::send(const HttpRequest& request) {
  CURL* curl = static_cast<CURL*>(handle_);
  curl_easy_reset(curl);  // keeps the connection cache, forgets the previous request's options

  HttpResponse response;
  curl_slist* raw_headers = nullptr;
  for (const auto& [name, value] : request.headers) {
    raw_headers = curl_slist_append(raw_headers, (name + ": " + value).c_str());
  }
  // libcurl would otherwise wait for "100 Continue" before sending larger bodies.
  raw_headers = curl_slist_append(raw_headers, "Expect:");
  std::unique_ptr<curl_slist, SlistDeleter> headers(raw_headers);

  curl_easy_setopt(curl, CURLOPT_URL, request.url.c_str());
  restrict_to_http(curl);
  curl_easy_setopt(curl, CURLOPT_HTTPHEADER, headers.get());
  curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(curl, CURLOPT_FOLLOWLOCATION, 0L);
  curl_easy_setopt(curl, CURLOPT_SSL_VERIFYPEER, 1L);
  curl_easy_setopt(curl, CURLOPT_SSL_VERIFYHOST, 2L);
  curl_easy_setopt(curl, CURLOPT_CONNECTTIMEOUT_MS, options_.connect_timeout_ms);
  curl_easy_setopt(curl, CURLOPT_TIMEOUT_MS, options_.total_timeout_ms);
  curl_easy_setopt(curl, CURLOPT_ACCEPT_ENCODING, "");  // whatever libcurl can decode
  curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, on_body);
  curl_easy_setopt(curl, CURLOPT_WRITEDATA, &response.body);
  curl_easy_setopt(curl, CURLOPT_HEADERFUNCTION, on_header);
  curl_easy_setopt(curl, CURLOPT_HEADERDATA, &response.headers);

  if (request.method == "GET") {
    curl_easy_setopt(curl, CURLOPT_HTTPGET, 1L);
  } else if (request.method == "HEAD") {
    curl_easy_setopt(curl, CURLOPT_NOBODY, 1L);
  } else {
    curl_easy_setopt(curl, CURLOPT_POST, 1L);
    curl_easy_setopt(curl, CURLOPT_POSTFIELDS, request.body.data());
    curl_easy_setopt(curl, CURLOPT_POSTFIELDSIZE_LARGE,
                     static_cast<curl_off_t>(request.body.size()));
    if (request.method != "POST") {
      curl_easy_setopt(curl, CURLOPT_CUSTOMREQUEST, request.method.c_str());
    }
  }

  CURLcode code = curl_easy_perform(curl);
  if (code != CURLE_OK) {
    std::string message = request.method + " " + request.url + ": " + curl_easy_strerror(code);
    for (const auto& secret : secrets_of(request)) message = redact(message, secret);
    throw TransportError(message);
  }
  curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &response.status);
  return response;
}

}  // namespace benchpr::github
