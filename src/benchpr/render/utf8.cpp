#include "benchpr/render/utf8.hpp"

#include "benchpr/core/base/valid_utf8.hpp"

namespace benchpr::render::utf8 {

char32_t next(std::string_view text, std::size_t& pos) {
  const std::size_t n = utf8_sequence_length(text, pos);
  if (n == 0) {
    ++pos;
    return kReplacement;
  }
  const auto byte = [&](std::size_t i) { return static_cast<unsigned char>(text[i]); };
  // The lead byte keeps 7 bits alone, then 5, 4 or 3 bits for sequences of 2, 3 or 4 bytes.
  char32_t cp = n == 1 ? byte(pos) : byte(pos) & (0x7Fu >> n);
  for (std::size_t i = 1; i < n; ++i) cp = (cp << 6) | (byte(pos + i) & 0x3F);
  pos += n;
  return cp;
}

std::vector<char32_t> decode(std::string_view text) {
  std::vector<char32_t> out;
  out.reserve(text.size());
  for (std::size_t pos = 0; pos < text.size();) out.push_back(next(text, pos));
  return out;
}

void append(std::string& out, char32_t cp) {
  if (cp < 0x80) {
    out.push_back(static_cast<char>(cp));
  } else if (cp < 0x800) {
    out.push_back(static_cast<char>(0xC0 | (cp >> 6)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else if (cp < 0x10000) {
    out.push_back(static_cast<char>(0xE0 | (cp >> 12)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else {
    out.push_back(static_cast<char>(0xF0 | (cp >> 18)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  }
}

bool is_line_space(char32_t cp) {
  return cp == '\n' || cp == '\r' || cp == '\t' || cp == '\v' || cp == '\f' || cp == 0x85 ||
         cp == 0x2028 || cp == 0x2029;
}

bool is_forbidden_control(char32_t cp) {
  if (is_line_space(cp)) return false;
  if (cp < 0x20 || cp == 0x7F || (cp >= 0x80 && cp <= 0x9F)) return true;
  if (cp >= 0x202A && cp <= 0x202E) return true;  // embeddings and overrides
  if (cp >= 0x2066 && cp <= 0x2069) return true;  // isolates
  return cp == 0xFEFF;                            // stray byte-order mark
}

}  // namespace benchpr::render::utf8
