// The grammar both JSON scanners share: where a number ends and what an escape stands for,
// checked by hand against RFC 8259.
#include "benchpr/core/json/json_lex.hpp"

#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <string_view>

namespace benchpr::json_lex {
namespace {

// How many characters of `text` the number takes (nullopt: none), and whether it is an integer.
std::optional<std::size_t> number_length(std::string_view text, bool& integer) {
  const char* end = number_end(text.data(), text.data() + text.size(), integer);
  if (!end) return std::nullopt;
  return static_cast<std::size_t>(end - text.data());
}

TEST(JsonLex, NumbersEndWhereTheGrammarDoes) {
  bool integer = false;
  EXPECT_EQ(number_length("0", integer), 1u);
  EXPECT_TRUE(integer);
  EXPECT_EQ(number_length("-120,", integer), 4u);
  EXPECT_TRUE(integer);
  EXPECT_EQ(number_length("1.25]", integer), 4u);
  EXPECT_FALSE(integer);
  EXPECT_EQ(number_length("-1.25e-3}", integer), 8u);
  EXPECT_FALSE(integer);
  EXPECT_EQ(number_length("6E+23", integer), 5u);
  EXPECT_FALSE(integer);
  // A leading zero is a number of its own: "01" is 0 followed by something else.
  EXPECT_EQ(number_length("01", integer), 1u);
  EXPECT_EQ(number_length("-0.5", integer), 4u);
}

TEST(JsonLex, WhatIsNotANumberIsRefused) {
  bool integer = false;
  for (const std::string_view bad : {"", "-", "+1", ".5", "1.", "1.e3", "1e", "1e+", "-x", "NaN"})
    EXPECT_EQ(number_length(bad, integer), std::nullopt) << bad;
}

// The decoded text of the escape at the start of `text`, and how much of `text` it took.
std::optional<std::pair<std::string, std::size_t>> unescape(std::string_view text) {
  std::string out = "<";
  const char* end = escape_end(text.data(), text.data() + text.size(), &out);
  if (!end) return std::nullopt;
  // Checking without decoding gives the same end.
  EXPECT_EQ(escape_end(text.data(), text.data() + text.size(), nullptr), end);
  return std::pair{out.substr(1), static_cast<std::size_t>(end - text.data())};
}

TEST(JsonLex, EscapesStandForTheirCharacters) {
  using Decoded = std::pair<std::string, std::size_t>;
  EXPECT_EQ(unescape(R"(\n rest)"), (Decoded{"\n", 2}));
  EXPECT_EQ(unescape(R"(\")"), (Decoded{"\"", 2}));
  EXPECT_EQ(unescape(R"(\\)"), (Decoded{"\\", 2}));
  EXPECT_EQ(unescape(R"(\/)"), (Decoded{"/", 2}));
  EXPECT_EQ(unescape(R"(\b\f)"), (Decoded{"\b", 2}));
  EXPECT_EQ(unescape(R"(\t)"), (Decoded{"\t", 2}));
  EXPECT_EQ(unescape(R"(\u0041)"), (Decoded{"A", 6}));
  EXPECT_EQ(unescape(R"(\u0000)"), (Decoded{std::string(1, '\0'), 6}));
  EXPECT_EQ(unescape(R"(\u00e9)"), (Decoded{"\xc3\xa9", 6}));      // é: two bytes
  EXPECT_EQ(unescape(R"(\u20AC)"), (Decoded{"\xe2\x82\xac", 6}));  // €: three, upper-case hex
  // A surrogate pair is one character of four bytes (U+1F600).
  EXPECT_EQ(unescape(R"(\ud83d\ude00!)"), (Decoded{"\xf0\x9f\x98\x80", 12}));
}

TEST(JsonLex, WhatIsNotAnEscapeIsRefused) {
  for (const std::string_view bad : {R"(\)", R"(\x41)", R"(\U0041)", R"(\u12)", R"(\u12g4)",
                                     R"(\udc00)",         // a low surrogate alone
                                     R"(\ud83d)",         // a high one alone
                                     R"(\ud83dx\ude00)",  // ... not followed by its low one
                                     R"(\ud83d\u0041)",   // ... followed by another character
                                     "n"})
    EXPECT_EQ(unescape(bad), std::nullopt) << bad;
}

}  // namespace
}  // namespace benchpr::json_lex
