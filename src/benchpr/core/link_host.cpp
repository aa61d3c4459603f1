#include "benchpr/core/link_host.hpp"

#include <cctype>

namespace benchpr {

std::string url_host(std::string_view url) {
  std::size_t scheme = url.find("://");
  if (scheme == std::string_view::npos) return "";
  std::string_view rest = url.substr(scheme + 3);
  rest = rest.substr(0, rest.find_first_of("/?#"));
  if (const std::size_t at = rest.rfind('@'); at != std::string_view::npos)
    rest.remove_prefix(at + 1);
  if (const std::size_t colon = rest.find(':'); colon != std::string_view::npos)
    rest = rest.substr(0, colon);
  std::string host;
  for (char c : rest) host += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return host;
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
