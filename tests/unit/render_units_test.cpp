// Values, changes and intervals as the comment prints them.
#include <gtest/gtest.h>

#include "benchpr/render/units.hpp"

namespace benchpr::render {
namespace {

TEST(ThreeSignificant, KeepsPrecisionVisible) {
  EXPECT_EQ(three_significant(1.2), "1.20");
  EXPECT_EQ(three_significant(812.4), "812");
  EXPECT_EQ(three_significant(45.06), "45.1");
  EXPECT_EQ(three_significant(0.5), "0.500");
  EXPECT_EQ(three_significant(12345), "12345");
  EXPECT_EQ(three_significant(9.996), "10.0");
  EXPECT_EQ(three_significant(0), "0.00");
  EXPECT_EQ(three_significant(kMissing), "—");
}

TEST(FormatValue, TimesScaleToReadableUnits) {
  EXPECT_EQ(format_value(812, "ns"), "812 ns");
  EXPECT_EQ(format_value(45100, "ns"), "45.1 µs");
  EXPECT_EQ(format_value(1.63e6, "ns"), "1.63 ms");
  EXPECT_EQ(format_value(2e9, "ns"), "2.00 s");
  EXPECT_EQ(format_value(999.7, "ns"), "1.00 µs");  // rounding crosses into the next unit
  EXPECT_EQ(format_value(45.1, "us"), "45.1 µs");
  EXPECT_EQ(format_value(0.5, "ms"), "500 µs");
  EXPECT_EQ(format_value(5000, "s"), "5000 s");
  EXPECT_EQ(format_value(0.25, "ns"), "0.250 ns");
  EXPECT_EQ(format_value(45100, "ns/op"), "45.1 µs/op");
  // Every spelling the formats and the value check know is a time here too.
  EXPECT_EQ(format_value(45.1, "μs"), "45.1 µs");  // U+03BC, not the micro sign
  EXPECT_EQ(format_value(1.5, "sec"), "1.50 s");
  EXPECT_EQ(format_value(0.5, "sec/op"), "500 ms/op");
}

TEST(FormatValue, RatesUseDecimalPrefixes) {
  EXPECT_EQ(format_value(1.234e9, "B/s"), "1.23 GB/s");
  EXPECT_EQ(format_value(512, "B/s"), "512 B/s");
  EXPECT_EQ(format_value(3.4e6, "items/s"), "3.40 M/s");
  EXPECT_EQ(format_value(999999, "items/s"), "1.00 M/s");
}

TEST(FormatValue, OtherUnitsAsGiven) {
  EXPECT_EQ(format_value(48.5, "ops/ms"), "48.5 ops/ms");
  EXPECT_EQ(format_value(123456, "ops/s"), "123456 ops/s");
  EXPECT_EQ(format_value(4.8, ""), "4.80");
  EXPECT_EQ(format_value(kMissing, "ns"), "—");
}

TEST(FormatChange, PercentagesWhileTheRatioIsSmall) {
  EXPECT_EQ(format_change(0.075, Better::Lower), "+7.5%");
  EXPECT_EQ(format_change(-0.031, Better::Lower), "\u22123.1%");
  EXPECT_EQ(format_change(0.99, Better::Higher), "+99.0%");
  EXPECT_EQ(format_change(-0.49, Better::Lower), "\u221249.0%");
  EXPECT_EQ(format_change(0.0, Better::Lower), "0.0%");
}

TEST(FormatChange, RatiosInTheDirectionThatMatters) {
  EXPECT_EQ(format_change(1.0, Better::Lower), "2.0× slower");
  EXPECT_EQ(format_change(2.2, Better::Lower), "3.2× slower");
  EXPECT_EQ(format_change(-0.6875, Better::Lower), "3.2× faster");
  EXPECT_EQ(format_change(-0.5, Better::Lower), "2.0× faster");
  EXPECT_EQ(format_change(2.2, Better::Higher), "3.2× higher");
  EXPECT_EQ(format_change(-0.6875, Better::Higher), "3.2× lower");
  EXPECT_EQ(format_change(307, Better::Higher), "308× higher");
  EXPECT_EQ(format_change(kMissing, Better::Lower), "—");
}

TEST(FormatCi, BothEndsSigned) {
  EXPECT_EQ(format_ci(0.041, 0.108), "+4.1 … +10.8%");
  EXPECT_EQ(format_ci(-0.021, 0.054), "\u22122.1 … +5.4%");
  EXPECT_EQ(format_ci(kMissing, 0.1), "—");
}

// A large change with a narrow interval: the ends get the digits that tell them apart.
TEST(FormatCi, NarrowRatioIntervalsKeepTheirEndsApart) {
  EXPECT_EQ(format_ci(2.18, 2.22), "3.18× … 3.22×");          // not "3.2× … 3.2×"
  EXPECT_EQ(format_ci(1.9, 2.6), "2.9× … 3.6×");              // already apart: one decimal
  EXPECT_EQ(format_ci(11.3, 11.4), "12.3× … 12.4×");          // not "12× … 12×"
  EXPECT_EQ(format_ci(-0.6885, -0.6865), "3.19× … 3.21×");    // faster: 1/(1+high) … 1/(1+low)
  EXPECT_EQ(format_ci(2.2, 2.2), "3.2× … 3.2×");              // equal ends stay as they are
  EXPECT_EQ(format_ci(2.20001, 2.20002), "3.200× … 3.200×");  // at most three decimals
}

// A unit comes from the results file: in the comment it is escaped like a name.
TEST(FormatValue, AHostileUnitIsEscapedForMarkdownOnly) {
  const std::string unit = "ms|<b>x</b>\n\n# H @octocat";
  const std::string md = format_value(48.5, unit, UnitText::Markdown);
  EXPECT_EQ(md, "48.5 ms\\|&lt;b&gt;x&lt;/b&gt; # H @\u200Boctocat");
  // A time unit with a hostile suffix keeps its scaling; the suffix is escaped.
  EXPECT_EQ(format_value(45100, "ns/<i>", UnitText::Markdown), "45.1 µs/&lt;i&gt;");
  // Known units are unchanged, and plain text (for HTML, which escapes it whole) is as given.
  EXPECT_EQ(format_value(1.23e9, "bytes_per_second", UnitText::Markdown), "1.23 GB/s");
  EXPECT_EQ(format_value(48.5, "ops/ms", UnitText::Markdown), "48.5 ops/ms");
  EXPECT_EQ(format_value(48.5, unit), "48.5 " + unit);
  // Capped like other short fields.
  const std::string shown = format_value(1, std::string(500, 'u'), UnitText::Markdown);
  EXPECT_LT(shown.size(), 60u) << shown;
}

}  // namespace
}  // namespace benchpr::render
