// Identical programs need no timing: a pull request that changes only a README builds the same
// code and data on both sides (the worktree's own path in the strings aside), so every benchmark
// is `unchanged` because the programs are byte-identical, decided after the builds without a
// single timed round. `--time-identical` times them anyway (an A/A comparison).
#include <gtest/gtest.h>

#include "faults_helpers.hpp"

namespace benchpr::testing::faults {
namespace {

// The build compiles the source by its absolute path with debug info, as CMake does, so each
// side's worktree path lands in the program (assert's message, __FILE__) and in its debug info.
void commit_readme_only_pr(TempRepo& repo) {
  GbenchConfig config = small_config();
  config.rounds = 2;
  config.warmup = 1;
  const std::string prelude =
      "#include <cassert>\n"
      "static const char* volatile kWhere = __FILE__;\n"
      "static int checked(int x) { assert(x >= 0 && kWhere != nullptr); return x; }\n";
  write_gbench_project(
      repo,
      {{"BM_Chain", chain(200), ""},
       {"BM_Checked", "benchmark::DoNotOptimize(checked(state.range(0)));", "->Arg(1)->Arg(64)"}},
      config, prelude);
  std::string yml = slurp(repo.path() + "/.benchpr.yml");
  const std::string plain = "g++ -O2 -std=c++17 bench.cpp";
  const auto at = yml.find(plain);
  ASSERT_NE(at, std::string::npos) << yml;
  yml.replace(at, plain.size(), "g++ -O2 -g -std=c++17 \"$(pwd -P)/bench.cpp\"");
  repo.write(".benchpr.yml", yml);
  repo.commit_base_and_branch();
  repo.write("README.md", "words\n");
  repo.commit("a README");
}

TEST(IdenticalPrograms, AReadmeOnlyPullRequestIsUnchangedWithoutATimedRound) {
  TempRepo repo;
  commit_readme_only_pr(repo);
  TempDir out;
  std::vector<std::string> args = run_args(repo, out);
  std::erase(args, std::string("--time-identical"));  // the default: identical is not timed
  const Ending e = run_benchpr_to_end(args, 300);
  ASSERT_TRUE(e.exited && e.exit_code == 0) << e.describe() << "\n" << e.err;
  const json doc = read_json(out / "results.json");
  ASSERT_EQ(doc["benchmarks"].size(), 3u) << doc["benchmarks"].dump(1);
  for (const json& b : doc["benchmarks"]) {
    EXPECT_EQ(b["verdict"], "unchanged") << b.dump();
    EXPECT_EQ(b["reason"], "the benchmark programs are byte-identical") << b.dump();
  }
  // The programs were built on both sides and hashed, and not one process timed them.
  EXPECT_EQ(doc["identical_suites"], json::array({"micro"}));
  EXPECT_EQ(doc["rounds_done"], 0);
  EXPECT_TRUE(doc["runs"].empty()) << doc["runs"].dump(1);
  EXPECT_TRUE(doc["complete"].get<bool>());
  EXPECT_EQ(doc["builds"].size(), 2u);
  for (const json& s : doc["series"]) {
    EXPECT_TRUE(s["base"].empty()) << s.dump();
    EXPECT_TRUE(s["head"].empty()) << s.dump();
  }
  EXPECT_EQ(doc["recommendation"]["verdict"], "merge") << doc["recommendation"].dump();
  EXPECT_EQ(doc["stop"]["kind"], "identical-programs") << doc["recommendation"]["reason"];
  // Said as it happened, and no round was announced.
  EXPECT_NE(e.err.find("the benchmark programs are byte-identical on both sides"),
            std::string::npos)
      << e.err;
  EXPECT_EQ(e.err.find("warm-up round"), std::string::npos) << e.err;
  EXPECT_NE(slurp(out / "comment.md").find("byte-identical"), std::string::npos)
      << slurp(out / "comment.md");
  // The executables' files differ all the same: the path is in their strings and debug info.
  std::map<std::string, std::string> digests;
  for (const json& x : doc["executables"]) digests[x["side"]] = x["sha256"];
  EXPECT_NE(digests["base"], digests["head"]);
}

TEST(IdenticalPrograms, TimeIdenticalTimesThemAnyway) {
  TempRepo repo;
  commit_readme_only_pr(repo);
  TempDir out;
  const std::vector<std::string> args = run_args(repo, out);  // with --time-identical
  ASSERT_NE(std::find(args.begin(), args.end(), "--time-identical"), args.end());
  const Ending e = run_benchpr_to_end(args, 300);
  ASSERT_TRUE(e.exited && e.exit_code == 0) << e.describe() << "\n" << e.err;
  const json doc = read_json(out / "results.json");
  EXPECT_FALSE(doc.contains("identical_suites"));
  EXPECT_EQ(doc["rounds_done"], 3);  // the warm-up and two rounds
  EXPECT_EQ(doc["runs"].size(), 6u);
}

// The loaded image says what runs, not what the running program reads. Here the benchmark reads
// how many steps to take from a tracked data file, which the pull request changes (a hundred
// times more): its program is identical on both sides, and it is timed all the same.
TEST(IdenticalPrograms, AChangedDataFileThatABenchmarkReadsIsTimed) {
  TempRepo repo;
  GbenchConfig config = small_config();
  config.rounds = 2;
  const std::string prelude =
      "#include <fstream>\n"
      "static int steps() { std::ifstream in(\"data/steps.txt\"); int n = 0; in >> n; "
      "return n; }\n";
  const std::string body =
      "static const int n = steps(); unsigned long long x = 88172645463325252ull; "
      "for (int i = 0; i < n; ++i) { x ^= x << 13; x ^= x >> 7; x ^= x << 17; } "
      "benchmark::DoNotOptimize(x);";
  write_gbench_project(repo, {{"BM_FromData", body, ""}}, config, prelude);
  repo.write("data/steps.txt", "100\n");
  repo.commit_base_and_branch();
  repo.write("data/steps.txt", "10000\n");
  repo.write("README.md", "more steps\n");
  repo.commit("more steps");
  TempDir out;
  std::vector<std::string> args = run_args(repo, out);
  std::erase(args, std::string("--time-identical"));  // the default: identical is not timed
  const Ending e = run_benchpr_to_end(args, 300);
  ASSERT_TRUE(e.exited) << e.describe() << "\n" << e.err;
  // Said, naming the file, and timed as usual.
  EXPECT_NE(e.err.find("suite micro: its programs are byte-identical on both sides, but the pull "
                       "request changes data/steps.txt, a file a benchmark may read when it runs: "
                       "timed as usual"),
            std::string::npos)
      << e.err;
  const json doc = read_json(out / "results.json");
  EXPECT_FALSE(doc.contains("identical_suites")) << doc.dump(1);
  EXPECT_GT(doc["rounds_done"].get<int>(), 0);
  EXPECT_FALSE(doc["runs"].empty());
  ASSERT_EQ(doc["benchmarks"].size(), 1u) << doc["benchmarks"].dump(1);
  // What the file changed is what was measured: the PR's side takes a hundred times the steps.
  ASSERT_EQ(doc["series"].size(), 1u);
  const json& s = doc["series"][0];
  ASSERT_FALSE(s["base"].empty());
  ASSERT_FALSE(s["head"].empty());
  double base = 0, head = 0;
  for (const json& v : s["base"]) base += v.get<double>() / s["base"].size();
  for (const json& v : s["head"]) head += v.get<double>() / s["head"].size();
  EXPECT_GT(head, 2 * base) << s.dump();
}

// A comment at the end of the source changes no program the build makes: the shortcut stands.
TEST(IdenticalPrograms, AChangedCommentInTheSourceLeavesTheProgramsIdentical) {
  TempRepo repo;
  GbenchConfig config = small_config();
  write_gbench_project(repo, {{"BM_Chain", chain(200), ""}}, config);
  repo.commit_base_and_branch();
  repo.write("bench.cpp", slurp(repo.path() + "/bench.cpp") + "// Why the chain is 200 steps.\n");
  repo.commit("a comment");
  TempDir out;
  std::vector<std::string> args = run_args(repo, out);
  std::erase(args, std::string("--time-identical"));
  const Ending e = run_benchpr_to_end(args, 300);
  ASSERT_TRUE(e.exited && e.exit_code == 0) << e.describe() << "\n" << e.err;
  const json doc = read_json(out / "results.json");
  EXPECT_EQ(doc["identical_suites"], json::array({"micro"})) << e.err;
  EXPECT_EQ(doc["rounds_done"], 0);
  for (const json& b : doc["benchmarks"])
    EXPECT_EQ(b["reason"], "the benchmark programs are byte-identical") << b.dump();
}

// The benchmark program is identical, but the build also makes a helper program (which a
// benchmark could start) from a source the pull request changes: the suite is timed.
TEST(IdenticalPrograms, AnotherProgramRebuiltFromAChangedSourceIsTimed) {
  TempRepo repo;
  GbenchConfig config = small_config();
  write_gbench_project(repo, {{"BM_Chain", chain(200), ""}}, config);
  std::string yml = slurp(repo.path() + "/.benchpr.yml");
  const std::string build = "-lbenchmark -lpthread\n";
  const auto at = yml.find(build);
  ASSERT_NE(at, std::string::npos) << yml;
  yml.replace(at, build.size(), "-lbenchmark -lpthread && g++ -O2 helper.cpp -o helper\n");
  repo.write(".benchpr.yml", yml);
  repo.write("helper.cpp", "int main() { return 0; }\n");
  repo.commit_base_and_branch();
  repo.write("helper.cpp", "int main() { return 3; }\n");
  repo.commit("the helper exits with 3");
  TempDir out;
  std::vector<std::string> args = run_args(repo, out);
  std::erase(args, std::string("--time-identical"));
  const Ending e = run_benchpr_to_end(args, 300);
  ASSERT_TRUE(e.exited && e.exit_code == 0) << e.describe() << "\n" << e.err;
  EXPECT_NE(e.err.find("the pull request changes source files, and helper, a program the builds "
                       "left that a benchmark may start or load, differs"),
            std::string::npos)
      << e.err;
  const json doc = read_json(out / "results.json");
  EXPECT_FALSE(doc.contains("identical_suites")) << doc.dump(1);
  EXPECT_GT(doc["rounds_done"].get<int>(), 0);
}

}  // namespace
}  // namespace benchpr::testing::faults
