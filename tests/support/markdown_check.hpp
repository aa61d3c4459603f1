// Checks a rendered comment for markup that untrusted text could have injected: what GitHub
// would render as HTML, a link, a live @mention or #reference, a heading, a split table row or
// an unclosed block outside code spans and code blocks. Every golden comment and every comment
// an integration test gets back goes through markdown_problems().
#pragma once

#include <string>
#include <vector>

namespace benchpr::testing {

// Well-formed UTF-8 (no overlong forms, surrogates or code points past U+10FFFF): GitHub and
// every JSON parser refuse anything else. Written independently of benchpr's own check.
bool is_valid_utf8(const std::string& s);

// One line split into text outside code spans ("prose") and the code spans' contents, the way
// CommonMark pairs backtick runs of equal length; backslash-escaped backticks are literal.
struct SplitLine {
  std::string prose;
  std::vector<std::string> code;
};
SplitLine split_code_spans(const std::string& line);

// Pipes that split a GFM table row into cells (GitHub splits even inside code spans; `\|` does
// not split).
int cell_separators(const std::string& row);

// Every way the comment's markup is broken or injected; empty when it is clean. Only the
// template's own tags are allowed as HTML: the marker comment on line 1, <details>, <summary>,
// <sub> (balanced); no live @mention or #123 outside code; no heading but the title; every table
// row has its header's cell count; code fences are closed; the text is valid UTF-8.
std::vector<std::string> markdown_problems(const std::string& md);

}  // namespace benchpr::testing
