#include "benchpr/core/json_scan.hpp"

#include <charconv>
#include <cmath>
#include <cstdlib>
#include <system_error>
#include <vector>

#include <nlohmann/json.hpp>

#include "benchpr/core/valid_utf8.hpp"

namespace benchpr {

namespace {

[[noreturn]] void invalid() { throw JsonSyntaxError{}; }

bool is_digit(char c) { return c >= '0' && c <= '9'; }

bool is_hex(char c) { return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }

}  // namespace

unsigned JsonScanner::hex4(std::size_t at) const {
  unsigned v = 0;
  for (std::size_t i = at; i < at + 4; ++i) {
    if (i >= text_.size() || !is_hex(text_[i])) invalid();
    const char c = text_[i];
    v = v * 16 + static_cast<unsigned>(is_digit(c) ? c - '0' : (c | 0x20) - 'a' + 10);
  }
  return v;
}

char JsonScanner::peek() {
  while (pos_ < text_.size()) {
    const char c = text_[pos_];
    if (c != ' ' && c != '\n' && c != '\r' && c != '\t') return c;
    ++pos_;
  }
  return '\0';
}

void JsonScanner::expect(char c) {
  if (!consume(c)) invalid();
}

bool JsonScanner::consume(char c) {
  if (peek() != c || pos_ >= text_.size()) return false;
  ++pos_;
  return true;
}

std::string_view JsonScanner::string_token() {
  if (peek() != '"') invalid();
  const std::size_t start = pos_++;
  while (pos_ < text_.size()) {
    const auto c = static_cast<unsigned char>(text_[pos_]);
    if (c == '"') {
      ++pos_;
      return text_.substr(start, pos_ - start);
    }
    if (c < 0x20) invalid();
    if (c == '\\') {
      if (++pos_ >= text_.size()) invalid();
      const char e = text_[pos_];
      if (e == 'u') {
        // A surrogate must come as a high-low pair, as JSON's decoder demands.
        const unsigned unit = hex4(pos_ + 1);
        pos_ += 5;
        if (unit >= 0xDC00 && unit <= 0xDFFF) invalid();
        if (unit >= 0xD800 && unit <= 0xDBFF) {
          if (text_.substr(pos_, 2) != "\\u") invalid();
          const unsigned low = hex4(pos_ + 2);
          if (low < 0xDC00 || low > 0xDFFF) invalid();
          pos_ += 6;
        }
      } else if (e == '"' || e == '\\' || e == '/' || e == 'b' || e == 'f' || e == 'n' ||
                 e == 'r' || e == 't') {
        ++pos_;
      } else {
        invalid();
      }
    } else if (c < 0x80) {
      ++pos_;
    } else {
      const std::size_t n = utf8_sequence_length(text_, pos_);
      if (n == 0) invalid();
      pos_ += n;
    }
  }
  invalid();  // unterminated
}

std::string JsonScanner::decode(std::string_view token) {
  const std::string_view inner = token.substr(1, token.size() - 2);
  if (inner.find('\\') == std::string_view::npos) return std::string(inner);
  // Escapes (surrogate pairs included) are rare here: JSON's own decoder, which also refuses a
  // lone surrogate.
  const nlohmann::json j = nlohmann::json::parse(token, nullptr, false);
  if (!j.is_string()) invalid();
  return j.get<std::string>();
}

std::string_view JsonScanner::number_token() {
  peek();
  const std::size_t start = pos_;
  const auto at = [&](std::size_t i) { return i < text_.size() ? text_[i] : '\0'; };
  if (at(pos_) == '-') ++pos_;
  if (at(pos_) == '0') {
    ++pos_;
  } else if (is_digit(at(pos_))) {
    while (is_digit(at(pos_))) ++pos_;
  } else {
    invalid();
  }
  if (at(pos_) == '.') {
    ++pos_;
    if (!is_digit(at(pos_))) invalid();
    while (is_digit(at(pos_))) ++pos_;
  }
  if (at(pos_) == 'e' || at(pos_) == 'E') {
    ++pos_;
    if (at(pos_) == '+' || at(pos_) == '-') ++pos_;
    if (!is_digit(at(pos_))) invalid();
    while (is_digit(at(pos_))) ++pos_;
  }
  return text_.substr(start, pos_ - start);
}

double JsonScanner::number() {
  const std::string_view t = number_token();
  double v = 0;
  const auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
  if (ec == std::errc::result_out_of_range) {
    // As JSON's own reader: an underflow reads as what strtod makes of it (0 or a subnormal), an
    // overflow is an error.
    v = std::strtod(std::string(t).c_str(), nullptr);
    if (!std::isfinite(v)) invalid();
  } else if (ec != std::errc() || end != t.data() + t.size()) {
    invalid();
  }
  return v;
}

void JsonScanner::literal(std::string_view word) {
  peek();
  if (text_.substr(pos_, word.size()) != word) invalid();
  pos_ += word.size();
}

std::string_view JsonScanner::skip_value() {
  peek();
  const std::size_t start = pos_;
  std::vector<char> open;  // the brackets still open, innermost last
  for (;;) {
    // A value.
    const char c = peek();
    if (c == '{' || c == '[') {
      ++pos_;
      if (consume(c == '{' ? '}' : ']')) {
        // empty: falls through to what follows a value
      } else {
        open.push_back(c);
        if (c == '{') {
          string_token();
          expect(':');
        }
        continue;
      }
    } else if (c == '"') {
      string_token();
    } else if (c == 't') {
      literal("true");
    } else if (c == 'f') {
      literal("false");
    } else if (c == 'n') {
      literal("null");
    } else {
      number();  // checked for overflow too, as JSON's reader does
    }
    // What follows a value: a comma and the next element, or closing brackets.
    for (;;) {
      if (open.empty()) return text_.substr(start, pos_ - start);
      if (consume(',')) {
        if (open.back() == '{') {
          string_token();
          expect(':');
        }
        break;
      }
      expect(open.back() == '{' ? '}' : ']');
      open.pop_back();
    }
  }
}

}  // namespace benchpr
