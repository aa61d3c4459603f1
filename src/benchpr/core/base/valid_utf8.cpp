#include "benchpr/core/base/valid_utf8.hpp"

#include <algorithm>

namespace benchpr {

namespace {

constexpr std::string_view kReplacement = "\xEF\xBF\xBD";

}  // namespace

std::size_t utf8_sequence_length(std::string_view text, std::size_t pos) {
  const auto byte = [&](std::size_t i) { return static_cast<unsigned char>(text[i]); };
  const unsigned char lead = byte(pos);
  if (lead < 0x80) return 1;
  std::size_t extra = 0;
  char32_t cp = 0, min = 0;
  if ((lead & 0xE0) == 0xC0) {
    extra = 1, cp = lead & 0x1F, min = 0x80;
  } else if ((lead & 0xF0) == 0xE0) {
    extra = 2, cp = lead & 0x0F, min = 0x800;
  } else if ((lead & 0xF8) == 0xF0) {
    extra = 3, cp = lead & 0x07, min = 0x10000;
  } else {
    return 0;
  }
  if (pos + extra >= text.size()) return 0;
  for (std::size_t i = 1; i <= extra; ++i) {
    const unsigned char c = byte(pos + i);
    if ((c & 0xC0) != 0x80) return 0;
    cp = (cp << 6) | (c & 0x3F);
  }
  if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
  return extra + 1;
}

bool is_valid_utf8(std::string_view text) {
  for (std::size_t pos = 0; pos < text.size();) {
    const std::size_t n = utf8_sequence_length(text, pos);
    if (n == 0) return false;
    pos += n;
  }
  return true;
}

std::string valid_utf8(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t pos = 0; pos < text.size();) {
    const std::size_t n = utf8_sequence_length(text, pos);
    if (n == 0) {
      out += kReplacement;
      ++pos;
    } else {
      out.append(text.substr(pos, n));
      pos += n;
    }
  }
  return out;
}

std::string capped_utf8(std::string_view text, std::size_t max_bytes) {
  constexpr std::string_view kEllipsis = "\u2026";
  // Each ill-formed byte becomes 3: only as much of the text as can fit is converted.
  std::string out = valid_utf8(text.substr(0, std::min(text.size(), max_bytes + 1)));
  if (text.size() <= max_bytes && out.size() <= max_bytes) return out;
  std::size_t cut = std::min(out.size(), max_bytes - kEllipsis.size());
  while (cut > 0 && (static_cast<unsigned char>(out[cut]) & 0xC0) == 0x80) --cut;
  out.resize(cut);
  out += kEllipsis;
  return out;
}

void make_valid_utf8(std::string& text) {
  if (!is_valid_utf8(text)) text = valid_utf8(text);
}

}  // namespace benchpr
