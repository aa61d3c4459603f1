// The HTML report as text: self-contained (no script, nothing fetched), everything untrusted
// escaped, the run order drawn for every round, the numbers of the analysis shown. The
// rendering itself is checked in a real browser by tests/integration/html_report_test.cpp.
#include <algorithm>
#include <regex>
#include <string>

#include <gtest/gtest.h>

#include "benchpr/core/adaptive/session_analysis.hpp"
#include "benchpr/render/html_report.hpp"
#include "benchpr/render/html_svg.hpp"
#include "support/golden.hpp"

namespace benchpr::render {
namespace {

std::size_t count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (std::size_t p = text.find(what); p != std::string::npos; p = text.find(what, p + 1)) ++n;
  return n;
}

// A session of 1 warm-up + 10 rounds with known effects, analysed by the real analysis.
Results session(int benchmarks_extra = 0) {
  return testing::known_effects_session(benchmarks_extra);
}

TEST(HtmlReport, SelfContainedAndEscaped) {
  const Results r = session();
  const Analysis a = analyse_session(r);
  const std::string html = render_html_report(r, a);
  EXPECT_EQ(html.rfind("<!DOCTYPE html>", 0), 0u);
  EXPECT_NE(html.find("Content-Security-Policy"), std::string::npos);
  EXPECT_EQ(html.find("<script"), std::string::npos);
  // Nothing to fetch: the only URLs are the SVG namespace names.
  EXPECT_EQ(count(html, "http:"), count(html, "xmlns=\"http://www.w3.org/2000/svg\""));
  EXPECT_EQ(count(html, "https:"), 0u);
  EXPECT_EQ(html.find("url("), std::string::npos);
  EXPECT_EQ(html.find("<img"), std::string::npos);
  EXPECT_NE(html.find("&lt;img src=x onerror=alert(1)&gt;"), std::string::npos);
  EXPECT_EQ(html.find("<b>#41</b>"), std::string::npos);
  EXPECT_NE(html.find("Merge &lt;b&gt;#41&lt;/b&gt;"), std::string::npos);
  EXPECT_EQ(count(html, "<html"), 1u);
  EXPECT_EQ(count(html, "</html>"), 1u);
}

TEST(HtmlReport, HeadlineRecommendationAndOrderOfBenchmarks) {
  const Results r = session();
  const Analysis a = analyse_session(r);
  const std::string html = render_html_report(r, a);
  EXPECT_NE(html.find("<h1>benchpr: 2 regressions, 1 improvement"), std::string::npos) << html;
  // Regressions beside an improvement: "don't merge", saying there is an improvement too.
  EXPECT_NE(html.find("<p class=\"rec rec-do-not-merge\"><strong>Don't merge as is: it has a "
                      "regression (and also an improvement)."),
            std::string::npos);
  EXPECT_NE(html.find("; against that, <code>BM_Copy/65536</code> is 3.2× faster"),
            std::string::npos)
      << html;
  // Regressions first, the larger one first: the throughput drop (10%) before the 7.5%.
  const std::size_t tls = html.find("<code>Tls.roundTrip:payload=256</code>");
  const std::size_t bm_tls = html.find("<code>BM_Tls/4096</code>");
  const std::size_t copy = html.find("<code>BM_Copy/65536</code>");
  const std::size_t same = html.find("<code>BM_Same</code>");
  ASSERT_NE(tls, std::string::npos);
  EXPECT_LT(tls, bm_tls);
  EXPECT_LT(bm_tls, copy);
  EXPECT_LT(copy, same);
  EXPECT_NE(html.find("slower in 10 of 10 rounds"), std::string::npos);
  EXPECT_NE(html.find("lower in 10 of 10 rounds"), std::string::npos);  // throughput
}

TEST(HtmlReport, EveryRoundOfBothSidesIsDrawnWithItsOrder) {
  const Results r = session();
  const Analysis a = analyse_session(r);
  BenchmarkAnalysis tls;
  for (const auto& b : a.benchmarks)
    if (b.name == "BM_Tls/4096") tls = b;
  const std::string svg = rounds_chart_svg(r.series[0], tls, r.plan);
  // 11 rounds: one circle (base) and one square (PR) each, plus the value lines.
  EXPECT_EQ(count(svg, "<circle"), 11u);
  EXPECT_EQ(count(svg, "<rect x=\"") - count(svg, "fill=\"#f1f5f9\""), 11u);
  EXPECT_EQ(count(svg, "fill=\"#f1f5f9\""), 1u);  // the warm-up round, shaded
  // Filled = ran first: per round exactly one of the two sides ran first.
  EXPECT_EQ(count(svg, "ran first)"), 11u);
  EXPECT_EQ(count(svg, "ran second)"), 11u);
  int ab = 0, ba = 0;
  for (std::size_t i = 1; i < r.plan.size(); ++i) (r.plan[i].first == Side::Base ? ab : ba)++;
  EXPECT_EQ(count(svg, " AB</text>"), static_cast<std::size_t>(ab));
  EXPECT_EQ(count(svg, " BA</text>"), static_cast<std::size_t>(ba));
  EXPECT_EQ(ab, 5);
  EXPECT_EQ(ba, 5);
}

TEST(HtmlReport, ChangeChartPlacesIntervalsOnOneAxis) {
  BenchmarkAnalysis up, down, none;
  up.name = "up";
  up.change = 0.10, up.ci_low = 0.05, up.ci_high = 0.15, up.verdict = Verdict::Regression;
  down.name = "down";
  down.change = -0.0909, down.ci_low = -0.13, down.ci_high = -0.0476;
  down.verdict = Verdict::Improvement;
  none.name = "gone";
  none.verdict = Verdict::Removed;
  const std::string svg = change_chart_svg({&up, &down, &none}, 0.02);
  // +10% and -9.09% are the same distance from 0 on a log axis: x(0) - x(down) == x(up) - x(0).
  const std::regex circle(R"re(<circle cx="([0-9.]+)")re");
  std::vector<double> xs;
  for (auto it = std::sregex_iterator(svg.begin(), svg.end(), circle); it != std::sregex_iterator();
       ++it)
    xs.push_back(std::stod((*it)[1]));
  ASSERT_EQ(xs.size(), 2u);
  const double zero = 445 + 500 / 2.0;
  EXPECT_NEAR(xs[0] - zero, zero - xs[1], 0.2);
  EXPECT_GT(xs[0], zero);
  EXPECT_NE(svg.find(">removed</text>"), std::string::npos);
  EXPECT_NE(svg.find(">0</text>"), std::string::npos);  // the zero tick
}

TEST(HtmlReport, CapsTheNumberOfBenchmarksDrawn) {
  const Results r = session(250);
  const Analysis a = analyse_session(r);
  const std::string html = render_html_report(r, a);
  EXPECT_EQ(count(html, "<section class=\"bench\""), kHtmlMaxBenchmarks);
  EXPECT_NE(html.find("and 56 more benchmarks"), std::string::npos);  // 256 in all
  EXPECT_LT(html.size(), 6u << 20);
}

// A key to the colours: one entry per verdict the report shows, in the comment's order, with
// the verdict's own colour; none for verdicts it does not show.
TEST(HtmlReport, LegendNamesTheColoursOfTheVerdictsShown) {
  const Results r = session();
  const Analysis a = analyse_session(r);
  const std::string html = render_html_report(r, a);
  const std::size_t legend = html.find("<ul class=\"legend\"");
  ASSERT_NE(legend, std::string::npos) << html;
  const std::size_t end = html.find("</ul>", legend);
  const std::string items = html.substr(legend, end - legend);
  EXPECT_LT(legend, html.find("<svg"));  // above the chart it explains
  std::vector<Verdict> present;
  for (const BenchmarkAnalysis& b : a.benchmarks)
    if (std::find(present.begin(), present.end(), b.verdict) == present.end())
      present.push_back(b.verdict);
  ASSERT_GE(present.size(), 3u);
  EXPECT_EQ(count(items, "<li>"), present.size()) << items;
  std::size_t last = 0;
  std::vector<Verdict> all = {Verdict::Regression, Verdict::Improvement,  Verdict::Slower,
                              Verdict::Faster,     Verdict::Inconclusive, Verdict::Unchanged,
                              Verdict::Added,      Verdict::Removed,      Verdict::Failed};
  std::sort(all.begin(), all.end(),
            [](Verdict x, Verdict y) { return verdict_order(x) < verdict_order(y); });
  for (Verdict v : all) {
    const std::string entry =
        "<li><span class=\"badge\" style=\"background:" + std::string(verdict_colour(v)) + "\">" +
        std::string(to_string(v)) + "</span> ";
    const std::size_t at = items.find(entry);
    const bool shown = std::find(present.begin(), present.end(), v) != present.end();
    EXPECT_EQ(at != std::string::npos, shown) << to_string(v) << "\n" << items;
    if (at != std::string::npos) {
      EXPECT_GT(at, last) << to_string(v) << " out of order";
      last = at;
    }
  }
  EXPECT_NE(items.find("worse by at least the threshold"), std::string::npos) << items;
  EXPECT_NE(items.find("no values to compare"), std::string::npos) << items;
}

// Benchmarks of the same name in two suites are told apart in the chart: the suite stands beside
// each name (and the full "suite / name" in the tooltip).
TEST(HtmlReport, ChangeChartShowsTheSuiteBesideEachName) {
  Results r = testing::golden_session(10);
  r.series.push_back(testing::simulated_series(r, {.name = "BM_Parse",
                                                   .level = 800,
                                                   .effect = 0.1,
                                                   .noise = 0.004,
                                                   .seed = 1,
                                                   .suite = "json"}));
  r.series.push_back(testing::simulated_series(
      r,
      {.name = "BM_Parse", .level = 800, .effect = 0, .noise = 0.004, .seed = 2, .suite = "yaml"}));
  const Analysis a = analyse_session(r);
  std::vector<const BenchmarkAnalysis*> shown;
  for (const BenchmarkAnalysis& b : a.benchmarks) shown.push_back(&b);
  const std::string svg = change_chart_svg(shown, 0.02);
  for (const char* suite : {"json", "yaml"}) {
    EXPECT_NE(
        svg.find("<title>" + std::string(suite) + " / BM_Parse</title><tspan fill=\"#64748b\">" +
                 suite + "</tspan> BM_Parse</text>"),
        std::string::npos)
        << svg;
  }
  // A long suite name is cut, and the row still fits its 56 characters.
  r.series.clear();
  r.series.push_back(testing::simulated_series(r, {.name = std::string(60, 'n'),
                                                   .level = 800,
                                                   .effect = 0,
                                                   .noise = 0.004,
                                                   .seed = 3,
                                                   .suite = std::string(40, 's')}));
  const Analysis long_names = analyse_session(r);
  const std::string cut = change_chart_svg({&long_names.benchmarks[0]}, 0.02);
  EXPECT_NE(
      cut.find(std::string(19, 's') + "\u2026</tspan> " + std::string(35, 'n') + "\u2026</text>"),
      std::string::npos)
      << cut;
}

// The whole report, byte for byte (tests/golden/report.html): a change of its layout is a
// deliberate one. BENCHPR_UPDATE_GOLDEN=1 rewrites it.
TEST(HtmlReport, MatchesTheGolden) {
  const Results r = session();
  testing::expect_golden("report.html", render_html_report(r, analyse_session(r)));
}

TEST(EscapeHtml, EntitiesControlsAndInvalidUtf8) {
  EXPECT_EQ(escape_html("a<b>&\"c'"), "a&lt;b&gt;&amp;&quot;c&#39;");
  EXPECT_EQ(escape_html("line\nnext\x01\u202e!"), "line next!");
  EXPECT_EQ(escape_html("\xff"
                        "ok"),
            "\ufffdok");
  EXPECT_EQ(escape_html("abcdef", 3), "abc\u2026");
}

}  // namespace
}  // namespace benchpr::render
