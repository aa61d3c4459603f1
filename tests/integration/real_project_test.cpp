// A real project on the first try, as a new user meets it: `benchpr init` on a CMake project whose
// benchmarks are gated by an option (shaped like spdlog), then the command init suggests, with no
// hand edits. Each stumble of the first attempt on spdlog is checked on the way.
#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "support/benchpr_process.hpp"
#include "support/gated_cmake_project.hpp"
#include "support/gbench_project.hpp"
#include "support/results_doc.hpp"
#include "support/temp_dir.hpp"
#include "support/temp_repo.hpp"

namespace benchpr::testing {
namespace {

using nlohmann::json;

int count(const std::string& text, const std::string& what) {
  int n = 0;
  for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

// The words of a command as a shell would split it (no quotes in init's suggestion here).
std::vector<std::string> words(const std::string& command) {
  std::vector<std::string> out;
  std::istringstream in(command);
  for (std::string w; in >> w;) out.push_back(w);
  return out;
}

TEST(RealProject, InitThenTheSuggestedCommandComparesAGatedCMakeProject) {
  TempRepo repo;
  write_gated_cmake_project(repo, 2000);
  repo.commit("base");
  write_gated_cmake_project(repo, 4000);  // BM_Work does twice the work
  repo.commit("slower work");

  const BenchprRun init = run_benchpr(BENCHPR_BINARY, {"init"}, {}, repo.path());
  ASSERT_EQ(init.exit_code, 0) << init.err;
  // init found the option that gates bench/ and says it turned it on.
  EXPECT_NE(init.out.find("turned on the CMake option GATED_BUILD_BENCH (-DGATED_BUILD_BENCH=ON): "
                          "bench/ is built only if(GATED_BUILD_BENCH OR GATED_BUILD_ALL)"),
            std::string::npos)
      << init.out;
  const std::string marker = "`benchpr run ";
  const auto at = init.out.find(marker);
  ASSERT_NE(at, std::string::npos) << init.out;
  const std::string suggested = init.out.substr(at + 1, init.out.find('`', at + 1) - at - 1);
  EXPECT_EQ(suggested, "benchpr run --base HEAD~1 --head HEAD --config .benchpr.yml");

  // The suggested command, with a short run and a results file to read.
  std::vector<std::string> args = words(suggested);
  args.erase(args.begin());  // "benchpr"
  TempDir out;
  for (const std::string& extra :
       std::vector<std::string>{"--rounds", "6", "--output", out / "results.json"})
    args.push_back(extra);
  const BenchprRun run = run_benchpr(BENCHPR_BINARY, args, {}, repo.path());
  ASSERT_NE(run.exit_code, 2) << run.err;
  const json doc = json::parse(read_file(out / "results.json"));

  // latency refuses any argument: benchpr's flags reached it through the environment. Six
  // rounds asked, eight run (a CMake project: whole cycles of the placement control's four
  // placements), so that one left out on a busy machine still leaves the four a verdict needs.
  const json& work = benchmark_named(doc, "BM_Work");
  EXPECT_GE(rounds_compared(work), 4) << work.dump();
  EXPECT_LE(rounds_compared(work), 8) << work.dump();
  EXPECT_EQ(benchmark_named(doc, "BM_Work")["verdict"], "regression") << run.err;
  EXPECT_EQ(count(run.err, "takes no arguments"), 0) << run.err;
  // formatter-bench wants an argument init cannot guess: its suite is written commented out,
  // saying so, and the comparison is not failed by it.
  EXPECT_NE(init.out.find("formatter-bench's main() checks `argc != 2`"), std::string::npos)
      << init.out;
  EXPECT_NE(read_file(repo.path() + "/.benchpr.yml").find("  # - name: formatter-bench\n"),
            std::string::npos);
  EXPECT_EQ(count(run.err, "Usage: "), 0) << run.err;
  EXPECT_NE(doc["recommendation"]["verdict"], "failed") << run.err;
}

// In a repository of one commit there is no HEAD~1: init suggests comparing that commit with the
// working tree, and the suggested command works there (here the edit doubles BM_Work's work).
TEST(RealProject, InitInARepositoryOfOneCommitSuggestsARunThatWorksThere) {
  TempRepo repo;
  write_gated_cmake_project(repo, 2000);
  repo.commit("the only commit");
  write_gated_cmake_project(repo, 4000);  // uncommitted: BM_Work does twice the work

  const BenchprRun init = run_benchpr(BENCHPR_BINARY, {"init"}, {}, repo.path());
  ASSERT_EQ(init.exit_code, 0) << init.err;
  const std::string marker = "`benchpr run ";
  const auto at = init.out.find(marker);
  ASSERT_NE(at, std::string::npos) << init.out;
  const std::string suggested = init.out.substr(at + 1, init.out.find('`', at + 1) - at - 1);
  EXPECT_EQ(suggested, "benchpr run --base HEAD --head WORKTREE --config .benchpr.yml");
  EXPECT_NE(init.out.find("there is no HEAD~1 to compare with"), std::string::npos) << init.out;

  std::vector<std::string> args = words(suggested);
  args.erase(args.begin());  // "benchpr"
  TempDir out;
  for (const std::string& extra :
       std::vector<std::string>{"--rounds", "6", "--output", out / "results.json"})
    args.push_back(extra);
  const BenchprRun run = run_benchpr(BENCHPR_BINARY, args, {}, repo.path());
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const json doc = json::parse(read_file(out / "results.json"));
  // Six rounds asked, eight run (whole cycles of the placement control), so that one left out on
  // a busy machine (a side starved of CPU) still leaves the four a verdict needs.
  const int compared = rounds_compared(benchmark_named(doc, "BM_Work"));
  EXPECT_GE(compared, 4) << run.err;
  EXPECT_LE(compared, 8) << run.err;
  EXPECT_EQ(benchmark_named(doc, "BM_Work")["verdict"], "regression") << run.err;
}

// The .benchpr.yml init writes is in no revision yet: a run without --config says at the start
// that it is not used and how to use it (here the base has none and zero-config gives up).
TEST(RealProject, AnUncommittedConfigurationIsNamedWithTheFlagThatUsesIt) {
  TempRepo repo;
  repo.write("README.md", "no build system\n");
  repo.commit("base");
  repo.write("README.md", "still none\n");
  repo.commit("head");
  repo.write(".benchpr.yml", "suites:\n  - name: x\n    run: ./x\n");
  const BenchprRun run =
      run_benchpr(BENCHPR_BINARY, {"run", "--base", "HEAD~1", "--head", "HEAD"}, {}, repo.path());
  EXPECT_EQ(run.exit_code, 2) << run.err;
  EXPECT_NE(run.err.find("benchpr: note: .benchpr.yml is not committed and not used: benchpr reads "
                         ".benchpr.yml from the base revision (HEAD~1); pass --config "
                         "'.benchpr.yml' to use this file"),
            std::string::npos)
      << run.err;
}

// A work tree on a branch with no commit yet (HEAD unborn, `git checkout --orphan`): nothing is
// committed there to match, so the .benchpr.yml on disk is named as not committed, and the run
// goes on from the base's revisions as it would on any branch.
TEST(RealProject, AnUncommittedConfigurationOnAnUnbornBranchIsNamedToo) {
  TempRepo repo;
  repo.write("README.md", "no build system\n");
  const std::string base = repo.commit("base");
  repo.write("README.md", "still none\n");
  const std::string head = repo.commit("head");
  repo.git("checkout -q --orphan fresh");
  repo.write(".benchpr.yml", "suites:\n  - name: x\n    run: ./x\n");
  const BenchprRun run =
      run_benchpr(BENCHPR_BINARY, {"run", "--base", base, "--head", head}, {}, repo.path());
  EXPECT_EQ(run.exit_code, 2) << run.err;
  EXPECT_NE(run.err.find("benchpr: note: .benchpr.yml is not committed and not used: benchpr reads "
                         ".benchpr.yml from the base revision (" +
                         base + "); pass --config '.benchpr.yml' to use this file"),
            std::string::npos)
      << run.err;
}

// With --config, neither revision's .benchpr.yml is used: an untracked one in the PR's snapshot
// (--head WORKTREE) is no edit of the configuration worth a note.
TEST(RealProject, WithConfigThePullRequestsConfigurationEditIsNoNote) {
  TempRepo repo;
  GbenchConfig two_rounds;
  two_rounds.rounds = 2;
  write_gbench_project(repo, {{"BM_Work", chain(500), ""}}, two_rounds);
  repo.remove(".benchpr.yml");
  repo.commit("base");
  write_gbench_project(repo, {{"BM_Work", chain(500), ""}}, two_rounds);
  TempDir out;
  const BenchprRun run = run_benchpr(
      BENCHPR_BINARY,
      {"run", "--head", "WORKTREE", "--config", ".benchpr.yml", "--output", out / "r.json"}, {},
      repo.path());
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const json doc = json::parse(read_file(out / "r.json"));
  EXPECT_EQ(doc["config_changed_by_head"], false);
  EXPECT_EQ(run.out.find("edits `.benchpr.yml`"), std::string::npos) << run.out;
}

}  // namespace
}  // namespace benchpr::testing
