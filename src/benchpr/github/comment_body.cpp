#include "benchpr/github/comment_body.hpp"

namespace benchpr::github {

std::size_t comment_characters(std::string_view body) {
  std::size_t count = 0;
  for (unsigned char c : body) {
    if ((c & 0xC0) != 0x80) ++count;  // continuation bytes belong to the previous character
  }
  return count;
}

bool has_sticky_marker(std::string_view body, std::string_view key) {
  std::string_view first_line = body.substr(0, body.find('\n'));
  return first_line.find(sticky_marker(key)) != std::string_view::npos;
}

std::string with_sticky_marker(std::string_view body, std::string_view key) {
  if (has_sticky_marker(body, key)) return std::string(body);
  return sticky_marker(key) + "\n" + std::string(body);
}

}  // namespace benchpr::github
