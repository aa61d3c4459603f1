// Minimal UTF-8 decoding and encoding for the escapers: untrusted text may hold invalid bytes,
// which become U+FFFD so the comment is always valid UTF-8.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace benchpr::render::utf8 {

inline constexpr char32_t kReplacement = 0xFFFD;

// Decodes one code point at text[pos], advancing pos; invalid or truncated sequences and
// overlong forms yield U+FFFD and consume one byte.
char32_t next(std::string_view text, std::size_t& pos);

std::vector<char32_t> decode(std::string_view text);

void append(std::string& out, char32_t cp);

// Control characters that must never reach the comment: C0 (except the whitespace ones the
// callers handle), DEL, C1, and the bidirectional overrides/isolates that can make text read
// differently from what it is.
bool is_forbidden_control(char32_t cp);
// Line-breaking or tab-like characters that become a space in one-line contexts.
bool is_line_space(char32_t cp);

}  // namespace benchpr::render::utf8
