// Run-level notes and inconclusive reasons: names in notes render as code in every output, escaped
// as names are (a suite or benchmark name comes from the PR's code), and the notes the renderer
// words itself from Results (partial run, cold rounds, edited config) are not repeated, decided by
// kind.
#include <string>

#include <gtest/gtest.h>

#include "benchpr/core/wording/sentence.hpp"
#include "benchpr/render/html_report.hpp"
#include "benchpr/render/render.hpp"
#include "benchpr/render/text_report.hpp"
#include "support/hand_analysis.hpp"
#include "support/markdown_check.hpp"

namespace benchpr::render {
namespace {

Analysis with_note(const std::string& suite) {
  Analysis a;
  a.analysed_rounds = 6;
  a.recommendation.kind = RecommendationKind::Inconclusive;
  a.recommendation.reason = "nothing compared";
  a.notes.emplace_back(
      NoteKind::Other,
      std::move(Sentence().text("Suite ").code(suite).text(" compared CPU time (one thread)."))
          .take());
  return a;
}

std::size_t count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

TEST(RenderNotes, ANameInANoteIsCodeNotEscapedBackticks) {
  Results r;
  r.complete = true;
  const std::string md = render_comment(r, with_note("demo"), {});
  EXPECT_NE(md.find("Suite `demo` compared CPU time (one thread)."), std::string::npos) << md;
  EXPECT_EQ(md.find("\\`"), std::string::npos) << md;
  const std::string html = render_html_report(r, with_note("demo"));
  EXPECT_NE(html.find("Suite <code>demo</code> compared CPU time"), std::string::npos);
}

TEST(RenderNotes, AHostileNameStaysInsideItsSpan) {
  Results r;
  r.complete = true;
  const std::string hostile = "x` <b>bold</b> @octocat\n\n# heading";
  const std::string md = render_comment(r, with_note(hostile), {});
  // Inside a code span, <b> and @octocat are shown as typed, not rendered or notified.
  EXPECT_TRUE(testing::markdown_problems(md).empty()) << md;
  EXPECT_NE(md.find("Suite `"), std::string::npos) << md;
  const std::string html = render_html_report(r, with_note(hostile));
  EXPECT_EQ(html.find("<b>bold"), std::string::npos);
}

TEST(RenderNotes, NotesTheRendererWordsItselfAppearOnce) {
  Results r;
  r.complete = false;
  r.stop = {StopKind::Interrupted, 0, "by SIGTERM"};
  r.config_changed_by_head = true;
  Analysis a = with_note("demo");
  a.notes.emplace_back(NoteKind::Partial, "Partial results: 6 of 10 analysed rounds ran (x).");
  a.notes.emplace_back(NoteKind::ConfigEdited,
                       "This pull request edits .benchpr.yml; the base revision's configuration "
                       "was used.");
  // Worded like a partial-run note but of another kind: kept (the kind decides, not the words).
  a.notes.emplace_back("Partial results are a phrase here.");
  const std::string md = render_comment(r, a, {});
  EXPECT_EQ(count(md, "Partial results: "), 1u) << md;
  EXPECT_EQ(count(md, "Partial results are a phrase here."), 1u) << md;
  EXPECT_EQ(count(md, "configuration was used, so"), 1u) << md;  // the template's own
  EXPECT_EQ(count(md, "configuration was used."), 0u) << md;
  const std::string html = render_html_report(r, a);
  EXPECT_EQ(count(html, "Partial results: "), 1u);
}

TEST(RenderNotes, TheTerminalShowsThePlainSentence) {
  Results r;
  r.complete = true;
  const std::string text = render_text_report(r, with_note("demo"));
  EXPECT_NE(text.find("Suite `demo` compared CPU time (one thread)."), std::string::npos) << text;
}

// The short form ("no change beyond ±11.0%": what the CI rules out) is decided by the
// analysis's flag, not by the words of its reason.
TEST(RenderReasons, NoSignalIsTheAnalysisFlagNotAPrefix) {
  Results r;
  r.complete = true;
  Analysis a;
  a.analysed_rounds = 6;
  BenchmarkAnalysis b =
      testing::hand_benchmark("core", "BM_Wide", Verdict::Inconclusive, 100, 103, 0.03);
  b.ci_low = -0.05;
  b.ci_high = 0.11;
  b.no_signal = true;
  b.reason = "the 95% CI -5.0% … +11% is wider than ±2%";
  a.benchmarks.push_back(b);
  const std::string flagged = render_comment(r, a, {});
  EXPECT_NE(flagged.find("inconclusive: no change beyond ±11.0%"), std::string::npos) << flagged;
  EXPECT_EQ(flagged.find("is wider than"), std::string::npos) << flagged;
  EXPECT_NE(render_text_report(r, a).find("no change beyond ±11.0%"), std::string::npos);

  a.benchmarks[0].no_signal = false;
  a.benchmarks[0].reason = "no signal words, but another reason";
  const std::string other = render_comment(r, a, {});
  EXPECT_NE(other.find("inconclusive: no signal words, but another reason"), std::string::npos)
      << other;
}

}  // namespace
}  // namespace benchpr::render
