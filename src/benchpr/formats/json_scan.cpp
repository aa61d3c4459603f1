// See json_scan.hpp. Recursive descent over a bounded depth; every deviation from the grammar
// returns false rather than an error, because nlohmann's parser re-reads the input then.
#include "benchpr/formats/json_scan.hpp"

#include <charconv>
#include <cmath>
#include <cstdint>
#include <string>
#include <system_error>

#include "benchpr/formats/format.hpp"

namespace benchpr::formats::detail {
namespace {

class Scanner {
 public:
  Scanner(std::string_view text, JsonEvents& events)
      : p_(text.data()), end_(text.data() + text.size()), events_(events) {}

  bool document() {
    if (!value(0)) return false;
    skip_space();
    return p_ == end_;
  }

 private:
  void skip_space() {
    while (p_ != end_ && (*p_ == ' ' || *p_ == '\n' || *p_ == '\r' || *p_ == '\t')) ++p_;
  }

  bool value(int depth) {
    skip_space();
    if (p_ == end_) return false;
    switch (*p_) {
      case '{':
        return object(depth + 1);
      case '[':
        return array(depth + 1);
      case '"': {
        std::string s;
        return string(s) && events_.string(s);
      }
      case 't':
        return literal("true") && events_.boolean(true);
      case 'f':
        return literal("false") && events_.boolean(false);
      case 'n':
        return literal("null") && events_.null();
      default:
        return number();
    }
  }

  bool object(int depth) {
    if (depth > kMaxJsonDepth) return false;
    ++p_;
    if (!events_.start_object(static_cast<std::size_t>(-1))) return false;
    skip_space();
    if (p_ != end_ && *p_ == '}') {
      ++p_;
      return events_.end_object();
    }
    std::string key;
    for (;;) {
      skip_space();
      if (p_ == end_ || *p_ != '"') return false;
      key.clear();
      if (!string(key) || !events_.key(key)) return false;
      skip_space();
      if (p_ == end_ || *p_ != ':') return false;
      ++p_;
      if (!value(depth)) return false;
      skip_space();
      if (p_ == end_) return false;
      if (*p_ == ',') {
        ++p_;
        continue;
      }
      if (*p_ != '}') return false;
      ++p_;
      return events_.end_object();
    }
  }

  bool array(int depth) {
    if (depth > kMaxJsonDepth) return false;
    ++p_;
    if (!events_.start_array(static_cast<std::size_t>(-1))) return false;
    skip_space();
    if (p_ != end_ && *p_ == ']') {
      ++p_;
      return events_.end_array();
    }
    for (;;) {
      if (!value(depth)) return false;
      skip_space();
      if (p_ == end_) return false;
      if (*p_ == ',') {
        ++p_;
        continue;
      }
      if (*p_ != ']') return false;
      ++p_;
      return events_.end_array();
    }
  }

  bool literal(std::string_view word) {
    if (static_cast<std::size_t>(end_ - p_) < word.size() ||
        std::string_view(p_, word.size()) != word)
      return false;
    p_ += word.size();
    return true;
  }

  // At the opening quote; appends the decoded string to `out`.
  bool string(std::string& out) {
    ++p_;
    const char* run = p_;  // start of the characters not yet appended
    while (p_ != end_) {
      const auto c = static_cast<unsigned char>(*p_);
      if (c == '"') {
        out.append(run, p_);
        ++p_;
        return true;
      }
      if (c < 0x20) return false;  // control characters must be escaped
      if (c != '\\') {
        ++p_;
        continue;
      }
      out.append(run, p_);
      if (!escape(out)) return false;
      run = p_;
    }
    return false;
  }

  // At a backslash.
  bool escape(std::string& out) {
    if (end_ - p_ < 2) return false;
    const char e = p_[1];
    p_ += 2;
    switch (e) {
      case '"':
        out += '"';
        return true;
      case '\\':
        out += '\\';
        return true;
      case '/':
        out += '/';
        return true;
      case 'b':
        out += '\b';
        return true;
      case 'f':
        out += '\f';
        return true;
      case 'n':
        out += '\n';
        return true;
      case 'r':
        out += '\r';
        return true;
      case 't':
        out += '\t';
        return true;
      case 'u':
        break;
      default:
        return false;
    }
    std::uint32_t code = 0;
    if (!hex4(code)) return false;
    if (code >= 0xDC00 && code <= 0xDFFF) return false;  // a low surrogate alone
    if (code >= 0xD800 && code <= 0xDBFF) {
      std::uint32_t low = 0;
      if (end_ - p_ < 2 || p_[0] != '\\' || p_[1] != 'u') return false;
      p_ += 2;
      if (!hex4(low) || low < 0xDC00 || low > 0xDFFF) return false;
      code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00);
    }
    append_utf8(code, out);
    return true;
  }

  bool hex4(std::uint32_t& code) {
    if (end_ - p_ < 4) return false;
    for (int i = 0; i < 4; ++i) {
      const char h = *p_++;
      code <<= 4;
      if (h >= '0' && h <= '9')
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

  static void append_utf8(std::uint32_t code, std::string& out) {
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

  static bool is_digit(char c) { return c >= '0' && c <= '9'; }

  // -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?, converted as nlohmann does: an integer
  // token to uint64 (int64 when negative), a double when it does not fit or has a fraction or an
  // exponent; a double must be finite.
  bool number() {
    const char* start = p_;
    if (p_ != end_ && *p_ == '-') ++p_;
    if (p_ == end_ || !is_digit(*p_)) return false;
    if (*p_ == '0') {
      ++p_;
    } else {
      while (p_ != end_ && is_digit(*p_)) ++p_;
    }
    bool integer = true;
    if (p_ != end_ && *p_ == '.') {
      integer = false;
      ++p_;
      if (p_ == end_ || !is_digit(*p_)) return false;
      while (p_ != end_ && is_digit(*p_)) ++p_;
    }
    if (p_ != end_ && (*p_ == 'e' || *p_ == 'E')) {
      integer = false;
      ++p_;
      if (p_ != end_ && (*p_ == '+' || *p_ == '-')) ++p_;
      if (p_ == end_ || !is_digit(*p_)) return false;
      while (p_ != end_ && is_digit(*p_)) ++p_;
    }
    if (integer && *start == '-') {
      long long i = 0;
      if (std::from_chars(start, p_, i).ec == std::errc()) return events_.number_integer(i);
    } else if (integer) {
      unsigned long long u = 0;
      if (std::from_chars(start, p_, u).ec == std::errc()) return events_.number_unsigned(u);
    }
    double d = 0;
    const auto [at, ec] = std::from_chars(start, p_, d);
    if (ec != std::errc() || at != p_ || !std::isfinite(d)) return false;
    static const std::string kNoToken;
    return events_.number_float(d, kNoToken);
  }

  const char* p_;
  const char* end_;
  JsonEvents& events_;
};

}  // namespace

bool scan_json(std::string_view text, JsonEvents& events) {
  return Scanner(text, events).document();
}

}  // namespace benchpr::formats::detail
