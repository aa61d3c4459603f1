// See json_fast_path.hpp. Recursive descent over a bounded depth; every deviation from the grammar
// returns false rather than an error, because nlohmann's parser re-reads the input then.
#include "benchpr/formats/json_fast_path.hpp"

#include <charconv>
#include <cmath>
#include <string>
#include <system_error>

#include "benchpr/core/json/json_lex.hpp"
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

  // After an opening bracket: no entry, or `entry` per entry with commas between, then `close`.
  template <class Entry>
  bool entries(char close, Entry entry) {
    skip_space();
    if (p_ != end_ && *p_ == close) {
      ++p_;
      return true;
    }
    for (;;) {
      if (!entry()) return false;
      skip_space();
      if (p_ == end_) return false;
      if (*p_ == ',') {
        ++p_;
        continue;
      }
      if (*p_ != close) return false;
      ++p_;
      return true;
    }
  }

  bool object(int depth) {
    if (depth > kMaxJsonDepth) return false;
    ++p_;
    if (!events_.start_object(static_cast<std::size_t>(-1))) return false;
    std::string key;
    const auto member = [&] {
      skip_space();
      if (p_ == end_ || *p_ != '"') return false;
      key.clear();
      if (!string(key) || !events_.key(key)) return false;
      skip_space();
      if (p_ == end_ || *p_ != ':') return false;
      ++p_;
      return value(depth);
    };
    return entries('}', member) && events_.end_object();
  }

  bool array(int depth) {
    if (depth > kMaxJsonDepth) return false;
    ++p_;
    if (!events_.start_array(static_cast<std::size_t>(-1))) return false;
    return entries(']', [&] { return value(depth); }) && events_.end_array();
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
      const char* after = json_lex::escape_end(p_, end_, &out);
      if (!after) return false;
      p_ = run = after;
    }
    return false;
  }

  // A number, converted as nlohmann does: an integer token to uint64 (int64 when negative), a
  // double when it does not fit or has a fraction or an exponent; a double must be finite.
  bool number() {
    const char* start = p_;
    bool integer = false;
    const char* after = json_lex::number_end(start, end_, integer);
    if (!after) return false;
    p_ = after;
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
