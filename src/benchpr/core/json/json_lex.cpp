#include "benchpr/core/json/json_lex.hpp"

#include <cstdint>

namespace benchpr::json_lex {

namespace {

bool is_digit(char c) { return c >= '0' && c <= '9'; }

const char* digits_end(const char* p, const char* end) {
  while (p != end && is_digit(*p)) ++p;
  return p;
}

// The 4 hex digits of a \u escape, `p` moved past them.
bool hex4(const char*& p, const char* end, std::uint32_t& code) {
  if (end - p < 4) return false;
  code = 0;
  for (int i = 0; i < 4; ++i) {
    const char h = *p++;
    code <<= 4;
    if (is_digit(h))
      code |= static_cast<std::uint32_t>(h - '0');
    else if (h >= 'a' && h <= 'f')
      code |= static_cast<std::uint32_t>(h - 'a' + 10);
    else if (h >= 'A' && h <= 'F')
      code |= static_cast<std::uint32_t>(h - 'A' + 10);
    else
      return false;
  }
  return true;
}

void append_utf8(std::uint32_t code, std::string& out) {
  if (code < 0x80) {
    out += static_cast<char>(code);
  } else if (code < 0x800) {
    out += static_cast<char>(0xC0 | (code >> 6));
    out += static_cast<char>(0x80 | (code & 0x3F));
  } else if (code < 0x10000) {
    out += static_cast<char>(0xE0 | (code >> 12));
    out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (code & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (code >> 18));
    out += static_cast<char>(0x80 | ((code >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (code & 0x3F));
  }
}

// What a one-character escape (\n, \", ...) stands for; '\0' when `e` is none of them.
char simple_escape(char e) {
  switch (e) {
    case '"':
    case '\\':
    case '/':
      return e;
    case 'b':
      return '\b';
    case 'f':
      return '\f';
    case 'n':
      return '\n';
    case 'r':
      return '\r';
    case 't':
      return '\t';
    default:
      return '\0';
  }
}

}  // namespace

const char* number_end(const char* p, const char* end, bool& integer) {
  integer = true;
  if (p != end && *p == '-') ++p;
  if (p == end || !is_digit(*p)) return nullptr;
  p = *p == '0' ? p + 1 : digits_end(p, end);
  if (p != end && *p == '.') {
    integer = false;
    ++p;
    if (p == end || !is_digit(*p)) return nullptr;
    p = digits_end(p, end);
  }
  if (p != end && (*p == 'e' || *p == 'E')) {
    integer = false;
    ++p;
    if (p != end && (*p == '+' || *p == '-')) ++p;
    if (p == end || !is_digit(*p)) return nullptr;
    p = digits_end(p, end);
  }
  return p;
}

const char* escape_end(const char* p, const char* end, std::string* out) {
  if (end - p < 2 || *p != '\\') return nullptr;
  const char e = p[1];
  p += 2;
  if (e != 'u') {
    const char c = simple_escape(e);
    if (c == '\0') return nullptr;
    if (out) *out += c;
    return p;
  }
  std::uint32_t code = 0;
  if (!hex4(p, end, code)) return nullptr;
  if (code >= 0xDC00 && code <= 0xDFFF) return nullptr;  // a low surrogate alone
  if (code >= 0xD800 && code <= 0xDBFF) {
    std::uint32_t low = 0;
    if (end - p < 2 || p[0] != '\\' || p[1] != 'u') return nullptr;
    p += 2;
    if (!hex4(p, end, low) || low < 0xDC00 || low > 0xDFFF) return nullptr;
    code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00);
  }
  if (out) append_utf8(code, *out);
  return p;
}

}  // namespace benchpr::json_lex
