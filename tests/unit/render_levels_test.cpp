// Intervals are labelled with the level they were computed at. Adaptive looks test
// "unchanged" at the look's level (95%, 96.7%, 98.3% for looks at α 2.5%, 1.67%, 0.83%), not at
// the 90% of a fixed run: a row must not read "90% CI" for an interval computed at 96.7%.
#include <string>

#include <gtest/gtest.h>

#include "benchpr/render/render.hpp"
#include "support/hand_analysis.hpp"

namespace benchpr::render {
namespace {

BenchmarkAnalysis unchanged(const std::string& name, double level) {
  BenchmarkAnalysis b =
      testing::hand_benchmark("core", name, Verdict::Unchanged, 100, 100.1, 0.001);
  b.eq_low = -0.004;
  b.eq_high = 0.006;
  b.eq_level = level;
  return b;
}

Analysis adaptive_reading(double first, double second) {
  Analysis a;
  a.analysed_rounds = 20;
  a.equivalence_level = 0.90;  // what a fixed run's options would say
  a.benchmarks.push_back(unchanged("BM_A", first));
  a.benchmarks.push_back(unchanged("BM_B", second));
  a.recommendation.kind = RecommendationKind::Merge;
  a.recommendation.reason = "No benchmark changed by 2.0% or more (2 of 2 shown unchanged).";
  return a;
}

Results session() {
  Results r;
  r.config.threshold = 0.02;
  r.complete = true;
  return r;
}

TEST(IntervalLevels, OneLookLabelsTheLevelItComputed) {
  const std::string md = render_comment(session(), adaptive_reading(0.95, 0.95));
  EXPECT_NE(md.find("| 95% CI |"), std::string::npos) << md;
  EXPECT_NE(md.find("the 95% confidence interval"), std::string::npos) << md;
  EXPECT_EQ(md.find("90%"), std::string::npos) << md;
}

TEST(IntervalLevels, LooksAtDifferentLevelsLabelEachRow) {
  const std::string md = render_comment(session(), adaptive_reading(0.95, 1 - 2 * 0.05 / 3));
  EXPECT_NE(md.find("| per-look CI |"), std::string::npos) << md;
  EXPECT_NE(md.find("(95%)"), std::string::npos) << md;
  EXPECT_NE(md.find("(96.7%)"), std::string::npos) << md;
  EXPECT_EQ(md.find("90%"), std::string::npos) << md;
}

TEST(IntervalLevels, AFixedRunStaysAtNinetyPercent) {
  const std::string md = render_comment(session(), adaptive_reading(0.90, 0.90));
  EXPECT_NE(md.find("| 90% CI |"), std::string::npos) << md;
}

}  // namespace
}  // namespace benchpr::render
