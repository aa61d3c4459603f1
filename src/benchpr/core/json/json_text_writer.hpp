// A streaming JSON text writer with the results file's layout (one line per top-level field, one
// line per element of an array of objects, everything else compact) and its number formats.
#pragma once

#include <charconv>
#include <cmath>
#include <cstddef>
#include <iterator>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "benchpr/core/base/valid_utf8.hpp"

namespace benchpr {

// The writer streams the document instead of building a DOM first: at 10,000 benchmarks x 31
// rounds the DOM and its pretty-printing were most of the 0.4 s a write took. Layout: one line
// per top-level field, one line per element of the arrays of objects, everything else compact,
// so the file stays readable and diffable without indentation on every number.
class JsonTextWriter {
 public:
  std::string& out;

  // The longest string written, in bytes of UTF-8 (0: no limit): longer ones are cut with "…"
  // (capped_utf8), so that a reader holding strings to that limit reads every file written.
  std::size_t max_string = 0;

  explicit JsonTextWriter(std::string& buffer) : out(buffer) {}

  void string(std::string_view v) {
    // An ill-formed byte becomes 3 bytes: only a string over a third of the limit can exceed it.
    if (max_string != 0 && v.size() > max_string / 3) {
      unlimited_string(capped_utf8(v, max_string));
      return;
    }
    unlimited_string(v);
  }
  void unlimited_string(std::string_view v) {
    // Most strings (names, units, sides) need no escaping: copied as they are. Anything else
    // goes through nlohmann's serializer, which escapes and replaces ill-formed UTF-8: one
    // definition of valid JSON.
    if (needs_no_escaping(v)) {
      out += '"';
      out += v;
      out += '"';
      return;
    }
    out += nlohmann::json(std::string(v))
               .dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  }
  // Shortest text that reads back to the same double.
  void number(double v) {
    if (!std::isfinite(v)) {
      out += "null";
      return;
    }
    fmt::format_to(std::back_inserter(out), "{}", v);
  }
  // Derived statistics: six significant digits say more than any reader needs (publish
  // recomputes them from the raw values anyway).
  void statistic(double v) { significant(v, 6); }
  // Measured values: ten significant digits, a relative error below 1e-10, far below the
  // resolution of any timer and the noise of any benchmark; the rest of a double's 17 digits
  // was most of the file.
  void values(const std::vector<double>& v) {
    out += '[';
    for (std::size_t i = 0; i < v.size(); ++i) {
      if (i > 0) out += ',';
      significant(v[i], 10);
    }
    out += ']';
  }
  void raw(std::string_view s) { out += s; }
  void dom(const nlohmann::json& j) {
    if (max_string != 0 && holds_long_string(j, max_string / 3)) {
      nlohmann::json capped = j;
      cap_strings(capped, max_string);
      out += capped.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
      return;
    }
    out += j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  }
  // Every string value in `j` (keys are benchpr's own) to at most `max_bytes` (capped_utf8).
  static void cap_strings(nlohmann::json& j, std::size_t max_bytes) {
    if (j.is_string()) {
      std::string& s = j.get_ref<std::string&>();
      if (s.size() > max_bytes / 3) s = capped_utf8(s, max_bytes);
    } else if (j.is_structured()) {
      for (auto& x : j) cap_strings(x, max_bytes);
    }
  }
  // "key": at the start of a top-level field (after the first, preceded by a comma).
  void top(const char* key) {
    out += first_ ? "\n  \"" : ",\n  \"";
    first_ = false;
    out += key;
    out += "\": ";
  }
  void field(const char* key, bool first = false) {
    if (!first) out += ',';
    out += '"';
    out += key;
    out += "\":";
  }
  // "key":value inside an object; `first` for the object's first field.
  void string(const char* key, std::string_view v, bool first = false) {
    field(key, first);
    string(v);
  }
  void number(const char* key, double v) {
    field(key);
    number(v);
  }
  void statistic(const char* key, double v) {
    field(key);
    statistic(v);
  }
  void values(const char* key, const std::vector<double>& v) {
    field(key);
    values(v);
  }
  void integer(const char* key, long long v) {
    field(key);
    fmt::format_to(std::back_inserter(out), "{}", v);
  }
  void integer(const char* key, const std::optional<int>& v) {
    field(key);
    if (v)
      fmt::format_to(std::back_inserter(out), "{}", *v);
    else
      raw("null");
  }
  // "key":{"base":[...],"head":[...]}
  void base_and_head(const char* key, const std::vector<double>& base,
                     const std::vector<double>& head) {
    field(key);
    raw("{\"base\":");
    values(base);
    raw(",\"head\":");
    values(head);
    raw("}");
  }
  template <class T, class Fn>
  void lines(const std::vector<T>& items, Fn each) {
    if (items.empty()) {
      out += "[]";
      return;
    }
    out += '[';
    for (std::size_t i = 0; i < items.size(); ++i) {
      out += i == 0 ? "\n    " : ",\n    ";
      each(items[i]);
    }
    out += "\n  ]";
  }

 private:
  bool first_ = true;

  static bool holds_long_string(const nlohmann::json& j, std::size_t bytes) {
    if (j.is_string()) return j.get_ref<const std::string&>().size() > bytes;
    if (j.is_structured())
      for (const auto& x : j)
        if (holds_long_string(x, bytes)) return true;
    return false;
  }

  static bool needs_no_escaping(std::string_view v) {
    bool ascii = true;
    for (const char c : v) {
      const auto u = static_cast<unsigned char>(c);
      if (u < 0x20 || c == '"' || c == '\\') return false;
      ascii = ascii && u < 0x80;
    }
    return ascii || is_valid_utf8(v);
  }
  // printf's %.{digits}g. std::to_chars, not fmt: with a precision fmt falls back to an exact
  // big-number algorithm, and the values of 100,000 benchmarks' series were about 40% of each
  // round's write (4.4 million values: 84 ns each with fmt, 52 ns with to_chars, measured by
  // bench/session_round_bench's BM_FormatValues).
  void significant(double v, int digits) {
    if (!std::isfinite(v)) {
      out += "null";
      return;
    }
    char buf[32];
    const auto end = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::general, digits);
    out.append(buf, end.ptr);
  }
};

}  // namespace benchpr
