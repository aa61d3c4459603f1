#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "benchpr/github/link_header.hpp"

namespace benchpr::github {
namespace {

TEST(LinkHeaderTest, ParsesGitHubsPaginationHeader) {
  auto links = parse_link_header(
      "<https://api.github.com/repositories/1300192/issues/3/comments?page=2>; rel=\"next\", "
      "<https://api.github.com/repositories/1300192/issues/3/comments?page=5>; rel=\"last\"");
  ASSERT_EQ(links.size(), 2u);
  EXPECT_EQ(links["next"], "https://api.github.com/repositories/1300192/issues/3/comments?page=2");
  EXPECT_EQ(links["last"], "https://api.github.com/repositories/1300192/issues/3/comments?page=5");
}

TEST(LinkHeaderTest, NextLinkOnAMiddlePage) {
  EXPECT_EQ(next_link("<https://h/x?page=1>; rel=\"prev\", <https://h/x?page=3>; rel=\"next\", "
                      "<https://h/x?page=9>; rel=\"last\", <https://h/x?page=1>; rel=\"first\""),
            "https://h/x?page=3");
}

TEST(LinkHeaderTest, LastPageHasNoNext) {
  EXPECT_EQ(next_link("<https://h/x?page=1>; rel=\"prev\", <https://h/x?page=1>; rel=\"first\""),
            std::nullopt);
  EXPECT_EQ(next_link(""), std::nullopt);
}

TEST(LinkHeaderTest, ToleratesSpacingCaseUnquotedValuesAndOtherParameters) {
  EXPECT_EQ(next_link("  <https://h/a?page=2>;rel=next"), "https://h/a?page=2");
  EXPECT_EQ(next_link("<https://h/a?page=2> ; REL = \"Next\""), "https://h/a?page=2");
  EXPECT_EQ(next_link("<https://h/a?page=2>; title=\"page, two; ok\"; rel=\"next\""),
            "https://h/a?page=2");
  EXPECT_EQ(next_link("<https://h/a?page=2>; rel=\"next last\""), "https://h/a?page=2");
  EXPECT_EQ(parse_link_header("<https://h/a?page=2>; rel=\"next last\"").count("last"), 1u);
}

TEST(LinkHeaderTest, CommasAndSemicolonsInsideTheUrlStayInTheUrl) {
  EXPECT_EQ(next_link("<https://h/a?q=a,b;c&page=2>; rel=\"next\""), "https://h/a?q=a,b;c&page=2");
}

TEST(LinkHeaderTest, SkipsMalformedPiecesAndKeepsTheFirstOfARelation) {
  EXPECT_EQ(next_link("garbage, <https://h/2>; rel=\"next\", <https://h/3>; rel=\"next\""),
            "https://h/2");
  EXPECT_EQ(next_link("<https://h/2>"), std::nullopt);               // no rel
  EXPECT_EQ(next_link("<https://h/2; rel=\"next\""), std::nullopt);  // unterminated URL
  EXPECT_EQ(next_link("<>; rel=\"next\""), std::nullopt);
}

}  // namespace
}  // namespace benchpr::github
