// Plausible values per unit, and the analysis failing a benchmark whose values are not.
#include <cmath>
#include <string>

#include <gtest/gtest.h>

#include "benchpr/core/base/duration.hpp"
#include "benchpr/core/stats/value_range.hpp"
#include "benchpr/core/verdicts/analysis.hpp"

namespace benchpr {
namespace {

TEST(PlausibleRange, TimesAreScaledFromOnePicosecondToAboutElevenDays) {
  EXPECT_DOUBLE_EQ(plausible_range("ns").low, 1e-3);
  EXPECT_DOUBLE_EQ(plausible_range("ns").high, 1e15);
  EXPECT_DOUBLE_EQ(plausible_range("us/op").low, 1e-6);
  EXPECT_DOUBLE_EQ(plausible_range("ms").high, 1e9);
  EXPECT_DOUBLE_EQ(plausible_range("s/op").high, 1e6);
  EXPECT_DOUBLE_EQ(plausible_range("ops/s").low, 1e-30);
  EXPECT_DOUBLE_EQ(plausible_range("ops/s").high, 1e30);
}

// One list of time units for reading, checking and showing values: every spelling of a unit
// scales alike, and what is not a time is not scaled.
TEST(NanosecondsPer, EverySpellingOfAUnitScalesAlike) {
  EXPECT_EQ(nanoseconds_per("ns"), 1.0);
  for (const char* micro : {"us", "\xC2\xB5s", "\xCE\xBCs"}) EXPECT_EQ(nanoseconds_per(micro), 1e3);
  EXPECT_EQ(nanoseconds_per("ms"), 1e6);
  EXPECT_EQ(nanoseconds_per("s"), 1e9);
  EXPECT_EQ(nanoseconds_per("sec"), 1e9);
  EXPECT_EQ(nanoseconds_per("ns/op"), std::nullopt);
  EXPECT_EQ(nanoseconds_per("B/s"), std::nullopt);
  EXPECT_EQ(nanoseconds_per(""), std::nullopt);
  EXPECT_DOUBLE_EQ(plausible_range("\xCE\xBCs/op").low, 1e-6);
  EXPECT_DOUBLE_EQ(plausible_range("sec").high, 1e6);
}

BenchmarkSeries series(std::string unit, std::vector<double> base, std::vector<double> head) {
  BenchmarkSeries s;
  s.suite = "s";
  s.name = "b";
  s.unit = std::move(unit);
  s.base = std::move(base);
  s.head = std::move(head);
  return s;
}

TEST(ValueRangeProblem, NamesTheFirstImplausibleValue) {
  EXPECT_EQ(value_range_problem(series("ns", {1e-200, 1}, {1e200, 1})),
            "base value 1e-200 ns is outside the plausible range (0.001 to 1e+15 ns)");
  EXPECT_EQ(value_range_problem(series("ns", {5, 5}, {1e200, kMissing})),
            "PR value 1e+200 ns is outside the plausible range (0.001 to 1e+15 ns)");
  EXPECT_EQ(value_range_problem(series("ns", {5, -3}, {5, 5})),
            "base value -3 ns is not a positive number");
  EXPECT_EQ(value_range_problem(series("ns", {5, 5}, {INFINITY, 5})),
            "PR value inf ns is not a positive number");
  EXPECT_EQ(value_range_problem(series("ns", {5, 0}, {5, 5})),
            "base value 0 ns is not a positive number");
}

TEST(ValueRangeProblem, ASpreadBeyondABillionIsNotOneQuantity) {
  // 1e-20 to 1e20: each within 1e-30..1e30, but a factor of 1e40 apart.
  EXPECT_EQ(value_range_problem(series("widgets", {1e-20}, {1e20})),
            "values span a factor of 1e+40 (1e-20 to 1e+20 widgets), more than 1e+09: not one "
            "quantity measured twice");
  // A factor of a million is a (large) change, not nonsense; missing values are skipped.
  EXPECT_EQ(value_range_problem(series("ns", {1, kMissing}, {1e6, kMissing})), std::nullopt);
}

// Before: base 1e-200 ns against PR 1e200 ns was "faster" in a confident verdict.
TEST(ValueRangeProblem, TheAnalysisFailsTheBenchmarkWithTheReason) {
  Results r;
  for (int i = 0; i < 6; ++i) {
    RoundPlan p;
    p.index = i;
    p.first = i % 2 == 1 ? Side::Head : Side::Base;
    r.plan.push_back(p);
  }
  r.rounds_done = 6;
  r.series.push_back(series("ns", std::vector<double>(6, 1e-200), std::vector<double>(6, 1e200)));
  // Within 0.2% in every round: unchanged.
  BenchmarkSeries ok =
      series("ns", {100, 101, 99, 100, 101, 99}, {100.2, 100.9, 99.1, 100.1, 101.2, 98.9});
  ok.name = "ok";
  r.series.push_back(ok);
  const Analysis a = analyse(r, {});
  ASSERT_EQ(a.benchmarks.size(), 2u);
  EXPECT_EQ(a.benchmarks[0].verdict, Verdict::Failed);
  EXPECT_EQ(a.benchmarks[0].reason,
            "base value 1e-200 ns is outside the plausible range (0.001 to 1e+15 ns)");
  EXPECT_EQ(a.benchmarks[0].failure, FailureKind::ValueOutOfRange);
  EXPECT_EQ(a.benchmarks[1].verdict, Verdict::Unchanged) << a.benchmarks[1].reason;
  EXPECT_EQ(a.benchmarks[1].failure, FailureKind::None);
  EXPECT_EQ(a.recommendation.kind, RecommendationKind::Failed);
}

}  // namespace
}  // namespace benchpr
