// Sentences built as text and code parts, and their plain form (names in backticks).
#include "benchpr/core/wording/sentence.hpp"

#include <gtest/gtest.h>

namespace benchpr {
namespace {

TEST(Sentence, AdjacentTextJoinsAndNamesStayParts) {
  Sentence s;
  s.text("Suite ").code("core").text(" compared").text(" CPU time.");
  const std::vector<TextPart>& p = s.parts();
  ASSERT_EQ(p.size(), 3u);
  EXPECT_EQ(p[0].text, "Suite ");
  EXPECT_FALSE(p[0].code);
  EXPECT_EQ(p[1].text, "core");
  EXPECT_TRUE(p[1].code);
  EXPECT_EQ(p[2].text, " compared CPU time.");
  EXPECT_EQ(plain_text(p), "Suite `core` compared CPU time.");
}

TEST(Note, PlainTextKeepsKindAndNames) {
  const Note plain = "Stopped after 10 analysed rounds.";
  EXPECT_EQ(plain.kind, NoteKind::Other);
  EXPECT_EQ(plain.plain(), "Stopped after 10 analysed rounds.");
  const Note named(NoteKind::Other, std::move(Sentence().code("BM_A").text(": flat.")).take());
  EXPECT_EQ(named.plain(), "`BM_A`: flat.");
  EXPECT_EQ(plain_texts({plain, named}),
            (std::vector<std::string>{"Stopped after 10 analysed rounds.", "`BM_A`: flat."}));
}

}  // namespace
}  // namespace benchpr
