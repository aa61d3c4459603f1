// Counting's share of the budget and when the base is counted again, with hand-checked numbers:
// CRoaring's suite lists in 17 s natively (its main loads data) and runs uninstrumented under
// Callgrind; the default budget is 15 minutes.
#include <gtest/gtest.h>

#include "benchpr/runner/counting_share.hpp"
#include "benchpr/runner/instrument_on_open.hpp"

namespace benchpr::runner {
namespace {

TEST(CountingShare, TheUsualShareIsAQuarterAndAtLeastAMinute) {
  EXPECT_DOUBLE_EQ(default_counting_share(900), 225);   // 15m: 3m45s
  EXPECT_DOUBLE_EQ(default_counting_share(3600), 900);  // 1h: 15m
  EXPECT_DOUBLE_EQ(default_counting_share(120), 60);    // a quarter would be 30 s
  EXPECT_DOUBLE_EQ(default_counting_share(0), 60);
}

TEST(CountingShare, TheStartUpBoundIsTwoInstrumentedProcessesOrOneUninstrumentedStartUp) {
  // Without the CPU time, the whole wall time is read as CPU time.
  EXPECT_DOUBLE_EQ(start_up_bound({17, 0}, true), 85);    // 5 x 17 s: the two processes at once
  EXPECT_DOUBLE_EQ(start_up_bound({17, 0}, false), 510);  // 2 x 15 x 17 s: one after the other
  EXPECT_DOUBLE_EQ(start_up_bound({0.1, 0}, false), 3);
  // CRoaring's listing on the busy machine: 20.9 s, 13.8 s of it on the CPU: 5 x 13.8 + 7.1.
  EXPECT_DOUBLE_EQ(start_up_bound({20.9, 13.8}, true), 76.1);
  // Instrumented, each of the two processes: 15 x 0.5 + 1.5 waiting.
  EXPECT_DOUBLE_EQ(start_up_bound({2, 0.5}, false), 18);
  // A multi-threaded start-up's CPU time beyond its wall time: Valgrind runs one thread at a time.
  EXPECT_DOUBLE_EQ(start_up_bound({1, 2}, true), 10);
}

TEST(CountingShare, TheEstimateIsBothSidesAndTheBaseAgainAfterWhatTheBaseListingSpent) {
  // The base's listing spent 17 s; then the base's processes (85), the PR's listing (17) and
  // processes (85): 204 s; and the base again (85): 289 s.
  const CountingEstimate e = estimate_counting({SuiteStartUp{{17, 0}, true}}, 17);
  EXPECT_DOUBLE_EQ(e.sides, 204);
  EXPECT_DOUBLE_EQ(e.all, 289);
  // Two suites add up: 2 s instrumented (60 s per side) and 1 s uninstrumented (5 s per side),
  // after 3 s of listings: 3 + (60 + 2 + 60) + (5 + 1 + 5) = 136; again 60 + 5 more: 201.
  const CountingEstimate two =
      estimate_counting({SuiteStartUp{{2, 0}, false}, SuiteStartUp{{1, 0}, true}}, 3);
  EXPECT_DOUBLE_EQ(two.sides, 136);
  EXPECT_DOUBLE_EQ(two.all, 201);
  EXPECT_DOUBLE_EQ(estimate_counting({}, 4).all, 4);
}

TEST(CountingShare, ASlowStartUpThatOverrunsAQuarterButFitsHalfGetsHalfTheBudget) {
  // CRoaring in 15 minutes: 4m49s with the base again, more than 3m45s, and 3m24s for both
  // sides, within 7m30s.
  const CountingShare share =
      counting_share(900, estimate_counting({SuiteStartUp{{17, 0}, true}}, 17));
  EXPECT_TRUE(share.widened);
  EXPECT_DOUBLE_EQ(share.seconds, 450);
  EXPECT_NE(share.sentence.find("may take 7m30s of the 15m budget (half), not 3m45s"),
            std::string::npos)
      << share.sentence;
  EXPECT_NE(share.sentence.find("about 3m24s by the start-up bound, 4m49s with the base counted "
                                "again"),
            std::string::npos)
      << share.sentence;
  EXPECT_NE(share.sentence.find("the base may take half of it"), std::string::npos)
      << share.sentence;
  // Both sides fit half, though the base again does not: still half (the base is counted again
  // only when what is left covers its start-up, recount_fits).
  const CountingShare sides_only = counting_share(900, {440, 600});
  EXPECT_TRUE(sides_only.widened);
  EXPECT_DOUBLE_EQ(sides_only.seconds, 450);
}

TEST(CountingShare, ABusyMachineStretchingTheListingStillGetsHalf) {
  // CRoaring's base listing on this machine while other tests ran: 43 s, about 14 s of it on the
  // CPU. Read as CPU time, 43 s made 5 x 43 = 3m35s per side, 8m34s for both: beyond half the
  // budget. As CPU time and waiting: 5 x 14 + 29 = 99 s, so 43 + 99 + 43 + 99 = 4m44s for both
  // sides, 6m23s with the base again: half.
  const CountingEstimate e = estimate_counting({SuiteStartUp{{43, 14}, true}}, 43);
  EXPECT_DOUBLE_EQ(e.sides, 284);
  EXPECT_DOUBLE_EQ(e.all, 383);
  EXPECT_TRUE(counting_share(900, e).widened);
  EXPECT_FALSE(counting_share(900, estimate_counting({SuiteStartUp{{43, 0}, true}}, 43)).widened);
}

TEST(CountingShare, AQuickStartUpKeepsAQuarter) {
  // 1 s of start-up uninstrumented: 1 + (5 + 1 + 5) + 5 = 17 s, well within 3m45s.
  const CountingShare share =
      counting_share(900, estimate_counting({SuiteStartUp{{1, 0}, true}}, 1));
  EXPECT_FALSE(share.widened);
  EXPECT_DOUBLE_EQ(share.seconds, 225);
  EXPECT_EQ(share.sentence.rfind("counting instructions may take 3m45s of the 15m budget (a "
                                 "quarter): the base may take half of it",
                                 0),
            0u)
      << share.sentence;
  // Exactly the share is within it.
  EXPECT_FALSE(counting_share(900, {200, 225}).widened);
}

TEST(CountingShare, AStartUpThatOverrunsHalfTheBudgetKeepsAQuarter) {
  // 50 s of start-up uninstrumented: 50 + (250 + 50 + 250) = 10m for both sides, beyond 7m30s:
  // half would go to counting that cannot finish; the suite's own bound then decides.
  const CountingShare share =
      counting_share(900, estimate_counting({SuiteStartUp{{50, 0}, true}}, 50));
  EXPECT_FALSE(share.widened);
  EXPECT_DOUBLE_EQ(share.seconds, 225);
  EXPECT_NE(share.sentence.find("about 10m by the start-up bound"), std::string::npos)
      << share.sentence;
  EXPECT_NE(share.sentence.find("more than half the budget"), std::string::npos) << share.sentence;
  // Just over half.
  EXPECT_FALSE(counting_share(900, {451, 500}).widened);
  EXPECT_TRUE(counting_share(900, {450, 500}).widened);
}

TEST(CountingShare, ABudgetWhoseHalfIsNoMoreThanTheLeastShareIsNotWidened) {
  // 2 minutes: a quarter is 30 s, the least share a minute, half the budget a minute too.
  const CountingShare share = counting_share(120, {100, 100});
  EXPECT_FALSE(share.widened);
  EXPECT_DOUBLE_EQ(share.seconds, 60);
  EXPECT_NE(share.sentence.find("1m of the 2m budget (at least a minute)"), std::string::npos)
      << share.sentence;
}

TEST(CountingShare, TheBaseIsCountedAgainOnlyWhenWhatIsLeftCoversItsStartUp) {
  EXPECT_TRUE(recount_fits(30, 0));
  EXPECT_FALSE(recount_fits(29, 0));  // at least 30 s, as before
  EXPECT_TRUE(recount_fits(100, 85));
  EXPECT_TRUE(recount_fits(85, 85));
  EXPECT_FALSE(recount_fits(80, 85));  // CRoaring's 85 s start-up with 80 s left
  EXPECT_FALSE(recount_fits(-5, 0));
}

BenchmarkSeries counted(std::vector<double> base, std::vector<double> head) {
  BenchmarkSeries s;
  s.suite = "core (instructions)";
  s.name = "BM_X";
  s.unit = "instructions";
  s.metric = std::string(kInstructionsMetric);
  s.base = std::move(base);
  s.head = std::move(head);
  return s;
}

TEST(CountingShare, ACountAlreadyTooUnrepeatableToDecideIsNotCountedAgain) {
  constexpr double threshold = 0.005;  // 0.5%: counts agree within 0.25%
  // +10%, each side's two counts equal: a regression the base again could undo.
  EXPECT_TRUE(recount_can_change_reading(counted({1000, 1000}, {1100, 1100}), threshold));
  // +0.3%, beyond 0.25% and within 0.5%: unchanged by its count, which a base counting otherwise
  // again would make inconclusive.
  EXPECT_TRUE(recount_can_change_reading(counted({1000, 1000}, {1003, 1003}), threshold));
  // +1%, but the base's own two counts are 3% apart: 1% − 2 × 3% stands clear of nothing, so the
  // count is inconclusive already, and a count made again only widens the 3%.
  EXPECT_FALSE(recount_can_change_reading(counted({1000, 1030}, {1010, 1010}), threshold));
  // +10% with the PR's counts 1% apart: 10% − 2 × 1% = 8% stands clear of 0.5%: it decides.
  EXPECT_TRUE(recount_can_change_reading(counted({1000, 1000}, {1100, 1111}), threshold));
}

}  // namespace
}  // namespace benchpr::runner
