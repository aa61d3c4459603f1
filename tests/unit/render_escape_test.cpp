// Hostile text from benchmarks and pull requests must come out inert.
#include <string>

#include <gtest/gtest.h>

#include "benchpr/render/escape.hpp"

namespace benchpr::render {
namespace {

const std::string kZwsp = "\u200B";

TEST(EscapeInline, HtmlBecomesEntities) {
  EXPECT_EQ(escape_inline("<img src=x onerror=alert(1)>"), "&lt;img src=x onerror=alert(1)&gt;");
  EXPECT_EQ(escape_inline("</details>"), "&lt;/details&gt;");
  EXPECT_EQ(escape_inline("a & \"b\""), "a &amp; &quot;b&quot;");
  EXPECT_EQ(escape_inline("&amp;"), "&amp;amp;");
}

TEST(EscapeInline, StickyMarkerCannotBeFaked) {
  EXPECT_EQ(escape_inline("<!-- benchpr:comment key=default -->"),
            "&lt;!-- benchpr:comment key=default --&gt;");
}

TEST(EscapeInline, MarkdownSpecialsAreBackslashed) {
  EXPECT_EQ(escape_inline("a|b"), "a\\|b");
  EXPECT_EQ(escape_inline("```"), "\\`\\`\\`");
  EXPECT_EQ(escape_inline("a_b*c~d\\e$f"), "a\\_b\\*c\\~d\\\\e\\$f");
  EXPECT_EQ(escape_inline("[x](https://evil)"), "\\[x\\](https:" + kZwsp + "//evil)");
}

TEST(EscapeInline, MentionsAndReferencesAreBroken) {
  EXPECT_EQ(escape_inline("@octocat"), "@" + kZwsp + "octocat");
  EXPECT_EQ(escape_inline("see #123"), "see #" + kZwsp + "123");
  EXPECT_EQ(escape_inline("#123"), "\\#" + kZwsp + "123");
  EXPECT_EQ(escape_inline("acme/widgets#1"), "acme/widgets#" + kZwsp + "1");
  EXPECT_EQ(escape_inline("fixes GH-17"), "fixes GH-" + kZwsp + "17");
  EXPECT_EQ(escape_inline("C# code"), "C# code");
}

TEST(EscapeInline, BareLinksAreBroken) {
  EXPECT_EQ(escape_inline("go to http://x.io"), "go to http:" + kZwsp + "//x.io");
  EXPECT_EQ(escape_inline("www.evil.com"), "www" + kZwsp + ".evil.com");
  EXPECT_EQ(escape_inline("awww.x"), "awww.x");
}

TEST(EscapeInline, BlockStartsAreEscaped) {
  EXPECT_EQ(escape_inline("- item"), "\\- item");
  EXPECT_EQ(escape_inline("+ item"), "\\+ item");
  EXPECT_EQ(escape_inline("# title"), "\\# title");
  EXPECT_EQ(escape_inline("1. first"), "1\\. first");
  EXPECT_EQ(escape_inline("12) first"), "12\\) first");
  EXPECT_EQ(escape_inline("a - b"), "a - b");
}

TEST(EscapeInline, NewlinesAndControlsBecomeOneSpace) {
  EXPECT_EQ(escape_inline("line1\nline2\r\n\t| injected"), "line1 line2 \\| injected");
  EXPECT_EQ(escape_inline("  padded  "), "padded");
  EXPECT_EQ(escape_inline(std::string("a\0b\x07"
                                      "c\x7f",
                                      6)),
            "abc");
  EXPECT_EQ(escape_inline("\u202Eevil\u2066"), "evil");  // bidi override and isolate
}

TEST(EscapeInline, UnicodeIsKeptAndInvalidBytesReplaced) {
  EXPECT_EQ(escape_inline("Ünïcødé/日本語/🚀"), "Ünïcødé/日本語/🚀");
  EXPECT_EQ(escape_inline("a\xff"
                          "b"),
            "a\uFFFD"
            "b");
  EXPECT_EQ(escape_inline("\xe6\x97"), "\uFFFD\uFFFD");  // truncated sequence
}

TEST(EscapeInline, LongTextIsCappedInCodePoints) {
  EXPECT_EQ(escape_inline(std::string(400, 'a')), std::string(299, 'a') + "…");
  EXPECT_EQ(escape_inline("日本語日本語", 4), "日本語…");
  EXPECT_EQ(escape_inline(std::string(300, 'a')), std::string(300, 'a'));
}

TEST(CodeSpan, FenceOutgrowsBackticksInside) {
  EXPECT_EQ(code_span("BM_Copy/64"), "`BM_Copy/64`");
  EXPECT_EQ(code_span("a`b"), "``a`b``");
  EXPECT_EQ(code_span("```"), "```` ``` ````");
  EXPECT_EQ(code_span("`x"), "`` `x ``");
  EXPECT_EQ(code_span(""), "` `");
}

TEST(CodeSpan, PipesAreEscapedOnlyInTables) {
  EXPECT_EQ(code_span("a|b"), "`a\\|b`");
  EXPECT_EQ(code_span("a|b", false), "`a|b`");
}

TEST(CodeSpan, StaysOnOneLine) {
  EXPECT_EQ(code_span("l1\nl2\r\n| row |"), "`l1 l2 \\| row \\|`");
  EXPECT_EQ(code_span(std::string(250, 'x')), "`" + std::string(199, 'x') + "…`");
}

TEST(EscapeCodeBlock, FencesAroundTheText) {
  EXPECT_EQ(escape_code_block("hello\n"), "```\nhello\n```");
  EXPECT_EQ(escape_code_block("a ``` b\n````"), "`````\na ``` b\n````\n`````");
  EXPECT_EQ(escape_code_block(""), "```\n(no output)\n```");
}

TEST(EscapeCodeBlock, CannotCloseDetails) {
  EXPECT_EQ(escape_code_block("</details>\n<!-- x -->"),
            "```\n<" + kZwsp + "/details>\n<!-- x -->\n```");
}

TEST(EscapeCodeBlock, TerminalNoiseIsRemoved) {
  EXPECT_EQ(escape_code_block("\x1b[1;31merror:\x1b[0m bad\x1b]0;title\x07"),
            "```\nerror: bad\n```");
  EXPECT_EQ(escape_code_block("10%\r50%\r100%\r\nok\r\n"), "```\n100%\nok\n```");
  EXPECT_EQ(escape_code_block("a  \n\n\n\nb\t\n\n"), "```\na\n\nb\n```");
}

TEST(EscapeCodeBlock, KeepsTheTail) {
  std::string log;
  for (int i = 0; i < 50; ++i) log += "line " + std::to_string(i) + "\n";
  EXPECT_EQ(escape_code_block(log, 3), "```\n…\nline 47\nline 48\nline 49\n```");
  EXPECT_EQ(escape_code_block(log, 40, 16), "```\n…\nline 48\nline 49\n```");
  EXPECT_EQ(escape_code_block(std::string(20, 'x') + "yz", 40, 4), "```\n…xxyz\n```");
}

TEST(OneLine, NothingCanStartANewLogLine) {
  EXPECT_EQ(one_line("ok\n::set-output name=x::y"), "ok ::set-output name=x::y");
}

TEST(SafeHttpsUrl, OnlyHttpsAndEncoded) {
  EXPECT_EQ(safe_https_url("https://github.com/o/r/actions/runs/1"),
            "https://github.com/o/r/actions/runs/1");
  EXPECT_EQ(safe_https_url("https://x.io/a) [b](javascript:c"),
            "https://x.io/a%29%20%5Bb%5D%28javascript:c");
  EXPECT_EQ(safe_https_url("http://x.io/"), "");
  EXPECT_EQ(safe_https_url("javascript:alert(1)"), "");
  EXPECT_EQ(safe_https_url("https:///path"), "");
}

// Every control character a benchmark name, a commit subject or a failure reason could carry to
// the terminal (OSC 0 title, CSI 2J, an OSC 8 link, BEL, C1 CSI, DEL) is removed.
TEST(TerminalLine, RemovesEveryControlCharacter) {
  const std::string hostile =
      "BM_\x1b]0;pwned\x07title \x1b[2J\x1b]8;;https://evil.example\x1b\\link\x1b]8;;\x1b\\ "
      "c1\xc2\x9b"
      "31m del\x7f nul" +
      std::string(1, '\0') + "end\r\nnext\tcol";
  const std::string line = terminal_line(hostile);
  for (const unsigned char c : line) {
    EXPECT_FALSE(c < 0x20 || c == 0x7f) << "control byte " << int(c) << " in: " << line;
  }
  EXPECT_EQ(line.find("\xc2\x9b"), std::string::npos) << line;  // C1 CSI
  EXPECT_NE(line.find("BM_"), std::string::npos);
  EXPECT_NE(line.find("next col"), std::string::npos) << line;
}

TEST(TerminalLine, CapsTheLineKeepingItsStartAndEnd) {
  const std::string name(1 << 20, 'x');
  const std::string line = terminal_line("start " + name + " the fix");
  EXPECT_LE(line.size(), kTerminalLineMaxChars + 2);  // "…" is 3 bytes for 1 character
  EXPECT_EQ(line.rfind("start ", 0), 0u);
  EXPECT_NE(line.find("…"), std::string::npos);
  EXPECT_EQ(line.substr(line.size() - 8), " the fix");
  EXPECT_EQ(terminal_line("short"), "short");
}

TEST(TerminalLine, ASentenceIsCutBetweenWords) {
  std::string text;
  for (int i = 0; i < 200; ++i) text += "word" + std::to_string(i % 10) + " +8.0 ";
  const std::string line = terminal_line(text, 100);
  const std::size_t at = line.find("…");
  ASSERT_NE(at, std::string::npos) << line;
  EXPECT_EQ(line[at - 1], ' ') << line;          // the start ends after a whole word
  EXPECT_EQ(line[at + 3], ' ') << line;          // the end starts before a whole word
  EXPECT_LE(line.size(), std::size_t{100} + 2);  // "…" is 3 bytes for 1 character
}

TEST(TerminalText, KeepsLinesCleaningEach) {
  EXPECT_EQ(terminal_text("one\x1b[1m\ntwo\x07"), "one[1m\ntwo");
}

}  // namespace
}  // namespace benchpr::render
