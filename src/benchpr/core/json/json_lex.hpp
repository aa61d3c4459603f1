// The lexical pieces of JSON (RFC 8259) that both of benchpr's scanners need: the grammar of a
// number and of an escape in a string. core/json_pull_scanner (the results file, pulled value by
// value) and formats/json_fast_path (benchmark output, pushed as SAX events) differ in how they
// are driven and in what an error does; what is valid JSON is decided here, once.
#pragma once

#include <string>

namespace benchpr::json_lex {

// The end of the number that starts at `p` (-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?), or
// nullptr when none does; `integer` tells whether it has neither a fraction nor an exponent.
const char* number_end(const char* p, const char* end, bool& integer);

// At a backslash inside a string: the position after the escape, or nullptr when it is not one of
// JSON's (a \u surrogate must come as a high-low pair, as JSON's own decoder demands). When `out`
// is given, what the escape stands for is appended to it as UTF-8.
const char* escape_end(const char* p, const char* end, std::string* out);

}  // namespace benchpr::json_lex
