// JSON text -> Results: results_from_string, the reader of untrusted results files. One pass over
// the text checks it all as JSON, reads the series straight from the text (most of a large file,
// with no DOM), and hands the other fields it reads to the DOM reader (results_json_reader.cpp).
#include <map>
#include <optional>

#include <fmt/format.h>

#include "benchpr/core/json/json_pull_scanner.hpp"
#include "benchpr/core/results_file/results_json.hpp"
#include "benchpr/core/results_file/results_json_reader.hpp"
#include "benchpr/core/results_file/results_json_schema.hpp"

namespace benchpr {

using nlohmann::json;
using namespace results_schema;

namespace {

// The series, read straight from the text into the schema's SeriesFields (the same checks and
// messages as the DOM reader's): they are most of a large file, and a DOM of them was most of
// the time a read took.

std::vector<double> scan_values(JsonScanner& in, const std::string& where,
                                double (*as)(double) = series_value) {
  if (in.peek() != '[') {
    in.skip_value();
    fail(where, "expected an array");
  }
  in.expect('[');
  std::vector<double> out;
  if (in.consume(']')) return out;
  do {
    if (out.size() >= kMaxRounds) fail(where, "too many rounds");
    const char c = in.peek();
    if (c == 'n') {
      in.literal("null");
      out.push_back(kMissing);
    } else if (c == '-' || (c >= '0' && c <= '9')) {
      out.push_back(as(in.number()));
    } else {
      in.skip_value();
      fail(where, "expected numbers or null");
    }
  } while (in.consume(','));
  in.expect(']');
  return out;
}

// A string field, or nullopt for null.
std::optional<std::string> scan_text(JsonScanner& in, const std::string& where) {
  const char c = in.peek();
  if (c == 'n') {
    in.literal("null");
    return std::nullopt;
  }
  if (c != '"') {
    in.skip_value();
    fail(where, "expected a string");
  }
  std::string s = JsonScanner::decode(in.string_token());
  if (s.size() > kMaxString) fail(where, "string too long");
  return s;
}

// {"base":[...],"head":[...]} (other keys ignored), or null.
SeriesFields::Times scan_times(JsonScanner& in, const std::string& where,
                               double (*as)(double) = series_value) {
  SeriesFields::Times times;
  if (in.peek() == 'n') {
    in.literal("null");
    return times;
  }
  if (in.peek() != '{') {
    in.skip_value();
    fail(where, "expected an object");
  }
  in.expect('{');
  bool has_base = false, has_head = false;
  if (!in.consume('}')) {
    do {
      const std::string key = JsonScanner::decode(in.string_token());
      in.expect(':');
      if (key == "base") {
        times.base = scan_values(in, where + ".base", as);
        has_base = true;
      } else if (key == "head") {
        times.head = scan_values(in, where + ".head", as);
        has_head = true;
      } else {
        in.skip_value();
      }
    } while (in.consume(','));
    in.expect('}');
  }
  if (!has_base) fail(where + ".base", "missing");
  if (!has_head) fail(where + ".head", "missing");
  return times;
}

// {"D1mr":{"base":[...],"head":[...]},...} (events not known_event passed over), or null.
std::map<std::string, SeriesFields::Times> scan_events(JsonScanner& in, const std::string& where) {
  std::map<std::string, SeriesFields::Times> events;
  if (in.peek() == 'n') {
    in.literal("null");
    return events;
  }
  if (in.peek() != '{') {
    in.skip_value();
    fail(where, "expected an object");
  }
  in.expect('{');
  if (!in.consume('}')) {
    do {
      const std::string key = JsonScanner::decode(in.string_token());
      in.expect(':');
      if (known_event(key)) {
        events[key] = scan_times(in, where + "." + key, event_value);
      } else {
        in.skip_value();
      }
    } while (in.consume(','));
    in.expect('}');
  }
  return events;
}

BenchmarkSeries scan_series(JsonScanner& in, const std::string& w) {
  if (in.peek() != '{') {
    in.skip_value();
    fail(w, "expected an object");
  }
  in.expect('{');
  SeriesFields f;
  if (!in.consume('}')) {
    do {
      const std::string key = JsonScanner::decode(in.string_token());
      in.expect(':');
      const std::string where = w + "." + key;
      if (auto* text = f.text(key)) {
        *text = scan_text(in, where);
      } else if (auto* values = f.values(key)) {
        *values = scan_values(in, where);
      } else if (auto* times = f.times(key)) {
        *times = scan_times(in, where);
      } else if (auto* events = f.event_times(key)) {
        *events = scan_events(in, where);
      } else {
        in.skip_value();
      }
    } while (in.consume(','));
    in.expect('}');
  }
  return finish_series(std::move(f), w);
}

std::vector<BenchmarkSeries> scan_series_array(JsonScanner& in) {
  if (in.peek() != '[') {
    in.skip_value();
    fail("document.series", "expected an array");
  }
  in.expect('[');
  std::vector<BenchmarkSeries> out;
  if (in.consume(']')) return out;
  do {
    if (out.size() >= kMaxSeries) fail("document.series", "too many entries");
    out.push_back(scan_series(in, fmt::format("series[{}]", out.size())));
  } while (in.consume(','));
  in.expect(']');
  return out;
}

// Bounds of the DOM built for the fields above (every field but the series, which are scanned):
// no field the format defines nests deeper than 5, and a session of 10,000 rounds of 10 suites
// has 200,000 run records of about 13 values each. A value a DOM holds costs 16 to about 80
// bytes, so these bound the reader's memory, beyond the text, by a few hundred MB whatever the
// file holds.
constexpr int kMaxDepth = 32;
constexpr std::size_t kMaxHeaderValues = 4'000'000;

json parse_header(const std::string& text) {
  std::size_t values = 0;
  const json::parser_callback_t bounded = [&values](int depth, json::parse_event_t event, json&) {
    if (depth > kMaxDepth) fail("document", fmt::format("nested deeper than {} levels", kMaxDepth));
    if (event == json::parse_event_t::value || event == json::parse_event_t::object_start ||
        event == json::parse_event_t::array_start) {
      if (++values > kMaxHeaderValues)
        fail("document", fmt::format("more than {} values outside the series", kMaxHeaderValues));
    }
    return true;
  };
  json j = json::parse(text, bounded, /*allow_exceptions=*/false);
  if (j.is_discarded()) throw JsonSyntaxError{};
  return j;
}

// A series was refused while read before the header: the header's checks come first.
struct SeriesReadFirst {};

// One pass over the top level checks the whole text as JSON: the fields read_header and
// read_trailer check go into a bounded DOM of their own, the series are read from the text (no
// DOM), and everything else is passed over. With `series_first` the series are read as they come
// (one pass over the bulk of the file); without, they are only checked as JSON on the way and
// read after the header, so that a file wrong in both is refused for its header, as the order of
// the checks says (header, series, trailer).
Results scan_document(std::string_view text, bool series_first) {
  JsonScanner in(text);
  std::optional<std::string_view> series_text;
  std::vector<BenchmarkSeries> series;
  bool has_series = false;
  std::string header = "{";
  in.expect('{');
  if (!in.consume('}')) {
    do {
      const std::string_view key_token = in.string_token();
      in.expect(':');
      const std::string key = JsonScanner::decode(key_token);
      if (key == kSeriesField) {
        has_series = true;
        if (series_first) {
          try {
            series = scan_series_array(in);
          } catch (const ResultsFormatError&) {
            throw SeriesReadFirst{};
          }
        } else {
          series_text = in.skip_value();
        }
        continue;
      }
      const std::string_view value = in.skip_value();
      if (!read_outside_the_series(key)) continue;
      if (header.size() > 1) header += ',';
      header += key_token;
      header += ':';
      header += value;
    } while (in.consume(','));
    in.expect('}');
  }
  if (!in.at_end()) throw JsonSyntaxError{};
  header += '}';
  const json j = parse_header(header);
  Results r = results_dom::read_header(j);
  if (!has_series) results_dom::require(j, "series", "document");  // throws: missing
  if (series_text) {
    JsonScanner again(*series_text);
    series = scan_series_array(again);
  }
  r.series = std::move(series);
  results_dom::read_trailer(j, r);
  return r;
}

}  // namespace

namespace detail {

Results scan_results(std::string_view text) {
  try {
    return scan_document(text, /*series_first=*/true);
  } catch (const SeriesReadFirst&) {
    // The header may hold the first problem: read again in the order of the checks (bounded
    // as before: nothing is built for what the reader does not read).
    return scan_document(text, /*series_first=*/false);
  }
}

}  // namespace detail

Results results_from_string(std::string_view text) {
  if (text.size() > kMaxBytes) fail("document", "larger than 256 MiB");
  if (text.empty() || JsonScanner(text).peek() != '{') {
    // Valid JSON of another kind says so; anything else is no JSON.
    JsonScanner in(text);
    try {
      in.skip_value();
      if (in.at_end()) fail("document", "expected a JSON object");
    } catch (const JsonSyntaxError&) {
    }
    fail("document", "not valid JSON (truncated or corrupted?)");
  }
  try {
    return detail::scan_results(text);
  } catch (const JsonSyntaxError&) {
    fail("document", "not valid JSON (truncated or corrupted?)");
  }
}

}  // namespace benchpr
