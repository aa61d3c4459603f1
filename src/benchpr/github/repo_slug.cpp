#include "benchpr/github/repo_slug.hpp"
#include "benchpr/core/base/text.hpp"

#include <cctype>

namespace benchpr::github {
namespace {

bool valid_part(std::string_view part) {
  if (part.empty() || part == "." || part == "..") return false;
  for (char c : part) {
    bool ok = std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == '.';
    if (!ok) return false;
  }
  return true;
}

// "o/r", "/o/r/", "o/r.git" -> {o, r}.
std::optional<RepoSlug> slug_from_path(std::string_view path) {
  while (!path.empty() && path.front() == '/') path.remove_prefix(1);
  while (!path.empty() && path.back() == '/') path.remove_suffix(1);
  if (path.size() > 4 && path.substr(path.size() - 4) == ".git") path.remove_suffix(4);
  return parse_repo_slug(path);
}

}  // namespace

std::optional<RepoSlug> parse_repo_slug(std::string_view text) {
  text = trim(text);
  auto slash = text.find('/');
  if (slash == std::string_view::npos) return std::nullopt;
  std::string_view owner = text.substr(0, slash);
  std::string_view name = text.substr(slash + 1);
  if (!valid_part(owner) || !valid_part(name)) return std::nullopt;
  return RepoSlug{std::string(owner), std::string(name)};
}

std::optional<RepoSlug> slug_from_remote_url(std::string_view url) {
  url = trim(url);
  auto query = url.find_first_of("?#");
  if (query != std::string_view::npos) url = url.substr(0, query);

  auto scheme_end = url.find("://");
  if (scheme_end != std::string_view::npos) {
    std::string_view rest = url.substr(scheme_end + 3);
    auto path_start = rest.find('/');
    if (path_start == std::string_view::npos) return std::nullopt;
    return slug_from_path(rest.substr(path_start));
  }
  // scp-like syntax: [user@]host:owner/name(.git)
  auto colon = url.find(':');
  auto first_slash = url.find('/');
  if (colon == std::string_view::npos || colon == 0) return std::nullopt;
  if (first_slash != std::string_view::npos && first_slash < colon) return std::nullopt;
  return slug_from_path(url.substr(colon + 1));
}

}  // namespace benchpr::github
