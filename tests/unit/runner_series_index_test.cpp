// Every value a run reports finds its benchmark's series through the index: it must find the
// right one, and must not fall back to rebuilding (or searching) per value, which cost 57 s per
// round at 100,000 benchmarks.
#include "benchpr/runner/series_index.hpp"

#include <gtest/gtest.h>

#include <string>

#include <fmt/format.h>

namespace benchpr::runner {
namespace {

Measurement measured(const std::string& name, double value) {
  Measurement m;
  m.name = name;
  m.value = value;
  m.unit = "ns";
  m.better = Better::Lower;
  return m;
}

TEST(SeriesIndex, EachValueGoesToItsSeriesInItsRound) {
  Results r;
  SeriesIndex index;
  record_measurement(r, index, "micro", Side::Base, 0, measured("BM_A", 10));
  record_measurement(r, index, "micro", Side::Head, 0, measured("BM_A", 11));
  record_measurement(r, index, "other", Side::Base, 1, measured("BM_A", 20));  // another suite
  record_measurement(r, index, "micro", Side::Base, 2, measured("BM_B", 30));
  ASSERT_EQ(r.series.size(), 3u);
  EXPECT_EQ(r.series[0].suite, "micro");
  EXPECT_EQ(r.series[0].base, (std::vector<double>{10}));
  EXPECT_EQ(r.series[0].head, (std::vector<double>{11}));
  EXPECT_EQ(r.series[1].suite, "other");
  ASSERT_EQ(r.series[1].base.size(), 2u);  // round 1: round 0 is missing
  EXPECT_TRUE(is_missing(r.series[1].base[0]));
  EXPECT_EQ(r.series[1].base[1], 20);
  EXPECT_EQ(r.series[2].name, "BM_B");
  EXPECT_EQ(r.series[2].base.size(), 3u);
}

// A name measured twice in one run (two commands alike in a hyperfine file, two JMH results
// alike) is no value of either: the series gets a failure that names it, never the last value.
TEST(SeriesIndex, ANameMeasuredTwiceInOneRunIsAFailure) {
  Results r;
  SeriesIndex index;
  SuiteConfig suite;
  suite.name = "micro";
  ParsedRun twice;
  twice.measurements = {measured("BM_dup", 200), measured("BM_ok", 5), measured("BM_dup", 50)};
  record_run(r, index, suite, Side::Head, 0, twice);
  ASSERT_EQ(r.series.size(), 2u);
  for (const BenchmarkSeries& s : r.series) {
    if (s.name == "BM_ok") {
      EXPECT_EQ(s.head, (std::vector<double>{5}));
      continue;
    }
    EXPECT_TRUE(s.head.empty());
    EXPECT_EQ(s.head_failure, duplicate_reason("BM_dup"));
    EXPECT_EQ(s.head_failure_kind, FailureKind::BadOutput);
  }
  EXPECT_NE(duplicate_reason("BM_dup").find("BM_dup is reported twice"), std::string::npos);
}

// A series created for a failure (no unit yet) takes the first measurement's unit and direction.
TEST(SeriesIndex, ASeriesWithoutAUnitTakesTheFirstMeasurements) {
  Results r;
  SeriesIndex index;
  index.find_or_add(r, "micro", "BM_A", "", Better::Lower);
  BenchmarkSeries& s = index.find_or_add(r, "micro", "BM_A", "items/s", Better::Higher);
  EXPECT_EQ(s.unit, "items/s");
  EXPECT_EQ(s.better, Better::Higher);
  EXPECT_EQ(index.find_or_add(r, "micro", "BM_A", "ns", Better::Lower).unit, "items/s");
}

// Series added, reordered or replaced by other code are found again (the index rebuilds).
TEST(SeriesIndex, SeriesChangedElsewhereAreFoundAgain) {
  Results r;
  SeriesIndex index;
  index.find_or_add(r, "micro", "BM_A", "ns", Better::Lower);
  index.find_or_add(r, "micro", "BM_B", "ns", Better::Lower);
  std::swap(r.series[0], r.series[1]);
  EXPECT_EQ(&index.find_or_add(r, "micro", "BM_A", "ns", Better::Lower), &r.series[1]);
  BenchmarkSeries added;
  added.suite = "micro";
  added.name = "(suite micro)";
  r.series.push_back(added);
  EXPECT_EQ(&index.find_or_add(r, "micro", "(suite micro)", "", Better::Lower), &r.series[2]);
  EXPECT_EQ(r.series.size(), 3u);
  Results other = r;  // another session's results
  EXPECT_EQ(&index.find_or_add(other, "micro", "BM_B", "ns", Better::Lower), &other.series[0]);
}

// The cost that made 100,000 benchmarks take 57 s per round: a search or a rebuild per value.
// Recording 20,000 benchmarks over 3 rounds on both sides builds the index once.
TEST(SeriesIndex, RecordingManyRoundsBuildsTheIndexOnce) {
  Results r;
  SeriesIndex index;
  constexpr int kBenchmarks = 20000;
  for (int round = 0; round < 3; ++round)
    for (const Side side : {Side::Base, Side::Head})
      for (int i = 0; i < kBenchmarks; ++i)
        record_measurement(r, index, "micro", side, round,
                           measured(fmt::format("BM_{}", i), 100.0 + i));
  ASSERT_EQ(r.series.size(), static_cast<std::size_t>(kBenchmarks));
  EXPECT_EQ(r.series[123].head, (std::vector<double>{223, 223, 223}));
  EXPECT_EQ(index.rebuilds(), 1u);
}

}  // namespace
}  // namespace benchpr::runner
