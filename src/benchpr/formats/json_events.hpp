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
  // Forget every event so far: the document is streamed again from its start (see json_scan).
  virtual void restart() = 0;
};

// The same checks and messages as load_json (size and depth limits, the empty file, ill-formed
// UTF-8 replaced, bare NaN / Infinity quoted, "not <title> JSON: ... at byte N"), with the
// document streamed to `events`. A ParseError thrown by `events` passes through unchanged.
void sax_json(std::string_view content, std::string_view format_title, JsonEvents& events);

}  // namespace benchpr::formats::detail
