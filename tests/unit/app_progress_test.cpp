// Progress lines reach a terminal (or the Actions log): they quote benchmark names, commit
// subjects and failure reasons from the code under test, so no control character gets through
// and no line is longer than the cap.
#include <string>

#include <gtest/gtest.h>

#include "benchpr/app/progress.hpp"

namespace benchpr::app {
namespace {

TEST(ProgressLine, NeutralisesEscapeSequencesAndControls) {
  const std::string line = progress_line(
      "running BM_\x1b]0;owned\x07 \x1b[2J\x1b]8;;https://x.example\x1b\\a\x1b]8;;\x1b\\ "
      "\xc2\x9d"
      "osc \x7f\x01\x1f\r\nwarning: not a line of its own");
  EXPECT_EQ(line.rfind("benchpr: running BM_", 0), 0u) << line;
  for (const unsigned char c : line) EXPECT_FALSE(c < 0x20 || c == 0x7f) << int(c);
  EXPECT_EQ(line.find("\xc2\x9d"), std::string::npos);
  EXPECT_EQ(line.find('\n'), std::string::npos);
}

TEST(ProgressLine, IsCappedWithAnEllipsis) {
  const std::string line = progress_line("the name " + std::string(1 << 20, 'n') + " ends");
  EXPECT_LT(line.size(), 520u);
  EXPECT_NE(line.find("…"), std::string::npos);
  EXPECT_EQ(line.substr(line.size() - 5), " ends");
}

}  // namespace
}  // namespace benchpr::app
