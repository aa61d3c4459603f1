// `benchpr compare`'s reading of result files, on captured real outputs (tests/data/): which
// tool wrote a file, how a Google Benchmark file with repetitions becomes one run per
// repetition, and how the runs of both sides become rounds of the same Results a session makes.
#include "benchpr/app/compare_results.hpp"

#include <gtest/gtest.h>

#include "benchpr/app/user_error.hpp"
#include "support/temp_dir.hpp"

namespace benchpr::app {
namespace {

ResultFile data(const std::string& name) {
  const std::string path = std::string(BENCHPR_TEST_DATA_DIR) + "/" + name;
  return {path, testing::read_file(path)};
}

TEST(CompareResults, TheFormatComesFromTheFilesShape) {
  EXPECT_EQ(detect_result_format(data("google-benchmark/single_run.json")), "google-benchmark");
  EXPECT_EQ(detect_result_format(data("jmh/tls_benchmark.json")), "jmh");
  EXPECT_EQ(detect_result_format(data("hyperfine/command_names.json")), "hyperfine");
  EXPECT_THROW(detect_result_format({"x.json", "{\"results\": 3}"}), UserError);
  EXPECT_THROW(detect_result_format({"x.json", "not json"}), UserError);
}

// repetitions.json: 3 repetitions of each benchmark, with mean/median/stddev aggregates.
TEST(CompareResults, AGoogleBenchmarkFileGivesARunPerRepetition) {
  const ResultFile file = data("google-benchmark/repetitions.json");
  const std::vector<std::string> runs = runs_of(file, "google-benchmark");
  ASSERT_EQ(runs.size(), 3u);
  for (const std::string& run : runs) {
    EXPECT_EQ(run.find("\"aggregate\""), std::string::npos) << run;
    EXPECT_NE(run.find("\"context\""), std::string::npos);
  }
  EXPECT_EQ(runs_of(data("google-benchmark/single_run.json"), "google-benchmark").size(), 1u);
  EXPECT_EQ(runs_of(data("jmh/tls_benchmark.json"), "jmh").size(), 1u);
}

// command_names.json: two commands run 3 times each; run k holds each command's k-th time.
TEST(CompareResults, AHyperfineFileGivesARunPerTimeWhenTimeIsCompared) {
  const ResultFile file = data("hyperfine/command_names.json");
  const std::vector<std::string> runs = runs_of(file, "hyperfine");
  ASSERT_EQ(runs.size(), 3u);
  EXPECT_NE(runs[1].find("\"times\":[0.011824688180000001]"), std::string::npos) << runs[1];
  EXPECT_NE(runs[1].find("\"times\":[0.02270916418]"), std::string::npos) << runs[1];
  // Another metric (user, mean, ...) has one value per command: one run.
  EXPECT_EQ(runs_of(file, "hyperfine", "user").size(), 1u);
  CompareInput in;
  in.base = {file};
  in.head = {file};
  const Results r = results_from_files(in);
  ASSERT_EQ(r.plan.size(), 3u);
  int found = 0;
  for (const BenchmarkSeries& s : r.series) {
    if (s.name != "short-sleep") continue;
    ++found;
    ASSERT_EQ(s.base.size(), 3u);
    EXPECT_NEAR(s.base[1], 0.011824688180000001e9, 1);  // nanoseconds
  }
  EXPECT_EQ(found, 1);
}

TEST(CompareResults, RunsOfBothSidesArePairedIntoRounds) {
  CompareInput in;
  in.base = {data("google-benchmark/repetitions.json")};
  in.head = {data("google-benchmark/random_interleaving.json"),
             data("google-benchmark/single_run.json")};
  const Results r = results_from_files(in);
  EXPECT_EQ(r.origin, Origin::ResultFiles);
  EXPECT_EQ(r.base.sha, "");
  ASSERT_EQ(r.plan.size(), 4u);  // 3 base runs, 3 + 1 PR runs
  for (const RoundPlan& p : r.plan) {
    EXPECT_FALSE(p.warmup);
    EXPECT_EQ(p.first, Side::Base);
  }
  ASSERT_EQ(r.config.suites.size(), 1u);
  EXPECT_EQ(r.config.suites[0].name, "google-benchmark");
  for (const BenchmarkSeries& s : r.series) {
    EXPECT_EQ(s.base.size(), 4u) << s.name;
    EXPECT_EQ(s.head.size(), 4u) << s.name;
    EXPECT_TRUE(is_missing(s.base[3])) << s.name;  // the base has no fourth run
  }
  EXPECT_EQ(r.stop_reason, "read 3 base and 4 PR runs from files");
}

TEST(CompareResults, OneToolPerComparison) {
  CompareInput in;
  in.base = {data("google-benchmark/single_run.json")};
  in.head = {data("jmh/tls_benchmark.json")};
  try {
    results_from_files(in);
    FAIL() << "mixed tools were accepted";
  } catch (const UserError& e) {
    EXPECT_NE(std::string(e.what()).find("tls_benchmark.json is jmh JSON but"), std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace benchpr::app
