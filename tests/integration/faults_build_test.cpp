// Faults before anything is measured: a revision that does not compile, a work directory or
// results file that cannot be written, and two runs on one repository at once.
#include <filesystem>

#include <gtest/gtest.h>

#include "faults_helpers.hpp"

namespace benchpr::testing::faults {
namespace {

const std::vector<GbenchCase> kWorking = {{"BM_A", spin(1000), ""}};
// A compile error whose message carries markup, so the log tail in the comment must be escaped.
const std::string kBroken =
    "#error \"broken on purpose </details> <img src=x onerror=alert(1)> @octocat #1\"\n";

TEST(FaultsBuild, PrThatDoesNotCompileIsReportedWithItsLogAndRecommendationFailed) {
  TempRepo repo;
  commit_base_and_pr(repo, kWorking, kWorking, small_config(), "", kBroken);
  TempDir out;

  const Ending e = run_benchpr_to_end(run_args(repo, out));
  ASSERT_TRUE(e.exited) << e.describe();
  // The comparison ran and reported the failure: exit 0 unless --fail-on says otherwise.
  EXPECT_EQ(e.exit_code, 0) << e.err;
  EXPECT_TRUE(survivors_under(repo.path()).empty()) << join(survivors_under(repo.path()));

  const json doc = read_json(out / "results.json");
  EXPECT_EQ(doc["recommendation"]["verdict"], "failed");
  ASSERT_EQ(doc["builds"].size(), 2u) << doc["builds"].dump(2);
  EXPECT_EQ(doc["builds"][0]["side"], "base");
  EXPECT_TRUE(doc["builds"][0]["ok"].get<bool>());
  EXPECT_EQ(doc["builds"][1]["side"], "head");
  EXPECT_FALSE(doc["builds"][1]["ok"].get<bool>());
  EXPECT_EQ(doc["builds"][1]["failure_kind"], "exit-code") << doc["builds"][1]["failure"];
  EXPECT_NE(doc["builds"][1]["log_tail"].get<std::string>().find("broken on purpose"),
            std::string::npos);
  EXPECT_EQ(doc["runs"].size(), 0u);  // nothing is run against a side that did not build

  const std::string& md = e.out;
  EXPECT_EQ(md, slurp(out / "comment.md"));
  EXPECT_NE(md.find("**Could not compare.** The pull request failed to build (exit code 1)"),
            std::string::npos)
      << md;
  EXPECT_NE(md.find("💥 **The PR build failed:** exit code 1"), std::string::npos) << md;
  EXPECT_EQ(md.find("The base build failed"), std::string::npos) << md;
  EXPECT_NE(md.find("<details><summary>Last lines of the PR build log</summary>"),
            std::string::npos)
      << md;
  EXPECT_NE(md.find("broken on purpose"), std::string::npos) << md;
  const auto problems = markdown_problems(md);
  EXPECT_TRUE(problems.empty()) << join(problems) << md;

  // With --fail-on failed the job fails, and says why on stderr.
  TempDir out2;
  const Ending strict = run_benchpr_to_end(run_args(repo, out2, {"--fail-on", "failed"}));
  ASSERT_TRUE(strict.exited) << strict.describe();
  EXPECT_EQ(strict.exit_code, 4) << strict.err;  // kExitSuiteFailed, documented in README
  EXPECT_NE(strict.err.find("recommendation: failed"), std::string::npos) << strict.err;
}

// Neither side builds (as a configure step that downloads without a network does): nothing was
// measured, so the job fails whatever --fail-on says, with one line naming the build and the fix;
// the comment and the results file still say what happened, and `publish` of that file agrees.
TEST(FaultsBuild, BothSidesThatDoNotBuildFailTheJob) {
  TempRepo repo;
  commit_base_and_pr(repo, kWorking, kWorking, small_config(), kBroken, kBroken);
  TempDir out;

  const Ending e = run_benchpr_to_end(run_args(repo, out));
  ASSERT_TRUE(e.exited) << e.describe();
  EXPECT_EQ(e.exit_code, 4) << e.err;  // kExitSuiteFailed, documented in README
  EXPECT_NE(e.err.find("benchpr: error: nothing was measured: both revisions failed to build "
                       "(base: exit code 1, PR: exit code 1) with `"),
            std::string::npos)
      << e.err;
  EXPECT_NE(e.out.find("**Could not compare.** The base revision failed to build (exit code 1); "
                       "The pull request failed to build (exit code 1)"),
            std::string::npos)
      << e.out;
  EXPECT_EQ(e.out, slurp(out / "comment.md"));
  const json doc = read_json(out / "results.json");
  EXPECT_EQ(doc["recommendation"]["verdict"], "failed");
  EXPECT_EQ(doc["stop"]["kind"], "build-failed") << doc["stop_reason"];

  const Ending p = run_benchpr_to_end({"publish", out / "results.json", "--dry-run"});
  ASSERT_TRUE(p.exited) << p.describe();
  EXPECT_EQ(p.exit_code, 4) << p.err;
  EXPECT_NE(p.err.find("nothing was measured: both revisions failed to build"), std::string::npos)
      << p.err;
}

// A changed build command is configured afresh: the build tree an earlier comparison made with
// another command is discarded (a CMake cache would otherwise keep the old settings, "Manually-
// specified variables were not used"), and a build tree reused is said to be.
TEST(FaultsBuild, AChangedBuildCommandDiscardsTheStaleBuildTree) {
  TempRepo repo;
  repo.write("build.sh", "mkdir -p out && touch out/made-by-$1\n");
  repo.write("suite.sh", "echo '[{\"name\":\"c\",\"unit\":\"ns\",\"value\":5}]'\n");
  repo.commit("base");
  TempDir configs;
  const auto run = [&](const std::string& arg) {
    const std::string config = configs / ("benchpr-" + arg + ".yml");
    write_file(config, "build: sh build.sh " + arg +
                           "\nsuites:\n  - name: s\n    run: sh suite.sh\n    format: custom\n");
    return run_benchpr_to_end({"run", "-C", repo.path(), "--base", "main", "--head", "main",
                               "--dry-run", "--rounds", "2", "--config", config},
                              120);
  };
  const std::string tree = repo.path() + "/.git/benchpr/wt/base/out/";

  const Ending first = run("A");
  ASSERT_TRUE(first.exited) << first.describe();
  EXPECT_EQ(first.exit_code, 0) << first.err;
  EXPECT_TRUE(std::filesystem::exists(tree + "made-by-A"));
  EXPECT_EQ(first.err.find("reusing the"), std::string::npos) << first.err;

  const Ending same = run("A");
  EXPECT_EQ(same.exit_code, 0) << same.err;
  EXPECT_NE(
      same.err.find("reusing the base's build tree from an earlier comparison (1 file(s) in "),
      std::string::npos)
      << same.err;
  EXPECT_TRUE(std::filesystem::exists(tree + "made-by-A"));

  const Ending changed = run("B");
  EXPECT_EQ(changed.exit_code, 0) << changed.err;
  EXPECT_NE(changed.err.find("discarded the build outputs in the base's worktree (1 file(s)): the "
                             "build command changed (was `sh build.sh A`, now `sh build.sh B`) "
                             "since it was built; it is configured and built afresh"),
            std::string::npos)
      << changed.err;
  EXPECT_EQ(changed.err.find("reusing the"), std::string::npos) << changed.err;
  EXPECT_FALSE(std::filesystem::exists(tree + "made-by-A"));
  EXPECT_TRUE(std::filesystem::exists(tree + "made-by-B"));
}

// A mistyped suite command: the terminal shows the cause from the log's last lines and the log's
// path, benchpr does not look for a crashing benchmark (nothing ran), and --fail-on failed fails.
TEST(FaultsBuild, MistypedSuiteCommandSaysWhyInTheTerminal) {
  TempRepo repo;
  repo.write(".benchpr.yml",
             "suites:\n"
             "  - name: core\n"
             "    run: build/core_bnech\n"
             "rounds: 2\nwarmup_rounds: 0\n");
  repo.commit_base_and_branch();
  repo.write("README", "a change\n");
  repo.commit("the change");
  TempDir out;

  const Ending e = run_benchpr_to_end(run_args(repo, out, {"--fail-on", "failed"}));
  ASSERT_TRUE(e.exited) << e.describe();
  EXPECT_EQ(e.exit_code, 4) << e.err;  // --fail-on failed and a suite failed
  EXPECT_NE(e.err.find("base core: exit code 127 (log: "), std::string::npos) << e.err;
  EXPECT_NE(e.err.find("benchpr: | sh: 1: build/core_bnech: not found"), std::string::npos)
      << e.err;
  EXPECT_EQ(e.err.find("finding which benchmark"), std::string::npos) << e.err;
  const json doc = read_json(out / "results.json");
  ASSERT_FALSE(doc["runs"].empty());
  // The shell found no such command: nothing ran, nothing crashed.
  EXPECT_EQ(doc["runs"][0]["failure_kind"], "not-started") << doc["runs"][0]["failure"];
  EXPECT_NE(doc["runs"][0]["log_tail"].get<std::string>().find("build/core_bnech: not found"),
            std::string::npos);
}

TEST(FaultsBuild, BaseThatDoesNotCompileIsSaidPlainly) {
  TempRepo repo;
  commit_base_and_pr(repo, kWorking, kWorking, small_config(), kBroken, "");
  TempDir out;

  const Ending e = run_benchpr_to_end(run_args(repo, out));
  ASSERT_TRUE(e.exited) << e.describe();
  EXPECT_EQ(e.exit_code, 0) << e.err;
  const json doc = read_json(out / "results.json");
  EXPECT_EQ(doc["recommendation"]["verdict"], "failed");
  EXPECT_NE(e.out.find("💥 **The base build failed:** exit code 1"), std::string::npos) << e.out;
  EXPECT_EQ(e.out.find("The PR build failed"), std::string::npos) << e.out;
  EXPECT_NE(e.out.find("**Could not compare.** The base revision failed to build (exit code 1)"),
            std::string::npos)
      << e.out;
  EXPECT_TRUE(markdown_problems(e.out).empty()) << join(markdown_problems(e.out));
  EXPECT_TRUE(survivors_under(repo.path()).empty()) << join(survivors_under(repo.path()));
}

// A path benchpr must write below a regular file: refused with the path and the cause before
// anything is built.
struct UnwritableCase {
  std::string option;
  std::string leaf;  // below the regular file
  int exit_code;     // README: 2 for a usage or configuration error, 1 for a file not written
  std::string hint;  // how to fix it, where the message must say
};

class UnwritablePath : public ::testing::TestWithParam<UnwritableCase> {};

TEST_P(UnwritablePath, IsAClearErrorNamingThePathBeforeBuilding) {
  TempRepo repo;
  write_gbench_project(repo, kWorking, small_config());
  repo.commit("base");
  TempDir tmp;
  write_file(tmp / "file", "a regular file, so nothing can be created below it\n");
  const std::string path = tmp / ("file/" + GetParam().leaf);

  const Ending e = run_benchpr_to_end(
      {"run", "-C", repo.path(), "--base", "main", "--head", "main", GetParam().option, path});
  ASSERT_TRUE(e.exited) << e.describe();
  EXPECT_EQ(e.exit_code, GetParam().exit_code) << e.err;
  EXPECT_NE(e.err.find("benchpr: error: "), std::string::npos) << e.err;
  EXPECT_NE(e.err.find(path), std::string::npos) << contains_msg(e.err, path);
  EXPECT_NE(e.err.find("Not a directory"), std::string::npos) << e.err;
  EXPECT_NE(e.err.find(GetParam().hint), std::string::npos) << e.err;
  // Found before anything was built, not after the builds and the first round.
  EXPECT_EQ(e.err.find("building the"), std::string::npos) << e.err;
  EXPECT_EQ(e.out, "");
  EXPECT_TRUE(survivors_under(repo.path()).empty()) << join(survivors_under(repo.path()));
}

INSTANTIATE_TEST_SUITE_P(FaultsBuild, UnwritablePath,
                         ::testing::Values(UnwritableCase{"--workdir", "sub", 2, "--workdir"},
                                           UnwritableCase{"--output", "results.json", 1, ""},
                                           UnwritableCase{"--markdown", "comment.md", 1, ""}),
                         [](const auto& info) { return info.param.option.substr(2); });

// The results file's directory disappears mid-run (a full disk, a cleaned-up mount): the final
// write fails. Before, benchpr exited 1 without printing the comment; now the comment is printed
// and written where it can be, and the error names the file.
TEST(FaultsBuild, AFailedFinalWriteStillPrintsTheCommentAndNamesTheFile) {
  GbenchConfig cfg = small_config();
  cfg.rounds = 6;
  // Round 1's two runs pass the gate; round 2 waits at it until the directory is gone, so the
  // swap below lands mid-run however fast or loaded the machine is.
  const Gate gate;
  const std::vector<GbenchCase> slow = {{"BM_Sleep", gate.body(2), ""}};
  TempRepo repo;
  commit_base_and_pr(repo, slow, slow, cfg, Gate::kPrelude, Gate::kPrelude);
  TempDir out;
  const std::string results = out / "sub/results.json";
  // A fixed plan of 6 rounds (the default would add adaptive rounds for what is still open).
  BenchprChild child({"run", "-C", repo.path(), "--base", "main", "--head", "feature", "--dry-run",
                      "--rounds", "6", "--output", results, "--markdown", out / "comment.md",
                      "--time-identical"});
  // Once a round is in the file, put a regular file where its directory was. The waits here
  // (6000 polls of 20 ms, 120 s) are hang guards that end as soon as benchpr is done.
  bool swapped = false;
  for (int i = 0; i < 6000 && !child.wait_for(0); ++i) {
    if (slurp(results).find("\"rounds_done\": 1") != std::string::npos) {
      std::filesystem::remove_all(out / "sub");
      write_file(out / "sub", "in the way\n");
      swapped = true;
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  gate.open();
  ASSERT_TRUE(swapped) << "no round finished while benchpr ran:\n" << child.err_so_far();
  ASSERT_TRUE(child.wait_for(120));
  const Ending& e = child.ending();
  ASSERT_TRUE(e.exited) << e.describe();
  EXPECT_EQ(e.exit_code, 1) << e.err;
  const std::string error = "benchpr: error: cannot create the directory for " + results;
  EXPECT_NE(e.err.find(error), std::string::npos) << contains_msg(e.err, error);
  // The whole comment, on stdout and in the file that could be written.
  EXPECT_NE(e.out.find("`BM_Sleep`"), std::string::npos) << e.out;
  EXPECT_NE(e.out.find("6 rounds"), std::string::npos) << e.out;
  EXPECT_EQ(e.out, slurp(out / "comment.md"));
}

TEST(FaultsBuild, SecondRunOnTheSameRepositoryFailsFastWhileTheFirstHoldsTheLock) {
  TempRepo repo;
  GbenchConfig cfg = small_config();
  cfg.rounds = 4;
  // The first run's benchmark waits at the gate until the second run was refused: so the first
  // is still measuring then, however fast or loaded the machine is.
  const Gate gate;
  const std::vector<GbenchCase> gated = {{"BM_Gated", gate.body(0), ""}};
  commit_base_and_pr(repo, gated, gated, cfg, Gate::kPrelude, Gate::kPrelude);
  TempDir out1, out2;

  BenchprChild first(run_args(repo, out1));
  // Hang guards only (60 s, 30 s, 120 s): each wait ends as soon as its benchpr is done. That the
  // second fails fast is judged against the first run, which must still be running when it ends.
  const double deadline = now_seconds() + 60;
  while (first.err_so_far().find("comparing base") == std::string::npos &&
         now_seconds() < deadline && !first.wait_for(0))
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  ASSERT_NE(first.err_so_far().find("comparing base"), std::string::npos)
      << "the first run never got the work directory:\n"
      << first.err_so_far();

  const Ending second = run_benchpr_to_end(run_args(repo, out2), 30);
  ASSERT_TRUE(second.exited) << second.describe();
  EXPECT_EQ(second.exit_code, 2) << second.err;
  EXPECT_NE(second.err.find("another benchpr run is using the work directory " + repo.path() +
                            "/.git/benchpr"),
            std::string::npos)
      << second.err;
  EXPECT_EQ(second.out, "");
  // Fails fast instead of waiting for the first to finish.
  ASSERT_FALSE(first.wait_for(0)) << "the first run ended before the second was refused";
  gate.open();

  // The first run is not disturbed: it finishes with a complete, valid result.
  ASSERT_TRUE(first.wait_for(120));
  const Ending& e1 = first.ending();
  ASSERT_TRUE(e1.exited) << e1.describe();
  EXPECT_EQ(e1.exit_code, 0) << e1.err;
  const json doc = read_json(out1 / "results.json");
  EXPECT_TRUE(doc["complete"].get<bool>());
  EXPECT_EQ(doc["rounds_done"], 4);
  for (const json& run : doc["runs"]) EXPECT_TRUE(run["ok"].get<bool>()) << run.dump();
  EXPECT_TRUE(survivors_under(repo.path()).empty()) << join(survivors_under(repo.path()));
}

}  // namespace
}  // namespace benchpr::testing::faults
