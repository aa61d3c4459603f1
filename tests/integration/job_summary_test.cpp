// The job summary holds the whole report: GitHub takes up to 1 MiB per step there, where a
// comment stops at 65,536 bytes. A suite of 1,200 benchmarks whose comment must shrink still
// has every benchmark in the summary, and the summary stays under the step's limit.
#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "support/benchpr_process.hpp"
#include "support/contains.hpp"
#include "support/temp_repo.hpp"

namespace benchpr::testing {
namespace {

constexpr int kBenchmarks = 1200;

std::string name_of(int i) {
  char digits[8];
  std::snprintf(digits, sizeof digits, "%04d", i);
  return "BM_AVeryLongBenchmarkNameThatMakesTheTableWideEnoughToOverflowAComment/" +
         std::string(digits);
}

TEST(JobSummary, HoldsEveryBenchmarkWhereTheCommentMustShrink) {
  TempRepo repo;
  repo.write(".benchpr.yml",
             "suites:\n"
             "  - name: s\n"
             "    run: sh bench.sh\n"
             "    format: custom\n"
             "rounds: 2\n"
             "warmup_rounds: 0\n");
  repo.write("bench.sh",
             "awk 'BEGIN { printf \"[\"; for (i = 0; i < " + std::to_string(kBenchmarks) +
                 "; i++) { if (i) printf \",\"; printf \"{\\\"name\\\": "
                 "\\\"BM_AVeryLongBenchmarkNameThatMakesTheTableWideEnoughToOverflowAComment/"
                 "%04d\\\", \\\"unit\\\": \\\"ns\\\", \\\"value\\\": %d}\", i, 100 + i % 7 }; "
                 "print \"]\" }'\n");
  repo.commit("base");
  TempDir files;
  write_file(files / "summary.md", "");
  const std::vector<std::pair<std::string, std::string>> env = {
      {"GITHUB_ACTIONS", "true"},
      {"GITHUB_EVENT_PATH", ""},
      {"GITHUB_EVENT_NAME", ""},
      {"GITHUB_TOKEN", ""},
      {"GH_TOKEN", ""},
      {"GITHUB_OUTPUT", files / "output.txt"},
      {"GITHUB_STEP_SUMMARY", files / "summary.md"}};
  const BenchprRun r =
      run_benchpr(BENCHPR_BINARY,
                  {"run", "-C", repo.path(), "--base", "main", "--head", "main", "--dry-run"}, env);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string summary = read_file(files / "summary.md");
  EXPECT_GT(summary.size(), 65536u);
  EXPECT_LE(summary.size(), 1024u * 1024u);
  for (int i : {0, kBenchmarks / 2, kBenchmarks - 1})
    EXPECT_TRUE(contains(summary, name_of(i))) << name_of(i);
  // The comment (printed in the log) is the one a pull request can hold, so it had to shrink.
  EXPECT_FALSE(contains(r.out, name_of(kBenchmarks - 1)));
}

}  // namespace
}  // namespace benchpr::testing
