// The headline must agree with the table: a `slower` benchmark whose estimate reads at or above
// the threshold is never "a small change below the threshold", and never a plain merge; a large
// win beside a regression names both. Sessions are simulated through the real analysis (the
// issue's case: 1 of 50 benchmarks truly +2.5%, threshold 2%, 1% noise, 10 rounds).
#include <cmath>
#include <cstdint>
#include <string>

#include <gtest/gtest.h>

#include "benchpr/core/verdicts/analysis.hpp"
#include "benchpr/core/wording/wording.hpp"
#include "support/golden.hpp"

namespace benchpr {
namespace {

using testing::golden_session;
using testing::simulated_series;

constexpr double kUniformForSd1 = 0.01732;  // uniform in ±1.732% has an SD of 1%

Results one_of_fifty(double effect, std::uint64_t seed, double noise = kUniformForSd1) {
  Results r = golden_session(10);
  for (int b = 0; b < 50; ++b) {
    r.series.push_back(simulated_series(r, {.name = "BM_" + std::to_string(b),
                                            .level = 100.0 + b,
                                            .effect = b == 0 ? effect : 0,
                                            .noise = noise,
                                            .seed = seed * 100 + static_cast<std::uint64_t>(b)}));
  }
  return r;
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

TEST(Headline, NoPlainMergeWhileASlowerEstimateReadsAtTheThreshold) {
  int unsettled = 0;
  for (std::uint64_t seed = 1; seed <= 300; ++seed) {
    const Analysis a = analyse(one_of_fifty(0.025, seed));
    const BenchmarkAnalysis& x = a.benchmarks.front();
    const bool at_threshold = reads_at_least(x.change, 0.02);
    if (a.recommendation.kind == RecommendationKind::Merge) {
      EXPECT_FALSE(x.verdict == Verdict::Slower && at_threshold)
          << "seed " << seed << ": " << a.recommendation.reason;
    }
    // Whatever the headline, it never calls a change that reads at the threshold "below" it.
    if (at_threshold) {
      EXPECT_FALSE(contains(a.recommendation.reason, "below the 2.0% threshold"))
          << "seed " << seed << ": " << a.recommendation.reason;
    }
    if (x.verdict == Verdict::Slower && at_threshold) {
      ++unsettled;
      EXPECT_EQ(a.recommendation.kind, RecommendationKind::Inconclusive) << "seed " << seed;
      EXPECT_TRUE(
          contains(a.recommendation.reason, "whether it exceeds the 2.0% threshold is not settled"))
          << a.recommendation.reason;
      ASSERT_TRUE(x.rounds_needed.has_value()) << "seed " << seed;
      EXPECT_GT(*x.rounds_needed, x.rounds_used);
      EXPECT_TRUE(contains(a.recommendation.reason, "more rounds would settle it"))
          << a.recommendation.reason;
    }
  }
  // The case the issue found in about 40% of comments must occur here, or the test proves
  // nothing.
  EXPECT_GE(unsettled, 20);
}

// A small slowdown merges only once its whole interval is below the threshold: with rounds half
// as noisy, +1.2% reads significant and its 90% bound stays under 2%.
TEST(Headline, SmallSlowerBelowTheThresholdStillMerges) {
  int merged_with_small = 0;
  for (std::uint64_t seed = 1; seed <= 100; ++seed) {
    const Analysis a = analyse(one_of_fifty(0.012, seed, kUniformForSd1 / 2));
    const BenchmarkAnalysis& x = a.benchmarks.front();
    if (x.verdict != Verdict::Slower || reads_at_least(x.change, 0.02)) continue;
    if (a.recommendation.kind != RecommendationKind::Merge) continue;
    ++merged_with_small;
    EXPECT_TRUE(contains(a.recommendation.reason, "below the 2.0% threshold"))
        << a.recommendation.reason;
  }
  EXPECT_GE(merged_with_small, 5);
}

TEST(Headline, LargeWinBesideARegressionNamesBoth) {
  Results r = golden_session(10);
  r.series.push_back(simulated_series(
      r, {.name = "BM_Win", .level = 1000, .effect = -0.60, .noise = 0.004, .seed = 7}));
  r.series.push_back(simulated_series(
      r, {.name = "BM_Loss", .level = 1000, .effect = 0.05, .noise = 0.004, .seed = 8}));
  for (int b = 0; b < 10; ++b)
    r.series.push_back(simulated_series(r, {.name = "BM_" + std::to_string(b),
                                            .noise = 0.004,
                                            .seed = 20 + static_cast<std::uint64_t>(b)}));
  const Analysis a = analyse(r);
  ASSERT_EQ(a.benchmarks[0].verdict, Verdict::Improvement);
  ASSERT_EQ(a.benchmarks[1].verdict, Verdict::Regression);
  EXPECT_EQ(a.recommendation.kind, RecommendationKind::DoNotMerge);
  EXPECT_TRUE(a.recommendation.mixed);
  EXPECT_TRUE(contains(a.recommendation.reason, "`BM_Loss`")) << a.recommendation.reason;
  EXPECT_TRUE(contains(a.recommendation.reason, "`BM_Win`")) << a.recommendation.reason;
}

TEST(Headline, TheLabelThatBlocksMergingNeedsMoreThanSignificance) {
  const Analysis a = analyse(one_of_fifty(0, 1));
  ASSERT_TRUE(std::isfinite(a.run_mde));
  ASSERT_TRUE(std::isfinite(a.run_mde_label));
  // A regression needs the estimate at the threshold and the change shown beyond half of it:
  // the size found with 80% power is above both the threshold and the significance MDE.
  EXPECT_GT(a.run_mde_label, a.run_mde);
  EXPECT_GT(a.run_mde_label, 0.02);
}

TEST(Wording, ReadsAtLeastFollowsTheShownDigits) {
  EXPECT_TRUE(reads_at_least(0.0197, 0.02));  // "2.0%"
  EXPECT_TRUE(reads_at_least(-0.024, 0.02));
  EXPECT_FALSE(reads_at_least(0.0194, 0.02));  // "1.9%"
  EXPECT_FALSE(reads_at_least(0.004, 0.005));  // "0.4%" against "0.5%"
}

}  // namespace
}  // namespace benchpr
