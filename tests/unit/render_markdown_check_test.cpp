// The markdown injection checker every golden comment goes through must be able to fail: each
// kind of injected or broken markup it claims to find is found, and clean markup passes.
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "support/markdown_check.hpp"

namespace benchpr::testing {
namespace {

const std::string kHead =
    "<!-- benchpr:comment key=default -->\n### benchpr: ✅ 1 unchanged\n\n"
    "| benchmark | verdict |\n|:--|:--|\n";

// The problems of a comment whose table ends with `row` and is followed by `tail`.
std::vector<std::string> problems_with(const std::string& row, const std::string& tail = "") {
  return markdown_problems(kHead + row + "\n\n" + tail);
}

TEST(MarkdownCheck, CleanCommentPasses) {
  const std::string clean = "| `<img src=x>` and `@octocat` and `#12` | ✅ unchanged \\| kept |";
  EXPECT_EQ(problems_with(clean,
                          "<details><summary>more</summary>\n\n```\n</x>\n```\n\n"
                          "</details>\n<sub>[run](https://github.com/a/b)</sub>\n"),
            std::vector<std::string>{});
}

TEST(MarkdownCheck, FindsEachInjection) {
  struct Case {
    const char* what;
    std::string row;
    std::string tail;
  };
  const std::vector<Case> cases = {
      {"raw HTML", "| <img src=x onerror=alert(1)> | x |", ""},
      {"a live mention", "| @octocat | x |", ""},
      {"a live reference", "| see #123 | x |", ""},
      {"a split table row", "| a|b | x |", ""},
      {"a row broken by a newline", "| line1", "| injected | row | more |\n"},
      {"a link", "| [x](https://evil) | x |", ""},
      {"a bare URL", "| www.evil.com | x |", ""},
      {"a heading", "| a | x |", "## injected\n"},
      {"a second marker", "| a | x |", "<!-- benchpr:comment key=default -->\n"},
      {"an unclosed block", "| a | x |", "```\ncode\n"},
      {"a closing details tag", "| a | x |", "</details>\n"},
      {"a details tag left open", "| a | x |", "<details>\n"},
      {"a details tag closed in code", "| a | x |", "<details>\n```\n</details>\n```\n"},
      {"invalid UTF-8", "| \xC0\xAF | x |", ""},
  };
  for (const Case& c : cases) {
    EXPECT_FALSE(problems_with(c.row, c.tail).empty()) << c.what << " was not found";
  }
  EXPECT_FALSE(markdown_problems("### no marker\n").empty()) << "a missing marker was not found";
}

TEST(MarkdownCheck, CodeSpansPairBackticksOfEqualLength) {
  const SplitLine s = split_code_spans("a ``x ` y`` b `c` \\`d`");
  EXPECT_EQ(s.code, (std::vector<std::string>{"x ` y", "c"}));
  EXPECT_EQ(s.prose, "a  CODE  b  CODE  \\`d`");
  EXPECT_EQ(cell_separators("| `a|b` | c \\| d |"), 4);
  EXPECT_FALSE(is_valid_utf8("\xED\xA0\x80"));  // a surrogate
  EXPECT_TRUE(is_valid_utf8("Ünïcødé 🚀"));
}

}  // namespace
}  // namespace benchpr::testing
