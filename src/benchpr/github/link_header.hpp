// RFC 8288 `Link` headers, as GitHub uses them for pagination:
//   <https://api.github.com/repositories/1/issues/2/comments?page=2>; rel="next", <...>; rel="last"
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>

namespace benchpr::github {

// rel -> URL. Tolerates extra whitespace, unquoted or case-varied parameters, other parameters
// in any order, commas and semicolons inside <...>, and space-separated relation lists
// (rel="next last"). The first link for a relation wins; malformed pieces are skipped.
std::map<std::string, std::string> parse_link_header(std::string_view header);

// The URL of rel="next", if any.
std::optional<std::string> next_link(std::string_view header);

}  // namespace benchpr::github
