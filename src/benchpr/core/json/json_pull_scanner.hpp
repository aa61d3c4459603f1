// A forward-only JSON scanner for the large, regular parts of a results file (the series: most of
// its bytes, read with no DOM). It validates what it passes over: strings are well-formed UTF-8
// without control characters, escapes are JSON's, numbers follow JSON's grammar, brackets match.
// Anything else throws JsonSyntaxError; the caller words the error.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace benchpr {

struct JsonSyntaxError {};

class JsonScanner {
 public:
  explicit JsonScanner(std::string_view text) : text_(text) {}

  // The next non-blank character, not consumed; '\0' at the end of the text.
  char peek();
  bool at_end() { return peek() == '\0' && pos_ >= text_.size(); }
  void expect(char c);
  // Consumes `c` when it is next.
  bool consume(char c);
  // A string token, quotes included, checked.
  std::string_view string_token();
  // Its text: the bytes between the quotes when there is no escape, else JSON's decoding.
  static std::string decode(std::string_view token);
  // A number, as a double; one too large for a double is an error, as in JSON's own reader.
  double number();
  // The literal `word` (null, true, false).
  void literal(std::string_view word);
  // Any value, checked and passed over; its text (nesting is not recursive: no depth limit).
  std::string_view skip_value();

 private:
  std::string_view number_token();
  const char* end() const { return text_.data() + text_.size(); }
  std::string_view text_;
  std::size_t pos_ = 0;
};

}  // namespace benchpr
