#include "benchpr/core/base/comment_key.hpp"

namespace benchpr {

namespace {

bool key_character(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
         c == '.' || c == '-';
}

}  // namespace

bool valid_comment_key(std::string_view key) {
  if (key.empty() || key.size() > kMaxCommentKeyChars) return false;
  for (char c : key) {
    if (!key_character(c)) return false;
  }
  return true;
}

std::string sanitize_comment_key(std::string_view key) {
  std::string out;
  for (char c : key) {
    if (key_character(c) && out.size() < kMaxCommentKeyChars) out.push_back(c);
  }
  return out.empty() ? "default" : out;
}

std::string sticky_marker(std::string_view key) {
  return "<!-- benchpr:comment key=" + sanitize_comment_key(key) + " -->";
}

}  // namespace benchpr
