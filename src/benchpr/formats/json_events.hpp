// Streaming a results file instead of building it: for formats whose files grow with the number
// of benchmarks (a Google Benchmark suite of 100,000 writes 26 MB), a node per value costs more
// than the benchmarks' own parsing needs.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace benchpr::formats::detail {

// nlohmann's SAX interface; syntax errors never reach it (sax_json turns them into ParseError).
struct JsonEvents : nlohmann::json_sax<nlohmann::json> {
  bool parse_error(std::size_t, const std::string&, const nlohmann::json::exception&) override {
    return false;
  }
  // Forget every event so far: the document is streamed again from its start (see json_fast_path).
  virtual void restart() = 0;
};

// Passes every event on to `to` (a JsonEvents or any handler with nlohmann's SAX functions): the
// way one handler sees what another parser streams. Base is nlohmann::json_sax<json> or
// JsonEvents; what a parse error does, and restart(), are the deriving class's.
template <class Base, class Sink>
struct ForwardEvents : Base {
  Sink& to;
  explicit ForwardEvents(Sink& sink) : to(sink) {}
  bool null() override { return to.null(); }
  bool boolean(bool v) override { return to.boolean(v); }
  bool number_integer(typename Base::number_integer_t v) override { return to.number_integer(v); }
  bool number_unsigned(typename Base::number_unsigned_t v) override {
    return to.number_unsigned(v);
  }
  bool number_float(typename Base::number_float_t v, const typename Base::string_t& s) override {
    return to.number_float(v, s);
  }
  bool string(typename Base::string_t& v) override { return to.string(v); }
  bool binary(typename Base::binary_t& v) override { return to.binary(v); }
  bool start_object(std::size_t n) override { return to.start_object(n); }
  bool key(typename Base::string_t& v) override { return to.key(v); }
  bool end_object() override { return to.end_object(); }
  bool start_array(std::size_t n) override { return to.start_array(n); }
  bool end_array() override { return to.end_array(); }
};

// The same checks and messages as load_json (size and depth limits, the empty file, ill-formed
// UTF-8 replaced, bare NaN / Infinity quoted, "not <title> JSON: ... at byte N"), with the
// document streamed to `events`. A ParseError thrown by `events` passes through unchanged.
void sax_json(std::string_view content, std::string_view format_title, JsonEvents& events);

}  // namespace benchpr::formats::detail
