// The hyperfine parser on real `--export-json` output of hyperfine 1.15 (tests/data/hyperfine).
#include <string>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "benchpr/formats/format.hpp"
#include "support/temp_dir.hpp"

namespace benchpr::formats {
namespace {

using ::testing::ElementsAre;

std::string data(const std::string& name) {
  return testing::read_file(std::string(BENCHPR_TEST_DATA_DIR) + "/hyperfine/" + name);
}

ParsedRun parse(std::string_view content, std::string metric = "",
                std::optional<Better> better = std::nullopt) {
  return make_hyperfine_format(std::move(metric), better)->parse(content);
}

std::vector<std::string> names(const ParsedRun& run) {
  std::vector<std::string> out;
  for (const auto& m : run.measurements) out.push_back(m.name);
  return out;
}

TEST(HyperfineFormat, RealMedianInNanosecondsAndFailingCommand) {
  const ParsedRun run = parse(data("failing_command.json"));
  ASSERT_EQ(run.measurements.size(), 1u);
  const Measurement& m = run.measurements[0];
  EXPECT_EQ(m.name, "sleep 0.01");
  // times 0.01138936368, 0.01132957568, 0.01137906168 s -> the last one.
  EXPECT_DOUBLE_EQ(m.value, 0.01137906168 * 1e9);
  EXPECT_EQ(m.unit, "ns");
  EXPECT_EQ(m.better, Better::Lower);
  ASSERT_EQ(run.failures.size(), 1u);
  EXPECT_EQ(run.failures[0].name, "exit 3");
  EXPECT_EQ(run.failures[0].reason, "exit code 3 in 3 of 3 runs");
}

TEST(HyperfineFormat, RealCommandNames) {
  const ParsedRun run = parse(data("command_names.json"));
  EXPECT_THAT(names(run), ElementsAre("short-sleep", "long-sleep"));
  // 0.02175964218, 0.02270916418, 0.02191877718 -> 0.02191877718.
  EXPECT_DOUBLE_EQ(run.measurements[1].value, 0.02191877718 * 1e9);
}

TEST(HyperfineFormat, RealParameterScanNamesAreTheSubstitutedCommands) {
  const ParsedRun run = parse(data("parameter_scan.json"));
  EXPECT_THAT(names(run), ElementsAre("sleep 0.01", "sleep 0.02"));
  // 0.011858..., 0.011453..., 0.011673... -> 0.01167394218.
  EXPECT_DOUBLE_EQ(run.measurements[0].value, 0.01167394218 * 1e9);
}

TEST(HyperfineFormat, EvenRunsAverageTheMiddleTwo) {
  const ParsedRun run = parse(R"({"results": [
    {"command": "a", "times": [0.4, 0.1, 0.3, 0.2], "exit_codes": [0, 0, 0, 0]}]})");
  EXPECT_DOUBLE_EQ(run.measurements.at(0).value, 0.25 * 1e9);
}

TEST(HyperfineFormat, SignalsAndPartialFailures) {
  const ParsedRun run = parse(R"({"results": [
    {"command": "crash", "times": [0.1, 0.1], "exit_codes": [0, null]},
    {"command": "flaky", "times": [0.1, 0.1, 0.1], "exit_codes": [0, 1, 2]},
    {"command": "zero", "times": [0.1, 0.0], "exit_codes": [0, 0]},
    {"command": "text", "times": [0.1, "x"]},
    {"command": "summary only", "median": 0.5}
  ]})");
  ASSERT_EQ(run.failures.size(), 4u);
  EXPECT_EQ(run.failures[0].reason, "killed by a signal in 1 of 2 runs");
  EXPECT_EQ(run.failures[1].reason, "exit code 1 in 2 of 3 runs");
  EXPECT_EQ(run.failures[2].reason, "time is 0");
  EXPECT_EQ(run.failures[3].reason, "times holds string, not a number");
  ASSERT_EQ(run.measurements.size(), 1u);
  EXPECT_DOUBLE_EQ(run.measurements[0].value, 0.5e9);
}

TEST(HyperfineFormat, OtherMetrics) {
  const std::string text = R"({"results": [
    {"command": "a", "times": [0.3], "user": 0.002, "system": 0.0, "mean": 0.31, "exit_codes": [0]}]})";
  EXPECT_DOUBLE_EQ(parse(text, "user").measurements.at(0).value, 2e6);
  EXPECT_DOUBLE_EQ(parse(text, "mean").measurements.at(0).value, 0.31e9);
  EXPECT_EQ(parse(text, "system").failures.at(0).reason, "system is 0");
  EXPECT_EQ(parse(text, "cycles").failures.at(0).reason,
            "unknown metric 'cycles' (hyperfine reports time, user, system, mean, median, min, "
            "max)");
  EXPECT_EQ(parse(text, "", Better::Higher).measurements.at(0).better, Better::Higher);
}

TEST(HyperfineFormat, WrongShapesAreParseErrors) {
  const auto message = [](std::string_view text) -> std::string {
    try {
      parse(text);
    } catch (const ParseError& e) {
      return e.what();
    }
    return "no error";
  };
  EXPECT_EQ(message("[]"), "not hyperfine JSON: no \"results\" array");
  EXPECT_EQ(message(R"({"results": [7]})"),
            "not hyperfine JSON: results[0] is number, not an object");
  EXPECT_EQ(message(R"({"results": [{"times": [1]}]})"),
            "not hyperfine JSON: results[0] has no command");
  const std::string full = data("failing_command.json");
  EXPECT_THAT(message(full.substr(0, full.size() / 2)),
              ::testing::StartsWith("not hyperfine JSON: "));
}

TEST(HyperfineFormat, ExtraArgumentsAreLeftToTheUser) {
  EXPECT_EQ(make_hyperfine_format("", std::nullopt)->extra_arguments("/tmp/x.json", 3), "");
}

}  // namespace
}  // namespace benchpr::formats
