// Escaping for everything that reaches the comment from the benchmarked code or the pull
// request (benchmark and suite names, failure reasons, log tails, titles). Such text is
// untrusted: it must not inject HTML, fake the sticky marker, break a table, close a
// <details> block, ping people (@name), link issues (#123) or turn into live links.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace benchpr::render {

inline constexpr std::size_t kInlineMaxChars = 300;
inline constexpr std::size_t kCodeSpanMaxChars = 200;
inline constexpr std::size_t kCodeBlockMaxLines = 40;
inline constexpr std::size_t kCodeBlockMaxBytes = 6000;

// Text for a table cell or prose: HTML specials become entities, markdown specials are
// backslash-escaped, @mentions / #refs / GH-refs / bare URLs are broken with a zero-width
// space (U+200B), control characters and newlines become spaces, bidi overrides are dropped,
// invalid UTF-8 becomes U+FFFD, and the text is capped at max_chars code points ("…").
std::string escape_inline(std::string_view text, std::size_t max_chars = kInlineMaxChars);

// A code span (`name`) with a fence longer than any backtick run inside. Newlines and control
// characters become spaces. In a table, `|` must be written `\|` (GitHub splits cells on pipes
// even inside code spans and unescapes `\|` there), so in_table escapes it.
std::string code_span(std::string_view text, bool in_table = true,
                      std::size_t max_chars = kCodeSpanMaxChars);

// A whole fenced code block (fences included, no trailing newline) showing the tail of a log:
// ANSI colour sequences and control characters are removed, carriage-return progress lines
// keep their last state, trailing whitespace and repeated blank lines go, only the last
// max_lines lines / max_bytes bytes are kept, and "</" becomes "<\u200B/" so nothing inside
// can close the surrounding <details> even where a renderer would not treat it as literal.
std::string escape_code_block(std::string_view text, std::size_t max_lines = kCodeBlockMaxLines,
                              std::size_t max_bytes = kCodeBlockMaxBytes);

// Strips a string to one line of plain text (control characters and newlines -> spaces), for
// logs: a newline in a benchmark name must not start a line such as "::set-output".
std::string one_line(std::string_view text, std::size_t max_chars = kInlineMaxChars);

// A line for the terminal (progress, warnings, errors, the text report's quoted names): every
// control character (C0, DEL, C1: ESC, BEL, CSI, OSC...) and bidi override removed, newlines and
// tabs as spaces, invalid UTF-8 as U+FFFD, and at most max_chars code points: a longer line
// keeps its start and its end (where messages say the fix) around a "…".
inline constexpr std::size_t kTerminalLineMaxChars = 500;
std::string terminal_line(std::string_view text, std::size_t max_chars = kTerminalLineMaxChars);
// terminal_line for each line of a text of several lines.
std::string terminal_text(std::string_view text, std::size_t max_chars = kTerminalLineMaxChars);

// Text for HTML content and attribute values (the HTML report): & < > " ' as entities, invalid
// UTF-8 as U+FFFD, control and bidi-override characters dropped (newlines and tabs become
// spaces), capped at max_chars code points ("…").
std::string escape_html(std::string_view text, std::size_t max_chars = 300);

// An https:// URL made safe as a markdown link destination (characters outside the URL set
// percent-encoded), or "" when the text is not an https URL.
std::string safe_https_url(std::string_view url);

}  // namespace benchpr::render
