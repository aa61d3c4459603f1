// Text that comes from the code under test (benchmark names, units, failure output, build logs)
// may hold any bytes; everything benchpr stores, serialises or renders must be valid UTF-8. These
// make it so at the edge: each byte that does not start a well-formed sequence becomes U+FFFD.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace benchpr {

// Length of the well-formed UTF-8 sequence at text[pos] (1–4), or 0 when the byte there does not
// start one: the one decoder check of the project (render/utf8 decodes with it too).
std::size_t utf8_sequence_length(std::string_view text, std::size_t pos);

// True when `text` is well-formed UTF-8 (no overlong forms, surrogates or code points past
// U+10FFFF).
bool is_valid_utf8(std::string_view text);

// `text` with every ill-formed byte replaced by U+FFFD (one replacement per byte).
std::string valid_utf8(std::string_view text);

// valid_utf8(text) in at most `max_bytes` bytes (at least 3): a longer text is cut at a character
// boundary and ends with "…". What a writer stores where a reader holds strings to a limit.
std::string capped_utf8(std::string_view text, std::size_t max_bytes);

// In place; no allocation when the text is already valid.
void make_valid_utf8(std::string& text);

}  // namespace benchpr
