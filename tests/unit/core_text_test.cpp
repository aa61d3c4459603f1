#include <gtest/gtest.h>

#include "benchpr/core/base/text.hpp"

namespace benchpr {
namespace {

TEST(ShellQuote, SingleQuotesEverything) {
  EXPECT_EQ(shell_quote("/tmp/a b.json"), "'/tmp/a b.json'");
  EXPECT_EQ(shell_quote("it's"), "'it'\\''s'");
  EXPECT_EQ(shell_quote("$(rm -rf /)"), "'$(rm -rf /)'");
  EXPECT_EQ(shell_quote(""), "''");
  EXPECT_EQ(shell_quote("+refs/pull/7/head:refs/benchpr/pull/7/head"),
            "'+refs/pull/7/head:refs/benchpr/pull/7/head'");
}

TEST(ShortSha, SevenLowerCaseHexDigitsOrNothing) {
  EXPECT_EQ(short_sha("ABCDEF0123456789abcdef0123456789abcdef01"), "abcdef0");
  EXPECT_EQ(short_sha("abc1234"), "abc1234");
  EXPECT_EQ(short_sha("abc123"), "");           // too short to name a commit
  EXPECT_EQ(short_sha("abc1234<script>"), "");  // untrusted text never passes
  EXPECT_EQ(short_sha(""), "");
}

TEST(Trim, AsciiWhitespaceAtBothEnds) {
  EXPECT_EQ(trim(" \t\n a b \r\f\v"), "a b");
  EXPECT_EQ(trim("   "), "");
  EXPECT_EQ(trim("x"), "x");
}

}  // namespace
}  // namespace benchpr
