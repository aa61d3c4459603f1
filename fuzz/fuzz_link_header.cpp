// libFuzzer target: GitHub's `Link` header, which decides the next page benchpr asks for while
// it looks for its sticky comment. Any header must end in relations to URLs: each relation one
// lower-case word without spaces, each URL what stood between its angle brackets, trimmed;
// next_link is the map's "next".
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "benchpr/github/link_header.hpp"
#include "fuzz_check.hpp"

namespace {
bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace benchpr::github;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const auto links = parse_link_header(text);
  FUZZ_CHECK(links.size() <= size);
  for (const auto& [rel, url] : links) {
    FUZZ_CHECK(!rel.empty() && !url.empty());
    // Relations in one rel="..." are separated by spaces or tabs (RFC 8288: spaces).
    for (char c : rel) FUZZ_CHECK(c != ' ' && c != '\t' && !(c >= 'A' && c <= 'Z'));
    FUZZ_CHECK(url.find('>') == std::string_view::npos);
    FUZZ_CHECK(!is_space(url.front()) && !is_space(url.back()));
    FUZZ_CHECK(text.find(url) != std::string_view::npos);  // from the header, not made up
  }
  const auto next = next_link(text);
  const auto it = links.find("next");
  FUZZ_CHECK(next.has_value() == (it != links.end()));
  if (next) FUZZ_CHECK(*next == it->second);
  return 0;
}
