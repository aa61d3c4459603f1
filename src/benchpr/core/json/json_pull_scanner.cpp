#include "benchpr/core/json/json_pull_scanner.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <system_error>
#include <vector>

#include "benchpr/core/base/valid_utf8.hpp"
#include "benchpr/core/json/json_lex.hpp"

namespace benchpr {

namespace {

[[noreturn]] void invalid() { throw JsonSyntaxError{}; }

}  // namespace

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
      const char* after = json_lex::escape_end(text_.data() + pos_, end(), nullptr);
      if (!after) invalid();
      pos_ = static_cast<std::size_t>(after - text_.data());
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
  std::string out;
  const char* p = inner.data();
  const char* const end = inner.data() + inner.size();
  while (p != end) {
    const char* escape = std::find(p, end, '\\');
    out.append(p, escape);
    if (escape == end) break;
    p = json_lex::escape_end(escape, end, &out);
    if (!p) invalid();  // string_token() checked it: only a token from elsewhere gets here
  }
  return out;
}

std::string_view JsonScanner::number_token() {
  peek();
  bool integer = false;
  const char* after = json_lex::number_end(text_.data() + pos_, end(), integer);
  if (!after) invalid();
  const std::size_t start = pos_;
  pos_ = static_cast<std::size_t>(after - text_.data());
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
