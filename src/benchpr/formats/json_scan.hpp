// A fast path for streaming well-formed JSON: a scanner that reads valid input several times
// faster than nlohmann's lexer (which copies every character into a token buffer for its error
// messages) and gives up at the first thing it cannot vouch for. Whoever calls it starts over
// with nlohmann's parser then, which decides and words the error: the scanner never needs to.
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
