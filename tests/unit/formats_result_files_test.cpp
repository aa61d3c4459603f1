// What each format says of a results file read as runs (`benchpr compare`): which format a
// file's JSON has, a hyperfine file split into one run per process, and how a Google Benchmark
// file summarised each benchmark's repetitions. Fixed inputs, hand-checked values.
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "benchpr/formats/format.hpp"

namespace benchpr::formats {
namespace {

std::unique_ptr<Format> reader(FormatKind kind, std::string metric = "") {
  SuiteConfig suite;
  suite.format = kind;
  suite.metric = std::move(metric);
  return make_format(suite);
}

TEST(ResultFiles, TheFormatComesFromTheShapeOfTheJson) {
  EXPECT_EQ(detect_format(R"({"context": {}, "benchmarks": []})"), FormatKind::GoogleBenchmark);
  EXPECT_EQ(detect_format(R"({"results": [{"command": "ls"}]})"), FormatKind::Hyperfine);
  EXPECT_EQ(detect_format(R"([{"benchmark": "a.B.c", "primaryMetric": {}}])"), FormatKind::Jmh);
  // Both arrays: Google Benchmark is asked first.
  EXPECT_EQ(detect_format(R"({"benchmarks": [], "results": []})"), FormatKind::GoogleBenchmark);
  EXPECT_EQ(detect_format(R"({"results": 3})"), std::nullopt);
  EXPECT_EQ(detect_format(R"({"benchmarks": {}})"), std::nullopt);
  EXPECT_EQ(detect_format(R"([])"), std::nullopt);
  EXPECT_EQ(detect_format(R"([{"benchmark": "a.B.c"}])"), std::nullopt);
  EXPECT_THROW(detect_format("not json"), ParseError);
  // Formats that are not read from JSON recognise nothing.
  EXPECT_FALSE(reader(FormatKind::Custom)->recognises(nlohmann::json::object()));
}

constexpr const char* kHyperfine = R"({"results": [
  {"command": "sleep 0.1", "times": [0.25, 0.5, 0.125], "exit_codes": [0, 0, 0]},
  {"command": "false", "times": [0.001, 0.002], "exit_codes": [1, 0]}
]})";

TEST(ResultFiles, HyperfineSplitsIntoOneRunPerProcess) {
  const auto split = reader(FormatKind::Hyperfine)->split_runs(kHyperfine);
  ASSERT_TRUE(split);
  ASSERT_EQ(split->size(), 2u);
  const BenchmarkProcesses& sleep = (*split)[0];
  EXPECT_EQ(sleep.name, "sleep 0.1");
  EXPECT_EQ(sleep.unit, "ns");
  ASSERT_EQ(sleep.runs.size(), 3u);
  // Seconds as nanoseconds, in the order the processes ran.
  EXPECT_DOUBLE_EQ(sleep.runs[0].value, 2.5e8);
  EXPECT_DOUBLE_EQ(sleep.runs[1].value, 5e8);
  EXPECT_DOUBLE_EQ(sleep.runs[2].value, 1.25e8);
  EXPECT_FALSE(sleep.runs[0].problem);
  const BenchmarkProcesses& fails = (*split)[1];
  ASSERT_EQ(fails.runs.size(), 2u);
  EXPECT_EQ(fails.runs[0].problem, "exit code 1");  // its exit code, not its time
  EXPECT_FALSE(fails.runs[1].problem);
  EXPECT_DOUBLE_EQ(fails.runs[1].value, 2e6);

  // "time" is the default metric; on any other one hyperfine's file is one run.
  EXPECT_TRUE(reader(FormatKind::Hyperfine, "time")->split_runs(kHyperfine));
  EXPECT_FALSE(reader(FormatKind::Hyperfine, "mean")->split_runs(kHyperfine));
}

TEST(ResultFiles, HyperfineWithoutPerProcessTimesIsOneRun) {
  const auto h = reader(FormatKind::Hyperfine);
  EXPECT_FALSE(h->split_runs(R"({"results": [{"command": "a", "median": 0.1}]})"));
  EXPECT_FALSE(h->split_runs(R"({"results": [{"command": "a", "times": []}]})"));
  EXPECT_FALSE(h->split_runs(R"({"results": []})"));
  EXPECT_THROW(h->split_runs(R"({"results": [{"times": [1]}]})"), ParseError);  // no command
  EXPECT_THROW(h->split_runs("[]"), ParseError);
}

TEST(ResultFiles, HyperfineNamesATimeThatIsNoTime) {
  const auto split =
      reader(FormatKind::Hyperfine)
          ->split_runs(R"({"results": [{"command": "a", "times": [0.1, "x", -1]}]})");
  ASSERT_TRUE(split);
  const std::vector<detail::Reading>& runs = split->front().runs;
  ASSERT_EQ(runs.size(), 3u);
  EXPECT_FALSE(runs[0].problem);
  EXPECT_EQ(runs[1].problem, "time is string, not a number");
  EXPECT_TRUE(runs[2].problem);
}

TEST(ResultFiles, OnlyHyperfineSplitsAFile) {
  EXPECT_FALSE(reader(FormatKind::GoogleBenchmark)->split_runs(R"({"benchmarks": []})"));
  EXPECT_FALSE(reader(FormatKind::Jmh)->split_runs("[]"));
}

std::string gb_entry(const std::string& name, const std::string& run_type,
                     const std::string& aggregate = "", int repetition = 0) {
  std::string e = R"({"name": ")" + name + R"(", "run_name": ")" + name + R"(", "run_type": ")" +
                  run_type + R"(", "family_index": 0, )" +
                  R"("per_family_instance_index": 0, "repetition_index": )" +
                  std::to_string(repetition) + R"(, "real_time": 10, "cpu_time": 10)";
  if (!aggregate.empty()) e += R"(, "aggregate_name": ")" + aggregate + R"(")";
  return e + "}";
}

std::string gb_file(const std::vector<std::string>& entries) {
  std::string out = R"({"context": {}, "benchmarks": [)";
  for (std::size_t i = 0; i < entries.size(); ++i) out += (i ? "," : "") + entries[i];
  return out + "]}";
}

TEST(ResultFiles, GoogleBenchmarkSaysHowEachValueSummarisesItsRepetitions) {
  const std::string file = gb_file({
      gb_entry("BM_Three", "iteration", "", 0), gb_entry("BM_Three", "iteration", "", 1),
      gb_entry("BM_Three", "iteration", "", 2), gb_entry("BM_Three", "aggregate", "mean"),
      gb_entry("BM_One", "iteration"), gb_entry("BM_Median", "aggregate", "mean"),
      gb_entry("BM_Median", "aggregate", "median"), gb_entry("BM_Mean", "aggregate", "mean"),
      gb_entry("BM_Fit", "aggregate", "BigO"),  // a complexity fit: nothing to compare
  });
  const std::vector<RepetitionSummary> summaries =
      reader(FormatKind::GoogleBenchmark)->repetition_summaries(file);
  ASSERT_EQ(summaries.size(), 4u);
  EXPECT_EQ(summaries[0].name, "BM_Three");
  EXPECT_EQ(summaries[0].how, "3 repetitions");
  EXPECT_EQ(summaries[1].name, "BM_One");
  EXPECT_EQ(summaries[1].how, "1 repetition");
  EXPECT_EQ(summaries[2].name, "BM_Median");
  EXPECT_EQ(summaries[2].how, "only the median aggregate");  // the median before the mean
  EXPECT_EQ(summaries[3].name, "BM_Mean");
  EXPECT_EQ(summaries[3].how, "only the mean aggregate");
}

TEST(ResultFiles, GoogleBenchmarkRefusesTwoBenchmarksUnderOneName) {
  const std::string file =
      gb_file({gb_entry("BM_Twice", "iteration", "", 0), gb_entry("BM_Twice", "iteration", "", 0)});
  try {
    reader(FormatKind::GoogleBenchmark)->repetition_summaries(file);
    FAIL() << "no error";
  } catch (const ParseError& e) {
    EXPECT_EQ(std::string(e.what()).rfind("BM_Twice: ", 0), 0u) << e.what();
  }
  EXPECT_THROW(reader(FormatKind::GoogleBenchmark)->repetition_summaries("{"), ParseError);
}

TEST(ResultFiles, OtherFormatsHaveNoRepetitionsToSummarise) {
  EXPECT_TRUE(reader(FormatKind::Hyperfine)->repetition_summaries(kHyperfine).empty());
  EXPECT_TRUE(reader(FormatKind::Jmh)->repetition_summaries("[]").empty());
}

}  // namespace
}  // namespace benchpr::formats
