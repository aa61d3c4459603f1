// Bytes from the code under test become valid UTF-8: each ill-formed byte is one U+FFFD.
#include <gtest/gtest.h>

#include "benchpr/core/base/valid_utf8.hpp"

namespace benchpr {
namespace {

const std::string kFFFD = "\xEF\xBF\xBD";

TEST(ValidUtf8, WellFormedTextIsKept) {
  for (const std::string s :
       {"", "BM_Copy/64", "caf\xC3\xA9", "\xE2\x82\xAC 5", "\xF0\x9F\x92\xA5"}) {
    EXPECT_TRUE(is_valid_utf8(s)) << s;
    EXPECT_EQ(valid_utf8(s), s);
  }
}

TEST(ValidUtf8, EachIllFormedByteBecomesOneReplacement) {
  EXPECT_EQ(valid_utf8("BM_caf\xE9"), "BM_caf" + kFFFD);                     // Latin-1
  EXPECT_EQ(valid_utf8("\xFF\xFE"), kFFFD + kFFFD);                          // never valid
  EXPECT_EQ(valid_utf8("a\xC3"), "a" + kFFFD);                               // truncated at the end
  EXPECT_EQ(valid_utf8("\xC3(x"), kFFFD + "(x");                             // bad continuation
  EXPECT_EQ(valid_utf8("\xC0\xAF"), kFFFD + kFFFD);                          // overlong '/'
  EXPECT_EQ(valid_utf8("\xED\xA0\x80"), kFFFD + kFFFD + kFFFD);              // a surrogate
  EXPECT_EQ(valid_utf8("\xF4\x90\x80\x80"), kFFFD + kFFFD + kFFFD + kFFFD);  // past U+10FFFF
  for (const std::string s : {"BM_caf\xE9", "a\xC3", "\xED\xA0\x80"}) {
    EXPECT_FALSE(is_valid_utf8(s));
    EXPECT_TRUE(is_valid_utf8(valid_utf8(s)));
  }
}

TEST(ValidUtf8, InPlace) {
  std::string s = "x\x80y";
  make_valid_utf8(s);
  EXPECT_EQ(s, "x" + kFFFD + "y");
}

}  // namespace
}  // namespace benchpr
