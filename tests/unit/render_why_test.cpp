// Where a change is, as the comment and the HTML report show it: a regression explained by its
// profiles (function names with markdown and HTML in them, as PR code may have), a time-only
// change whose instructions did not move, and a benchmark that was not profiled. Golden files,
// each through the markdown injection checker.
#include <string>

#include <gtest/gtest.h>

#include "benchpr/core/adaptive/session_analysis.hpp"
#include "benchpr/render/flame_svg.hpp"
#include "benchpr/render/html_report.hpp"
#include "benchpr/render/render.hpp"
#include "benchpr/render/why_section.hpp"
#include "support/golden.hpp"

namespace benchpr::render {
namespace {

using testing::golden_session;
using testing::simulated_series;

const std::string kBm = "BM_Parse/small";
const std::string kBmFn = "BM_Parse(benchmark::State&)";
const std::string kNext = "Parser::next_token<std::basic_string<char>>() [clone .isra.0]";
const std::string kHostile = "evil<img src=x onerror=alert(1)>|`@octocat` #12 [x](http://e.vil)";

FunctionProfile side(double next, double hostile, bool with_old) {
  FunctionProfile p;
  p.functions = {{kBmFn, 20, 20 + 300 + next + hostile + (with_old ? 40 : 0)},
                 {"Parser::lookup()", 300, 300 + next},
                 {kNext, next, next},
                 {kHostile, hostile, hostile}};
  p.calls = {{kBmFn, "Parser::lookup()", 300 + next},
             {"Parser::lookup()", kNext, next},
             {kBmFn, kHostile, hostile}};
  if (with_old) {
    p.functions.push_back({"old_helper()", 40, 40});
    p.calls.push_back({kBmFn, "old_helper()", 40});
  }
  for (const ProfiledFunction& f : p.functions) p.total += f.self;
  return p;
}

Results session() {
  Results r = golden_session();
  r.series.push_back(
      simulated_series(r, {.name = kBm, .level = 812, .effect = 0.075, .noise = 0.003, .seed = 2}));
  r.series.push_back(simulated_series(
      r, {.name = "BM_Wait", .level = 5000, .effect = 0.2, .noise = 0.003, .seed = 3}));
  r.series.push_back(simulated_series(
      r, {.name = "BM_Other", .level = 100, .effect = -0.3, .noise = 0.003, .seed = 4}));
  BenchmarkProfile parse;
  parse.suite = r.series[0].suite;
  parse.name = kBm;
  parse.requested_by = "regression";
  parse.seconds = 4.2;
  parse.base = side(1000, 100, true);
  parse.head = side(1840, 130, false);
  BenchmarkProfile wait = parse;
  wait.name = "BM_Wait";
  wait.base = side(1000, 100, false);
  wait.head = side(1000, 100, false);
  wait.seconds = 3.1;
  BenchmarkProfile other;
  other.suite = parse.suite;
  other.name = "BM_Other";
  other.requested_by = "improvement";
  other.skipped = "the time budget was spent: 0s left for profiles";
  r.profiles = {parse, wait, other};
  return r;
}

TEST(RenderWhy, SectionsPhraseAndNote) {
  const Results r = session();
  const Analysis a = analyse_session(r);
  for (const BenchmarkAnalysis& b : a.benchmarks) {
    if (b.name == kBm || b.name == "BM_Wait") {
      ASSERT_EQ(b.verdict, Verdict::Regression) << b.name << ": " << b.reason;
    }
  }
  const std::string md = render_comment(r, a, {});
  // The phrase names the function that explains most of the change; the time-only change says
  // the instructions did not move.
  EXPECT_NE(md.find("❌ regression · mostly `Parser::next_token<std::basic_string<char>>() [clone "
                    ".isra.0]`"),
            std::string::npos);
  EXPECT_NE(md.find("the same instructions: the difference is in memory, waiting or frequency"),
            std::string::npos);
  EXPECT_NE(md.find("Not profiled: `BM_Other` (the time budget was spent"), std::string::npos);
  testing::expect_golden_comment("why_sections.md", md);
}

TEST(RenderWhy, SectionsGoBeforeTheUnchangedRowsWhenTheCommentIsTooLong) {
  const Results r = session();
  const Analysis a = analyse_session(r);
  const std::string full = render_comment(r, a, {});
  const std::size_t per_round = full.find("<details><summary>Per-round");
  const std::size_t per_round_end = full.find("</details>", per_round);
  ASSERT_NE(per_round_end, std::string::npos);
  RenderOptions small;
  // Too long by 100 bytes once the per-round rows are all left out.
  small.max_chars = full.size() - (per_round_end - per_round) - 100;
  const std::string md = render_comment(r, a, small);
  EXPECT_EQ(md.find("<summary>Where "), std::string::npos);
  EXPECT_NE(md.find("Function-level profiles: 2 benchmarks"), std::string::npos);
}

TEST(RenderWhy, IcicleGraphInTheHtmlReport) {
  const Results r = session();
  const std::string svg = icicle_svg(*r.profiles[0].base, *r.profiles[0].head);
  // The hostile name is text, never markup; nothing runs.
  EXPECT_EQ(svg.find("<img"), std::string::npos);
  EXPECT_EQ(svg.find("<script"), std::string::npos);
  EXPECT_NE(svg.find("evil&lt;img"), std::string::npos);
  // The PR's next_token box: 1,840 instructions of the root's 2,290, red for +84%.
  EXPECT_NE(svg.find(": base 1,000, PR 1,840 instructions per iteration (+840, +84.0%)"),
            std::string::npos);
  testing::expect_golden("why_icicle.svg", svg);
  const std::string html = render_html_report(r, analyse_session(r));
  EXPECT_NE(html.find(svg), std::string::npos);
  EXPECT_NE(html.find("Where it changed: mostly <code>"), std::string::npos);
}

TEST(RenderWhy, NoteSaysWhenProfilesCameFromTheCountsRuns) {
  Results r = session();
  r.profiles.pop_back();  // the one not profiled
  for (BenchmarkProfile& p : r.profiles) {
    p.from_counts = true;
    p.seconds = 0;
  }
  EXPECT_EQ(why_note(r),
            "Function-level profiles: 2 benchmarks, read from the instruction counts' Callgrind "
            "runs (no extra run).");
  r.profiles[1].from_counts = false;
  r.profiles[1].seconds = 3.1;
  EXPECT_EQ(why_note(r),
            "Function-level profiles: 2 benchmarks, one Callgrind job per side, 3.1s in all (1 "
            "read from the instruction counts' runs).");
}

TEST(RenderWhy, CallPathsAreShortenedInTheMiddle) {
  EXPECT_EQ(call_path({"a", "b", "c", "d", "e", "f"}), "`a` → … → `d` → `e` → `f`");
  EXPECT_EQ(call_path({"a", "b"}), "`a` → `b`");
  EXPECT_EQ(frame_name("cctz::time_zone::lookup(std::chrono::time_point<std::chrono::system_clock, "
                       "std::chrono::duration<long, std::ratio<1l, 1l> > > const&) const"),
            "cctz::time_zone::lookup(…) const");
  EXPECT_EQ(frame_name("(anonymous namespace)::BM_PrevWeekday(benchmark::State&)"),
            "(anonymous namespace)::BM_PrevWeekday(…)");
  EXPECT_EQ(frame_name("short(int)"), "short(int)");
  EXPECT_EQ(count_text(1404), "1,404");
  EXPECT_EQ(count_text(12.25), "12.2");
  EXPECT_EQ(signed_count_text(-1234567), "−1,234,567");
  EXPECT_EQ(html_text("a_b <c> @d #1 [e]", 100), "a&#95;b &lt;c&gt; @\u200Bd #\u200B1 &#91;e&#93;");
}

}  // namespace
}  // namespace benchpr::render
