// "owner/name" of a repository, from the --repo option or from a git remote URL.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace benchpr::github {

struct RepoSlug {
  std::string owner;
  std::string name;
  std::string full_name() const { return owner + "/" + name; }
  bool operator==(const RepoSlug&) const = default;
};

// "owner/name" with GitHub's characters (letters, digits, '-', '_', '.'); surrounding whitespace
// is ignored. Anything else (no slash, extra segments, empty parts, "..") gives nullopt.
std::optional<RepoSlug> parse_repo_slug(std::string_view text);

// The slug of a remote URL on any host (github.com or GitHub Enterprise):
//   https://github.com/o/r.git, https://user@host/o/r/, http://host:8080/o/r,
//   git@github.com:o/r.git, ssh://git@host:22/o/r, git://host/o/r.git
// A trailing ".git" and "/" are dropped. URLs whose path is not exactly two segments give nullopt.
std::optional<RepoSlug> slug_from_remote_url(std::string_view url);

}  // namespace benchpr::github
