#include "benchpr/core/base/link_host.hpp"

#include "benchpr/core/base/text.hpp"

namespace benchpr {

std::string url_host(std::string_view url) {
  const std::size_t end = url.find("://");
  if (end == std::string_view::npos) return "";
  const std::string scheme = lower(url.substr(0, end));
  if (scheme != "https" && scheme != "http") return "";
  std::string_view authority = url.substr(end + 3);
  authority = authority.substr(0, authority.find_first_of("/?#"));
  if (const std::size_t at = authority.rfind('@'); at != std::string_view::npos)
    authority.remove_prefix(at + 1);
  if (authority.starts_with('['))  // an IPv6 literal keeps its brackets
    return lower(authority.substr(0, authority.find(']') + 1));
  return lower(authority.substr(0, authority.find(':')));
}

bool link_on_github(std::string_view url, std::string_view api_url) {
  if (!url.starts_with("https://")) return false;
  const std::string host = url_host(url);
  if (host.empty()) return false;
  if (host == "github.com") return true;
  const std::string api = url_host(api_url);
  if (api.empty()) return false;
  return host == api || (api.starts_with("api.") && host == api.substr(4));
}

}  // namespace benchpr
