// The github-action-benchmark "custom" JSON parser (tests/data/custom).
#include <string>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "benchpr/formats/format.hpp"
#include "support/temp_dir.hpp"

namespace benchpr::formats {
namespace {

std::string data(const std::string& name) {
  return testing::read_file(std::string(BENCHPR_TEST_DATA_DIR) + "/custom/" + name);
}

ParsedRun parse(std::string_view content, std::optional<Better> better = std::nullopt) {
  return make_custom_format(better)->parse(content);
}

TEST(CustomFormat, ValuesUnitsAndRepeatedNames) {
  const ParsedRun run = parse(data("proxy_bench.json"));
  EXPECT_TRUE(run.failures.empty());
  ASSERT_EQ(run.measurements.size(), 3u);
  EXPECT_EQ(run.measurements[0].name, "parse small request");
  EXPECT_DOUBLE_EQ(run.measurements[0].value, 412.5);
  EXPECT_EQ(run.measurements[0].unit, "ns/iter");
  // Three lines: 9830, 9790, 9910 -> 9830.
  EXPECT_EQ(run.measurements[1].name, "parse large request");
  EXPECT_DOUBLE_EQ(run.measurements[1].value, 9830);
  EXPECT_EQ(run.measurements[2].name, "proxy throughput");
  EXPECT_EQ(run.measurements[2].unit, "MiB/s");
}

TEST(CustomFormat, DirectionComesFromTheSuiteAndDefaultsToLower) {
  for (const auto& m : parse(data("proxy_bench.json")).measurements) {
    EXPECT_EQ(m.better, Better::Lower) << m.name;
  }
  for (const auto& m : parse(data("proxy_bench.json"), Better::Higher).measurements) {
    EXPECT_EQ(m.better, Better::Higher) << m.name;
  }
}

TEST(CustomFormat, UnusableValuesAreFailures) {
  const ParsedRun run = parse(R"([
    {"name": "missing", "unit": "ms"},
    {"name": "text", "unit": "ms", "value": "12"},
    {"name": "zero", "unit": "ms", "value": 0},
    {"name": "negative", "unit": "ms", "value": -1.5},
    {"name": "nan", "unit": "ms", "value": "NaN"},
    {"name": "ok", "unit": "ms", "value": 2},
    {"name": "ok", "value": 4}
  ])");
  ASSERT_EQ(run.failures.size(), 5u);
  EXPECT_EQ(run.failures[0].reason, "value is missing");
  EXPECT_EQ(run.failures[1].reason, "value is string, not a number");
  EXPECT_EQ(run.failures[2].reason, "value is 0");
  EXPECT_EQ(run.failures[3].reason, "value is negative (-1.5)");
  EXPECT_EQ(run.failures[4].reason, "value is NaN");
  ASSERT_EQ(run.measurements.size(), 1u);
  EXPECT_DOUBLE_EQ(run.measurements[0].value, 3);  // (2 + 4) / 2
  EXPECT_EQ(run.measurements[0].unit, "ms");
}

TEST(CustomFormat, WrongShapesAreParseErrors) {
  const auto message = [](std::string_view text) -> std::string {
    try {
      parse(text);
    } catch (const ParseError& e) {
      return e.what();
    }
    return "no error";
  };
  EXPECT_EQ(message(R"({"name": "a"})"),
            "not custom benchmark JSON: expected an array of {\"name\", \"unit\", \"value\"} "
            "objects, got object");
  EXPECT_EQ(message(R"(["a"])"), "not custom benchmark JSON: [0] is string, not an object");
  EXPECT_EQ(message(R"([{"value": 1}])"), "not custom benchmark JSON: [0] has no \"name\"");
  EXPECT_THAT(message(R"([{"name": "a", "value": 1)"),
              ::testing::EndsWith("(is the file truncated?)"));
}

// Found by fuzz_custom: the JSON parser's message quotes the bytes it stopped at ("last read:
// '…'"), and those came from the code under test; the reason must be text.
TEST(CustomFormat, AParseErrorQuotingIllFormedBytesIsValidUtf8) {
  const std::string broken = "[{\"name\": \"a\", \xff\xfe: 1}]";
  try {
    parse(broken);
    FAIL() << "parsed";
  } catch (const ParseError& e) {
    EXPECT_TRUE(is_valid_utf8(e.what())) << e.what();
    EXPECT_NE(std::string(e.what()).find("not custom benchmark JSON"), std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace benchpr::formats
