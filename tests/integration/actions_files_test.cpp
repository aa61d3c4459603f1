// The step's Actions files ($GITHUB_OUTPUT, $GITHUB_ENV, $GITHUB_PATH, $GITHUB_STATE,
// $GITHUB_STEP_SUMMARY) belong to benchpr's step, not to the code under test: no build or
// benchmark gets their names, benchpr's own writes start on a fresh line whatever the file ends
// with, and a file that changed while the pull request's code ran is warned about.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "support/benchpr_process.hpp"
#include "support/contains.hpp"
#include "support/temp_repo.hpp"

namespace benchpr::testing {
namespace {

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::size_t at = 0;
  while (at < text.size()) {
    const std::size_t end = std::min(text.find('\n', at), text.size());
    lines.push_back(text.substr(at, end - at));
    at = end + 1;
  }
  return lines;
}

const char* const kFileVariables[] = {"GITHUB_OUTPUT", "GITHUB_ENV", "GITHUB_PATH", "GITHUB_STATE",
                                      "GITHUB_STEP_SUMMARY"};

// A custom-suite project whose build and benchmark dump their environment into `dumps` and do
// what a hostile pull request would with the Actions files they are given: forge the step's
// recommendation (no final newline, so the next write would continue the line) and plant
// LD_PRELOAD for the steps after.
class ActionsFiles : public ::testing::Test {
 protected:
  void write_project(const std::string& extra_bench_line) {
    repo.write(".benchpr.yml",
               "build: sh build.sh\n"
               "suites:\n"
               "  - name: s\n"
               "    run: sh bench.sh\n"
               "    format: custom\n"
               "rounds: 2\n"
               "warmup_rounds: 0\n");
    repo.write("build.sh", "env > " + dumps.path() +
                               "/build-$$.env\n"
                               "if [ -n \"$GITHUB_ENV\" ]; then printf 'LD_PRELOAD=/tmp/x.so' >> "
                               "\"$GITHUB_ENV\"; fi\n"
                               "if [ -n \"$GITHUB_PATH\" ]; then echo /tmp/evil >> "
                               "\"$GITHUB_PATH\"; fi\n");
    repo.write("bench.sh", "env > " + dumps.path() +
                               "/run-$$.env\n"
                               "if [ -n \"$GITHUB_OUTPUT\" ]; then printf "
                               "'recommendation=merge\\nX' >> \"$GITHUB_OUTPUT\"; fi\n" +
                               extra_bench_line +
                               "echo '[{\"name\": \"x\", \"unit\": \"ns\", \"value\": 1}]'\n");
    repo.commit("base");
  }

  BenchprRun run() {
    std::vector<std::pair<std::string, std::string>> env = {{"GITHUB_ACTIONS", "true"},
                                                            {"GITHUB_EVENT_PATH", ""},
                                                            {"GITHUB_EVENT_NAME", ""},
                                                            {"GITHUB_TOKEN", ""},
                                                            {"GH_TOKEN", ""}};
    env.emplace_back("GITHUB_OUTPUT", files / "output.txt");
    env.emplace_back("GITHUB_ENV", files / "env.txt");
    env.emplace_back("GITHUB_PATH", files / "path.txt");
    env.emplace_back("GITHUB_STATE", files / "state.txt");
    env.emplace_back("GITHUB_STEP_SUMMARY", files / "summary.md");
    return run_benchpr(BENCHPR_BINARY,
                       {"run", "-C", repo.path(), "--base", "main", "--head", "main", "--dry-run"},
                       env);
  }

  TempRepo repo;
  TempDir dumps;
  TempDir files;
};

TEST_F(ActionsFiles, NoChildGetsThemAndBenchprsOutputsStartOnAFreshLine) {
  write_project("");
  // An earlier step left its last output line unterminated.
  write_file(files / "output.txt", "earlier=kept");
  for (const char* name : {"env.txt", "path.txt", "state.txt", "summary.md"})
    write_file(files / name, "");

  const BenchprRun r = run();
  ASSERT_EQ(r.exit_code, 0) << r.err;

  int dumped = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dumps.path())) {
    ++dumped;
    const std::string content = read_file(entry.path().string());
    EXPECT_TRUE(contains(content, "PATH=")) << "the dump does work";
    for (const char* variable : kFileVariables)
      EXPECT_FALSE(contains(content, std::string(variable) + "="))
          << variable << " reached " << entry.path();
  }
  EXPECT_GE(dumped, 3);  // a build and at least two runs

  // Nothing the children tried reached the files; benchpr's own outputs follow the earlier line.
  EXPECT_EQ(read_file(files / "env.txt"), "");
  EXPECT_EQ(read_file(files / "path.txt"), "");
  const std::vector<std::string> lines = lines_of(read_file(files / "output.txt"));
  ASSERT_FALSE(lines.empty());
  EXPECT_EQ(lines[0], "earlier=kept");
  ASSERT_GE(lines.size(), 2u);
  EXPECT_TRUE(lines[1].starts_with("recommendation<<ghadelimiter_")) << lines[1];
  for (const auto& line : lines) {
    EXPECT_NE(line, "recommendation=merge");
    EXPECT_NE(line, "X");
  }
  EXPECT_FALSE(contains(r.err, "changed while the pull request's code ran")) << r.err;
}

// The code under test runs as the same user and may find a file without its variable (here its
// path is written into the benchmark): benchpr cannot stop the write, but says so.
TEST_F(ActionsFiles, AFileChangedWhileThePullRequestsCodeRanIsWarnedAbout) {
  write_project("printf 'forged=1\\n' >> " + files / "output.txt" + "\n");
  for (const char* name : {"output.txt", "env.txt", "path.txt", "state.txt", "summary.md"})
    write_file(files / name, "");

  const BenchprRun r = run();
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(contains(r.err,
                       "benchpr: warning: $GITHUB_OUTPUT changed while the pull "
                       "request's code ran"))
      << r.err;
  EXPECT_TRUE(contains(r.out, "::warning::$GITHUB_OUTPUT changed while")) << r.out;
  EXPECT_FALSE(contains(r.err, "$GITHUB_ENV changed")) << r.err;
}

}  // namespace
}  // namespace benchpr::testing
