// Comments that must not contradict themselves, built from raw rounds through the real analysis
// (not hand-written analyses) and compared byte for byte with tests/golden/consistency_*.md.
// BENCHPR_UPDATE_GOLDEN=1 rewrites the files instead (then read the diff before keeping it);
// every one also goes through the markdown injection checker.
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>

#include <gtest/gtest.h>

#include "benchpr/core/adaptive/session_analysis.hpp"
#include "benchpr/render/render.hpp"
#include "support/golden.hpp"

namespace benchpr::render {
namespace {

using testing::expect_golden_comment;
using testing::golden_session;

Results session(int rounds = 10) { return golden_session(rounds); }

// Base values drift by `drift` per round (a machine warming up or throttling); the PR is
// `effect` slower within each round, with relative noise `noise` on each side.
BenchmarkSeries series(const std::string& name, int rounds, double level, double effect,
                       double noise, std::uint64_t seed, double drift = 0) {
  return testing::simulated_series(golden_session(rounds), {.name = name,
                                                            .level = level,
                                                            .effect = effect,
                                                            .noise = noise,
                                                            .seed = seed,
                                                            .drift = drift});
}

const BenchmarkAnalysis& find(const Analysis& a, const std::string& name) {
  for (const BenchmarkAnalysis& b : a.benchmarks)
    if (b.name == name) return b;
  throw std::runtime_error("no benchmark " + name);
}

// Base and PR drift upward together over the session: medians per side would pick different
// rounds and disagree with the paired change. The columns show base and base × (1 + change).
TEST(RenderConsistency, BaseAndPrColumnsAgreeWithTheChange) {
  Results r = session();
  r.series.push_back(series("BM_Copy/64", 10, 2.7, 0.05, 0.004, 1, 0.02));
  r.series.push_back(series("BM_Copy/4096", 10, 97.5, -0.06, 0.004, 2, -0.015));
  const Analysis a = analyse_session(r);
  for (const BenchmarkAnalysis& b : a.benchmarks) {
    ASSERT_TRUE(std::isfinite(b.change)) << b.name;
    EXPECT_NEAR(b.head_value / b.base_value - 1, b.change, 1e-12) << b.name;
  }
  EXPECT_GT(find(a, "BM_Copy/64").change, 0.03);
  EXPECT_LT(find(a, "BM_Copy/4096").change, -0.04);
  expect_golden_comment("consistency_columns.md", render_comment(r, a));
}

// p < 0.05 for one benchmark, but not after the Benjamini-Hochberg correction over 12: the
// 95% CI excludes 0 and the verdict says why it is still inconclusive.
TEST(RenderConsistency, InconclusiveAfterCorrectionSaysSo) {
  Results r = session();
  r.series.push_back(series("BM_Edge", 10, 500, 0.01, 0.012, 79));
  for (int i = 0; i < 11; ++i)
    r.series.push_back(series("BM_Flat/" + std::to_string(i), 10, 100 + i, 0, 0.03,
                              100 + static_cast<unsigned>(i)));
  const Analysis a = analyse_session(r);
  const BenchmarkAnalysis& edge = find(a, "BM_Edge");
  ASSERT_LT(edge.p, 0.05);
  ASSERT_GT(edge.p_adjusted, 0.05);
  ASSERT_EQ(edge.verdict, Verdict::Inconclusive);
  ASSERT_TRUE(edge.ci_low > 0 || edge.ci_high < 0);
  const std::string md = render_comment(r, a);
  EXPECT_NE(md.find("not significant after correcting for 12 benchmarks"), std::string::npos);
  expect_golden_comment("consistency_corrected.md", md);
}

// "Unchanged" rows show the 90% interval the rule tested, labelled, not the 95% one.
TEST(RenderConsistency, UnchangedShowsTheIntervalTheRuleUsed) {
  Results r = session();
  r.series.push_back(series("BM_Sort/8", 10, 38, 0.0, 0.01, 5));
  r.series.push_back(series("BM_Sort/1024", 10, 9870, 0.0, 0.01, 7));
  const Analysis a = analyse_session(r);
  for (const BenchmarkAnalysis& b : a.benchmarks) {
    ASSERT_EQ(b.verdict, Verdict::Unchanged) << b.name;
    EXPECT_LT(b.eq_high - b.eq_low, b.ci_high - b.ci_low) << b.name;
  }
  const std::string md = render_comment(r, a);
  EXPECT_NE(md.find("| 90% CI |"), std::string::npos);
  expect_golden_comment("consistency_unchanged.md", md);
}

// One benchmark 2× slower, three noisy ones: the geometric mean says what it covers and which
// benchmark carries it.
TEST(RenderConsistency, GeometricMeanDrivenByOneBenchmarkSaysSo) {
  Results r = session();
  r.series.push_back(series("BM_Tls/4096", 10, 45100, 1.0, 0.01, 11));
  for (int i = 0; i < 3; ++i)
    r.series.push_back(
        series("BM_Parse/" + std::to_string(i), 10, 800, 0, 0.06, 20 + static_cast<unsigned>(i)));
  const Analysis a = analyse_session(r);
  ASSERT_EQ(find(a, "BM_Tls/4096").verdict, Verdict::Regression);
  const std::string md = render_comment(r, a);
  EXPECT_NE(md.find("mostly from `BM_Tls/4096`"), std::string::npos);
  expect_golden_comment("consistency_geomean.md", md);
}

// A cold first round, left out for a benchmark with enough rounds and kept for one without:
// the note names both.
TEST(RenderConsistency, ColdRoundNamesWhereItWasLeftOutAndKept) {
  Results r = session();
  BenchmarkSeries hot = series("BM_Hash/64", 10, 21.4, 0.0, 0.003, 31);
  BenchmarkSeries few = series("BM_Alloc/1024", 10, 3120, 0.0, 0.003, 32);
  for (BenchmarkSeries* s : {&hot, &few}) {
    s->base[1] *= 1.6;  // round 1 (the first analysed one): both sides slow
    s->head[1] *= 1.6;
  }
  for (int i = 5; i <= 10; ++i) few.base[static_cast<std::size_t>(i)] = kMissing;  // 4 rounds left
  r.series = {hot, few};
  const Analysis a = analyse_session(r);
  ASSERT_TRUE(find(a, "BM_Hash/64").dropped_round.has_value());
  ASSERT_FALSE(find(a, "BM_Alloc/1024").dropped_round.has_value());
  const std::string md = render_comment(r, a);
  EXPECT_NE(md.find("for `BM_Hash/64`: left out"), std::string::npos);
  EXPECT_NE(md.find("`BM_Alloc/1024`, but kept there"), std::string::npos);
  expect_golden_comment("consistency_cold_round.md", md);
}

// Two rounds can decide nothing: the comment says how many would.
TEST(RenderConsistency, TooFewRoundsSaysHowManyWould) {
  Results r = session(2);
  r.series.push_back(series("BM_Copy/64", 2, 2.7, 0.05, 0.004, 41));
  const Analysis a = analyse_session(r);
  const std::string md = render_comment(r, a);
  EXPECT_NE(md.find("at least 4 rounds"), std::string::npos);
  expect_golden_comment("consistency_too_few_rounds.md", md);
}

// A removed benchmark still shows what it cost on the base (the geometric mean of its base
// rounds), and a large change measured tightly shows an interval whose ends differ.
TEST(RenderConsistency, RemovedShowsItsBaseAndANarrowRatioIntervalItsDigits) {
  Results r = session();
  BenchmarkSeries gone = series("BM_Legacy/16", 10, 2050, 0, 0.01, 51);
  for (double& h : gone.head) h = kMissing;
  r.series = {series("BM_Copy/65536", 10, 1.63e6, -0.6875, 0.002, 52), gone};
  const Analysis a = analyse_session(r);
  const BenchmarkAnalysis& removed = find(a, "BM_Legacy/16");
  ASSERT_EQ(removed.verdict, Verdict::Removed);
  double log_sum = 0;
  for (std::size_t i = 1; i < gone.base.size(); ++i) log_sum += std::log(gone.base[i]);
  EXPECT_NEAR(removed.base_value, std::exp(log_sum / 10), 1e-9);
  EXPECT_TRUE(std::isnan(removed.head_value));
  const BenchmarkAnalysis& copy = find(a, "BM_Copy/65536");
  ASSERT_EQ(copy.verdict, Verdict::Improvement);
  const std::string md = render_comment(r, a);
  EXPECT_EQ(md.find("3.2× … 3.2×"), std::string::npos) << md;
  EXPECT_NE(md.find("| `BM_Legacy/16` | 2.0"), std::string::npos) << md;
  expect_golden_comment("consistency_removed_and_ratio.md", md);
}

// Thresholds of their own (a suite's, a `benchmarks:` rule's) are named where they differ from
// the run's; a custom suite whose unit is per second and whose direction is not set gets a note.
TEST(RenderConsistency, OwnThresholdsAreShownWhereTheyDiffer) {
  Results r = session();
  SuiteConfig core;
  core.name = "core";
  core.threshold = 0.05;
  core.benchmarks = {{"BM_Parse*", 0.01, std::nullopt, 0}};
  SuiteConfig net;
  net.name = "net";
  net.format = FormatKind::Custom;
  r.config.suites = {core, net};
  r.series.push_back(series("BM_Alloc/64", 10, 310, 0.035, 0.003, 61));
  r.series.push_back(series("BM_Parse/json", 10, 1200, 0.015, 0.002, 62));
  r.series.push_back(series("BM_Copy/64", 10, 2.7, 0.0, 0.004, 63));
  BenchmarkSeries tcp = series("tcp", 10, 950e6, -0.15, 0.003, 64);
  tcp.suite = "net";
  tcp.unit = "B/s";
  r.series.push_back(tcp);
  const Analysis a = analyse_session(r);
  // +3.5% is below core's 5%: slower, not a regression; +1.5% is beyond BM_Parse*'s 1%.
  EXPECT_EQ(find(a, "BM_Alloc/64").verdict, Verdict::Slower);
  EXPECT_EQ(find(a, "BM_Parse/json").verdict, Verdict::Regression);
  EXPECT_EQ(find(a, "BM_Copy/64").verdict, Verdict::Unchanged);
  EXPECT_DOUBLE_EQ(find(a, "tcp").threshold, 0.02);
  const std::string md = render_comment(r, a);
  // The row says why it is not a regression, against the threshold it was judged by.
  EXPECT_NE(md.find("🐢 slower: below the 5.0% threshold"), std::string::npos) << md;
  EXPECT_NE(md.find("❌ regression · threshold ±1%"), std::string::npos) << md;
  EXPECT_NE(md.find("(inside ±5%)"), std::string::npos) << md;
  EXPECT_NE(md.find("or the margin shown beside it"), std::string::npos) << md;
  // Names in a note are code spans, each escaped on its own (names are untrusted).
  EXPECT_NE(md.find("Suite `net` reports `tcp` in B/s, a per-second unit"), std::string::npos)
      << md;
  expect_golden_comment("consistency_thresholds.md", md);
}

}  // namespace
}  // namespace benchpr::render
