#include "benchpr/runner/filter_match.hpp"

#include <gtest/gtest.h>

namespace benchpr::runner {
namespace {

TEST(FilterMatch, NoFilterKeepsEveryName) {
  const auto none = compile_filter("");
  EXPECT_FALSE(none);
  EXPECT_TRUE(filter_matches(none, "BM_Anything"));
  EXPECT_TRUE(filter_matches(none, std::string(kMaxFilteredNameBytes * 10, 'x')));
}

TEST(FilterMatch, SearchesLikeGoogleBenchmarksFilter) {
  const auto f = compile_filter("BM_Parse.*/64$");
  EXPECT_TRUE(filter_matches(f, "BM_ParseJson/64"));
  EXPECT_FALSE(filter_matches(f, "BM_ParseJson/640"));
  EXPECT_FALSE(filter_matches(f, "BM_Write/64"));
}

TEST(FilterMatch, NamesAtTheLimitAreMatchedLongerOnesNever) {
  const auto f = compile_filter("BM_.*x");
  const std::string at_limit = "BM_" + std::string(kMaxFilteredNameBytes - 4, 'a') + "x";
  ASSERT_EQ(at_limit.size(), kMaxFilteredNameBytes);
  EXPECT_TRUE(filter_matches(f, at_limit));
  // 200,000 characters: libstdc++'s matcher would recurse a frame per character and overflow
  // the stack; the name is left out without being matched.
  const std::string huge = "BM_" + std::string(200'000, 'a') + "x";
  EXPECT_FALSE(filter_matches(f, huge));
}

}  // namespace
}  // namespace benchpr::runner
