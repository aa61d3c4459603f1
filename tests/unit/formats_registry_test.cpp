// make_format and the helpers the parsers share.
#include <cmath>
#include <string>

#include <gtest/gtest.h>

#include "benchpr/formats/format.hpp"

namespace benchpr::formats {
namespace {

TEST(FormatRegistry, EveryKnownFormatIsMade) {
  EXPECT_EQ(kFormatKinds.names(), (std::vector<std::string>{"google-benchmark", "jmh", "hyperfine",
                                                            "command", "custom"}));
  for (const auto& [kind, name] : kFormatKinds.entries) {
    SuiteConfig suite;
    suite.format = kind;
    const auto format = make_format(suite);
    ASSERT_NE(format, nullptr) << name;
    EXPECT_EQ(format->kind(), kind) << name;
  }
}

TEST(FormatRegistry, CommandIsMeasuredNotParsed) {
  SuiteConfig suite;
  suite.format = FormatKind::Command;
  const auto format = make_format(suite);
  ASSERT_NE(format, nullptr);
  EXPECT_TRUE(format->measures_process());
  EXPECT_EQ(format->extra_arguments("/tmp/out.json", 3), "");
  EXPECT_THROW(format->parse("anything"), ParseError);
  suite.format = FormatKind::Custom;
  EXPECT_FALSE(make_format(suite)->measures_process());
}

TEST(FormatRegistry, UnknownNameIsNoFormat) {
  EXPECT_EQ(format_kind_from_string("gbench"), std::nullopt);
  EXPECT_EQ(format_kind_from_string("Google-Benchmark"), std::nullopt);
  EXPECT_EQ(format_kind_from_string(""), std::nullopt);
}

TEST(FormatRegistry, SuiteOptionsReachTheParser) {
  SuiteConfig suite;
  suite.format = FormatKind::Custom;
  suite.better = Better::Higher;
  EXPECT_EQ(make_format(suite)->parse(R"([{"name": "a", "value": 1}])").measurements.at(0).better,
            Better::Higher);

  suite.format = FormatKind::GoogleBenchmark;
  suite.metric = "cpu_time";
  suite.better.reset();
  const ParsedRun run = make_format(suite)->parse(
      R"({"benchmarks": [{"name": "BM", "real_time": 1, "cpu_time": 2, "time_unit": "ns"}]})");
  EXPECT_DOUBLE_EQ(run.measurements.at(0).value, 2);
}

TEST(Median, OddEvenEmpty) {
  EXPECT_DOUBLE_EQ(median({10, 30, 20}), 20);
  EXPECT_DOUBLE_EQ(median({4, 1, 3, 2}), 2.5);
  EXPECT_DOUBLE_EQ(median({7}), 7);
  EXPECT_TRUE(std::isnan(median({})));
}

TEST(WeightedMedian, CountsWeights) {
  EXPECT_DOUBLE_EQ(weighted_median({{10, 3}, {12, 1}, {11, 2}}), 10.5);  // 10 10 10 11 11 12
  EXPECT_DOUBLE_EQ(weighted_median({{5, 1}, {1, 10}, {9, 1}}), 1);
  EXPECT_DOUBLE_EQ(weighted_median({{2, 1}, {4, 1}}), 3);
  EXPECT_DOUBLE_EQ(weighted_median({{2, 0}, {4, 1}}), 4);  // zero weight counts for nothing
  EXPECT_TRUE(std::isnan(weighted_median({})));
}

}  // namespace
}  // namespace benchpr::formats
