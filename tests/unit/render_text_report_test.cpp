// The terminal report, through the real analysis from raw rounds: a golden with colour off
// (tests/golden/terminal_report.txt) and the same report with colour on.
#include <cstdint>
#include <optional>
#include <regex>
#include <sstream>
#include <string>

#include <gtest/gtest.h>

#include "benchpr/core/adaptive/session_analysis.hpp"
#include "benchpr/core/notes/comment_notes.hpp"
#include "benchpr/render/text_report.hpp"
#include "benchpr/render/view_model.hpp"
#include "support/golden.hpp"

namespace benchpr::render {
namespace {

Results session() {
  Results r;
  r.base = {"main", "abc1234def5678abc1234def5678abc1234def56", ""};
  r.head = {"HEAD", "def5678abc1234def5678abc1234def5678abc12", ""};
  r.config.threshold = 0.02;
  r.plan.push_back({0, true, Side::Base});
  const Side firsts[] = {Side::Base, Side::Head, Side::Head, Side::Base, Side::Base,
                         Side::Head, Side::Head, Side::Base, Side::Base, Side::Head};
  for (int i = 0; i < 10; ++i) r.plan.push_back({i + 1, false, firsts[i]});
  r.rounds_done = 11;
  r.complete = true;
  return r;
}

BenchmarkSeries series(const std::string& name, double level, double effect, double noise,
                       std::uint64_t seed, const std::string& unit = "ns",
                       Better better = Better::Lower) {
  return testing::simulated_series(session(), {.name = name,
                                               .level = level,
                                               .effect = effect,
                                               .noise = noise,
                                               .seed = seed,
                                               .unit = unit,
                                               .better = better});
}

Results mixed_session() {
  Results r = session();
  r.series.push_back(series("BM_Tls/4096", 45100, 0.075, 0.01, 1));
  r.series.push_back(series("BM_Copy/65536", 1.63e6, -0.69, 0.01, 2));
  r.series.push_back(series("BM_Alloc/1024", 3120, 0.01, 0.05, 3));
  r.series.push_back(series("BM_Sort/8", 38.2, 0.002, 0.003, 4));
  r.series.push_back(series("read_file/4k", 2.31e9, 0.0, 0.003, 5, "B/s", Better::Higher));
  BenchmarkSeries gone = series("BM_Old", 10, 0, 0.01, 6);
  for (double& v : gone.head) v = kMissing;
  r.series.push_back(gone);
  return r;
}

// A significant change that is not a regression says why on its line, as the markdown does:
// otherwise a 1.2% `slower` beside a 7.5% `regression` reads as the same finding.
TEST(TextReport, SlowerAndFasterLinesSayWhyTheyAreNotRegressions) {
  Results r = session();
  r.series.push_back(series("BM_Tls/4096", 45100, 0.075, 0.004, 1));
  r.series.push_back(series("BM_Small", 812, 0.012, 0.003, 2));
  r.series.push_back(series("BM_Quick", 812, -0.012, 0.003, 3));
  for (int i = 0; i < 6; ++i)
    r.series.push_back(
        series("BM_Same/" + std::to_string(i), 100, 0, 0.004, 10 + static_cast<std::uint64_t>(i)));
  const Analysis a = analyse_session(r);
  ASSERT_EQ(a.benchmarks[1].verdict, Verdict::Slower);
  ASSERT_EQ(a.benchmarks[2].verdict, Verdict::Faster);
  const std::string text = render_text_report(r, a, {});
  std::istringstream lines(text);
  std::string line;
  int explained = 0;
  while (std::getline(lines, line)) {
    if (line.find("BM_Small") == std::string::npos && line.find("BM_Quick") == std::string::npos)
      continue;
    EXPECT_NE(line.find("below the 2.0% threshold"), std::string::npos) << line;
    ++explained;
  }
  EXPECT_EQ(explained, 2) << text;
}

// An `unchanged` row shows the interval that decided it, as the markdown does: its 90%
// equivalence interval inside the threshold, labelled so, never the 95% CI that crosses the
// threshold (+0.1 … +2.1% beside "unchanged" at ±2% read as a contradiction).
TEST(TextReport, AnUnchangedRowShowsTheIntervalThatDecidedItWithItsLevel) {
  Results r = session();
  Analysis a;
  a.analysed_rounds = 10;
  a.equivalence_level = 0.90;
  BenchmarkAnalysis same;
  same.suite = "core";
  same.name = "BM_Flat";
  same.unit = "ns";
  same.base_value = 100;
  same.head_value = 101.1;
  same.change = 0.011;
  same.ci_low = 0.001;
  same.ci_high = 0.021;
  same.eq_low = 0.003;
  same.eq_high = 0.019;
  same.threshold = 0.02;
  same.verdict = Verdict::Unchanged;
  BenchmarkAnalysis slow = same;
  slow.name = "BM_Slow";
  slow.change = 0.075;
  slow.ci_low = 0.065;
  slow.ci_high = 0.085;
  slow.verdict = Verdict::Regression;
  a.benchmarks = {slow, same};
  const std::string text = render_text_report(r, a, {false});
  std::istringstream lines(text);
  std::string line, flat, regression, header;
  while (std::getline(lines, line)) {
    if (line.find("BM_Flat") != std::string::npos) flat = line;
    if (line.find("BM_Slow") != std::string::npos) regression = line;
    if (line.find("verdict") != std::string::npos) header = line;
  }
  EXPECT_NE(flat.find("+0.3 … +1.9% (90%)"), std::string::npos) << text;
  EXPECT_EQ(flat.find("+2.1"), std::string::npos) << text;
  EXPECT_NE(regression.find("+6.5 … +8.5% (95%)"), std::string::npos) << text;
  EXPECT_NE(header.find("CI (level)"), std::string::npos) << text;
  EXPECT_EQ(header.find("95% CI"), std::string::npos) << text;
}

TEST(TextReport, GoldenWithoutColour) {
  const Results r = mixed_session();
  const std::string text = render_text_report(r, analyse_session(r), {false});
  EXPECT_EQ(text.find('\x1b'), std::string::npos);
  testing::expect_golden("terminal_report.txt", text);
}

TEST(TextReport, ColourPaintsVerdictsAndRecommendationAndNothingElseChanges) {
  const Results r = mixed_session();
  const Analysis a = analyse_session(r);
  const std::string plain = render_text_report(r, a, {false});
  const std::string colour = render_text_report(r, a, {true});
  EXPECT_NE(colour.find("\x1b[31mregression"), std::string::npos) << colour;
  EXPECT_NE(colour.find("\x1b[32mimprovement"), std::string::npos) << colour;
  EXPECT_NE(colour.find("\x1b[31mdo-not-merge"), std::string::npos) << colour;
  // Without its escapes the coloured report is the plain one, so the columns still line up.
  EXPECT_EQ(std::regex_replace(colour, std::regex("\x1b\\[[0-9;]*m"), ""), plain);
}

TEST(TextReport, ColumnsLineUp) {
  const Results r = mixed_session();
  const std::string text = render_text_report(r, analyse_session(r), {false});
  // Every table line has its benchmark name starting in the same column as the header's.
  std::istringstream in(text);
  std::string line;
  std::size_t column = std::string::npos;
  int rows = 0;
  while (std::getline(in, line)) {
    if (line.find("benchmark") != std::string::npos && line.find("verdict") != std::string::npos) {
      column = line.find("benchmark");
      continue;
    }
    if (column == std::string::npos) continue;
    if (line.empty()) break;  // the end of the table
    EXPECT_TRUE(line.substr(column, 3) == "BM_" || line.substr(column, 4) == "read") << line;
    ++rows;
  }
  EXPECT_EQ(rows, 6);
}

// Too few rounds for any verdict: the report says so in the comment's sentence (core's
// too_few_rounds_note, for revisions and for result files alike), once, before the other notes.
TEST(TextReport, TooFewRoundsIsTheCommentsNoteFirst) {
  for (const Origin origin : {Origin::Revisions, Origin::ResultFiles}) {
    SCOPED_TRACE(std::string(to_string(origin)));
    Results r = session();
    r.origin = origin;
    r.plan.resize(3);  // the warm-up and 2 analysed rounds
    r.rounds_done = 3;
    r.series.push_back(series("BM_Tls/4096", 45100, 0.075, 0.004, 1));
    r.series.push_back(series("BM_Same", 100, 0, 0.004, 2));
    const Analysis a = analyse_session(r);
    ASSERT_EQ(a.analysed_rounds, 2);
    const std::optional<Note> few = too_few_rounds_note(r, a);
    ASSERT_TRUE(few.has_value());
    const std::string text = render_text_report(r, a, {false});
    const std::string line = "\n\n  " + few->plain() + "\n";
    const std::size_t at = text.find(line);
    ASSERT_NE(at, std::string::npos) << text;
    EXPECT_EQ(text.find(few->plain(), at + line.size()), std::string::npos) << text;
    for (const Note& n : a.notes) {
      const std::size_t note_at = text.find(n.plain());
      EXPECT_TRUE(note_at != std::string::npos && note_at > at) << n.plain() << "\n" << text;
    }
  }
  // Enough rounds: no such note.
  const Results r = mixed_session();
  const Analysis a = analyse_session(r);
  ASSERT_FALSE(too_few_rounds_note(r, a).has_value());
  EXPECT_EQ(render_text_report(r, a, {false}).find("no benchmark can be called"),
            std::string::npos);
}

TEST(TextReport, HostileNamesCannotMoveTheCursor) {
  Results r = session();
  r.series.push_back(series("evil\x1b[2J\x1b[31mname\nline2", 100, 0, 0.01, 9));
  const std::string text = render_text_report(r, analyse_session(r), {false});
  EXPECT_EQ(text.find('\x1b'), std::string::npos) << text;
  EXPECT_NE(text.find("evil"), std::string::npos);
}

// Names, reasons and notes come from the code under test: with colour off the report holds no
// control character at all, with it on only benchpr's own colour codes, and no line is longer
// than a terminal line's cap.
TEST(TextReport, HostileNamesReachNoTerminal) {
  Results r = session();
  r.series.push_back(
      series("BM_\x1b]0;owned\x07\x1b[2J\xc2\x9b"
             "31m" +
                 std::string(100000, 'x'),
             45100, 0.075, 0.004, 1));
  r.series.push_back(series("BM_ok\x7f", 45100, 0.0, 0.004, 2));
  r.series.back().head_failure = "crashed \x1b]8;;https://x.example\x1b\\here\x1b]8;;\x1b\\";
  r.series.back().head_failure_kind = FailureKind::Signal;
  for (const bool color : {false, true}) {
    const Analysis a = analyse_session(r);
    const std::string out = render_text_report(r, a, {.color = color});
    std::string stripped = std::regex_replace(out, std::regex("\x1b\\[[0-9;]*m"), "");
    for (const unsigned char c : stripped)
      EXPECT_FALSE((c < 0x20 && c != '\n') || c == 0x7f) << int(c) << " color " << color;
    EXPECT_EQ(stripped.find("\xc2\x9b"), std::string::npos);
    std::istringstream lines(stripped);
    for (std::string line; std::getline(lines, line);) EXPECT_LE(line.size(), 1000u) << line;
  }
}

}  // namespace
}  // namespace benchpr::render

namespace benchpr::render {
namespace {

// A comparison interrupted before any analysed round finished failed nothing: every headline
// (comment, terminal, HTML) says it stopped, not "💥 3 failed". A finished comparison whose
// benchmarks all failed still counts them.
TEST(Headline, AComparisonStoppedBeforeAnyRoundSaysSoNotThatEverythingFailed) {
  Results r;
  r.complete = false;
  Analysis a;
  for (const char* name : {"BM_A", "BM_B", "BM_C"}) {
    BenchmarkAnalysis b;
    b.name = name;
    b.verdict = Verdict::Failed;
    b.failure = FailureKind::NotMeasured;
    a.benchmarks.push_back(b);
  }
  EXPECT_EQ(headline_phrase(r, a, true),
            "⏹️ stopped before any round finished (3 not measured)");
  EXPECT_EQ(headline_phrase(r, a, false), "stopped before any round finished (3 not measured)");
  EXPECT_NE(render_text_report(r, a, {}).find(
                "benchpr: stopped before any round finished (3 not measured)\n"),
            std::string::npos);
  a.benchmarks.back().failure = FailureKind::Signal;  // one really failed
  EXPECT_EQ(headline_phrase(r, a, true), "💥 3 failed");
  a.benchmarks.back().failure = FailureKind::NotMeasured;
  r.complete = true;  // finished, yet nothing measured: every one failed
  EXPECT_EQ(headline_phrase(r, a, false), "3 failed");
  EXPECT_EQ(headline_phrase(r, Analysis{}, false), "nothing was compared");
}

// The footer's wall time is the whole job's: a commit search after the comparison is in it.
TEST(Footer, MeasuredForIncludesTheCommitSearch) {
  Results r;
  r.measuring_seconds = 602;
  EXPECT_EQ(measured_for(r), "measured for 10m2s");
  r.bisect.emplace();
  r.bisect->seconds = 176;
  EXPECT_EQ(measured_for(r), "measured for 12m58s (the commit search 2m56s of it)");
}

}  // namespace
}  // namespace benchpr::render
