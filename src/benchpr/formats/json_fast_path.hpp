// A fast path for streaming well-formed JSON: a scanner that reads valid input faster than
// nlohmann's lexer (which copies every character into a token buffer for its error messages; with
// it a 26 MB Google Benchmark file parsed in about 630 ms of CPU, with this in about 345 ms, both
// including the entries' extraction) and gives up at the first thing it cannot vouch for. Whoever
// calls it starts over with nlohmann's parser then, which decides and words the error: the
// scanner never needs to. The grammar of numbers and escapes is core/json_lex's, which the
// results file's scanner (core/json_pull_scanner, pulled value by value) shares.
#pragma once

#include <string_view>

#include "benchpr/formats/json_events.hpp"

namespace benchpr::formats::detail {

// Streams `text` to `events` and returns true when `text` is one well-formed JSON value
// (RFC 8259, whitespace around it) that nlohmann would read to the same events. Returns false,
// possibly after some events, for anything else: a syntax error, a byte-order mark, nesting
// deeper than kMaxJsonDepth, a number out of double's range. `text` must be valid UTF-8.
// number_float's token argument is passed empty.
bool scan_json(std::string_view text, JsonEvents& events);

}  // namespace benchpr::formats::detail
