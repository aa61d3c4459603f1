// libFuzzer target: the Google Benchmark JSON parser (reads files written by code under test),
// and the fast JSON scanner under it, which must give nlohmann's events on everything it accepts.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "benchpr/core/base/valid_utf8.hpp"
#include "benchpr/formats/json_events.hpp"
#include "benchpr/formats/json_fast_path.hpp"
#include "fuzz_format.hpp"

namespace {

// The event stream as one string; the scanner passes number_float no token, so neither side's
// token is recorded.
struct Recorder : nlohmann::json_sax<nlohmann::json> {
  std::string out;
  bool null() override { return add("n"); }
  bool boolean(bool v) override { return add(v ? "t" : "f"); }
  bool number_integer(number_integer_t v) override { return add("i" + std::to_string(v)); }
  bool number_unsigned(number_unsigned_t v) override { return add("u" + std::to_string(v)); }
  bool number_float(number_float_t v, const string_t&) override {
    char buf[40];
    std::snprintf(buf, sizeof buf, "d%.17g", v);
    return add(buf);
  }
  bool string(string_t& v) override { return add("s" + std::to_string(v.size()) + ":" + v); }
  bool binary(binary_t&) override { return add("b"); }
  bool start_object(std::size_t) override { return add("{"); }
  bool key(string_t& v) override { return add("k" + std::to_string(v.size()) + ":" + v); }
  bool end_object() override { return add("}"); }
  bool start_array(std::size_t) override { return add("["); }
  bool end_array() override { return add("]"); }
  bool parse_error(std::size_t, const std::string&, const nlohmann::json::exception&) override {
    return false;
  }
  bool add(const std::string& e) {
    out += e;
    out += '\n';
    return true;
  }
};

// The scanner's events, recorded as nlohmann's are.
struct ScanRecorder final
    : benchpr::formats::detail::ForwardEvents<benchpr::formats::detail::JsonEvents, Recorder> {
  using ForwardEvents::ForwardEvents;
  void restart() override { to.out.clear(); }
};

void check_scanner(std::string_view text) {
  if (!benchpr::is_valid_utf8(text)) return;  // the scanner's precondition
  Recorder scanned_events;
  ScanRecorder scanned(scanned_events);
  if (!benchpr::formats::detail::scan_json(text, scanned)) return;
  Recorder parsed;
  if (!nlohmann::json::sax_parse(text.begin(), text.end(), &parsed)) std::abort();
  if (parsed.out != scanned_events.out) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const auto format = benchpr::formats::make_google_benchmark_format("", std::nullopt);
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  benchpr::fuzz::check_parse(*format, text);
  check_scanner(text);
  return 0;
}
