#include "benchpr/github/comment_body.hpp"

#include <stdexcept>

namespace benchpr::github {

std::size_t comment_characters(std::string_view body) {
  std::size_t count = 0;
  for (unsigned char c : body) {
    if ((c & 0xC0) != 0x80) ++count;  // continuation bytes belong to the previous character
  }
  return count;
}

bool valid_comment_key(std::string_view key) {
  if (key.empty() || key.size() > 100) return false;
  for (char c : key) {
    bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
              c == '.' || c == '_' || c == '-';
    if (!ok) return false;
  }
  return true;
}

std::string sticky_marker(std::string_view key) {
  if (!valid_comment_key(key)) {
    throw std::invalid_argument("invalid comment key '" + std::string(key) +
                                "': use letters, digits, '.', '_' and '-' only");
  }
  return "<!-- benchpr:comment key=" + std::string(key) + " -->";
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
