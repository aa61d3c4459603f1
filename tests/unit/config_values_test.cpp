// Durations and percentages as written in .benchpr.yml.
#include <cmath>
#include <optional>
#include <string>

#include <gtest/gtest.h>

#include "benchpr/config/config_parser.hpp"

namespace benchpr::config {
namespace {

struct DurationCase {
  const char* text;
  std::optional<double> seconds;
};

class DurationTable : public ::testing::TestWithParam<DurationCase> {};

TEST_P(DurationTable, Parses) {
  const auto& c = GetParam();
  const auto got = parse_duration(c.text);
  ASSERT_EQ(got.has_value(), c.seconds.has_value()) << "'" << c.text << "'";
  if (got) {
    EXPECT_DOUBLE_EQ(*got, *c.seconds) << "'" << c.text << "'";
  }
}

INSTANTIATE_TEST_SUITE_P(
    Config, DurationTable,
    ::testing::Values(DurationCase{"90s", 90}, DurationCase{"20m", 1200}, DurationCase{"1h", 3600},
                      DurationCase{"1h30m", 5400}, DurationCase{"2m 30s", 150},
                      DurationCase{"1h0m5s", 3605}, DurationCase{"250ms", 0.25},
                      DurationCase{"1s500ms", 1.5}, DurationCase{"1.5h", 5400},
                      DurationCase{"90", 90}, DurationCase{"0.5", 0.5}, DurationCase{" 7s ", 7},
                      DurationCase{"0s", 0}, DurationCase{"", std::nullopt},
                      DurationCase{"s", std::nullopt}, DurationCase{"10x", std::nullopt},
                      DurationCase{"-5s", std::nullopt}, DurationCase{"30m1h", std::nullopt},
                      DurationCase{"1m1m", std::nullopt}, DurationCase{"5 minutes", std::nullopt},
                      DurationCase{"inf", std::nullopt}, DurationCase{"nan", std::nullopt},
                      DurationCase{"1e3", std::nullopt}, DurationCase{"1..5s", std::nullopt},
                      DurationCase{"10S", std::nullopt}));

struct PercentageCase {
  const char* text;
  std::optional<double> fraction;
};

class PercentageTable : public ::testing::TestWithParam<PercentageCase> {};

TEST_P(PercentageTable, Parses) {
  const auto& c = GetParam();
  const auto got = parse_percentage(c.text);
  ASSERT_EQ(got.has_value(), c.fraction.has_value()) << "'" << c.text << "'";
  if (got) {
    EXPECT_DOUBLE_EQ(*got, *c.fraction) << "'" << c.text << "'";
  }
}

INSTANTIATE_TEST_SUITE_P(
    Config, PercentageTable,
    ::testing::Values(PercentageCase{"2%", 0.02}, PercentageCase{"0.5%", 0.005},
                      PercentageCase{"50%", 0.5}, PercentageCase{"2 %", 0.02},
                      PercentageCase{" 1.25% ", 0.0125}, PercentageCase{"0%", 0.0},
                      PercentageCase{"0.02", std::nullopt}, PercentageCase{"2", std::nullopt},
                      PercentageCase{"%", std::nullopt}, PercentageCase{"-1%", std::nullopt},
                      PercentageCase{"two%", std::nullopt}, PercentageCase{"2%%", std::nullopt},
                      PercentageCase{"nan%", std::nullopt}, PercentageCase{"", std::nullopt}));

}  // namespace
}  // namespace benchpr::config
