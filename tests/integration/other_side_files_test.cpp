// Both sides run as one user, so the PR's code can reach the base's worktree (../base). A PR
// benchmark that rewrote the base's files between rounds once turned a 50% slowdown into "Looks
// good to merge, 3x faster". And with no `build:`, executables an earlier comparison left in a
// reused worktree were run as the revision's code. benchpr must run, for each side, what that
// side's revision and build made, or stop and say why.
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <map>

#include "benchpr/core/results_file/results_json.hpp"
#include "faults_helpers.hpp"

namespace benchpr::testing::faults {
namespace {

// A custom-format script printing one value near `ns`; the PR's also rewrites the base's copy of
// itself (in the base's worktree, ../base) to report a base three times slower.
std::string generator(int ns, bool rewrite_base) {
  std::string s =
      "r=$(od -An -N1 -tu1 /dev/urandom | tr -d ' ')\n"
      "printf '[{\"name\":\"work\",\"unit\":\"ns\",\"value\":%s}]\\n' \"$((" +
      std::to_string(ns) + " + r % 7))\"\n";
  if (rewrite_base)
    s += "cat > ../base/gen.sh <<'EOF'\n"
         "printf '[{\"name\":\"work\",\"unit\":\"ns\",\"value\":4500}]\\n'\n"
         "EOF\n";
  return s;
}

TEST(OtherSideFiles, APrRunThatRewritesTheBasesScriptEndsTheComparison) {
  TempRepo repo;
  commit_script_project(repo,
                        "  - name: script\n"
                        "    run: sh gen.sh\n"
                        "    format: custom\n",
                        4, generator(1000, false), generator(1500, true));
  TempDir out;
  const Ending e = run_benchpr_to_end(run_args(repo, out));
  ASSERT_TRUE(e.exited) << e.describe() << "\n" << e.err;
  // Before: exit 0, "improvement" and "Looks good to merge" for a PR 50% slower.
  // Rounds were measured and kept before the comparison was void: the job failed (1), not the
  // 2 of an input to fix before anything is measured.
  EXPECT_EQ(e.exit_code, 1) << e.err << e.out;
  EXPECT_NE(e.err.find("tracked file gen.sh changed"), std::string::npos)
      << contains_msg(e.err, "tracked file gen.sh changed");
  EXPECT_EQ(e.out.find("Looks good to merge"), std::string::npos) << e.out;
  // What was measured before stays in the results file, which says why it stopped.
  const json doc = read_json(out / "results.json");
  EXPECT_FALSE(doc["complete"].get<bool>());
  EXPECT_EQ(doc["stop"]["kind"], "void") << doc["stop_reason"];
  EXPECT_NE(doc["stop"]["detail"].get<std::string>().find("gen.sh"), std::string::npos)
      << doc["stop_reason"];
}

TEST(OtherSideFiles, APrThatOverwritesTheBasesExecutableEndsTheComparison) {
  TempRepo repo;
  // The PR's benchmark is three times slower, and at start-up copies its own executable over the
  // base's: from then on the base would run the PR's code, and the comparison see no change.
  const std::string overwrite =
      "#include <cstdlib>\n"
      "static const int kOverwrite = std::system(\"cp -f bench_bin ../base/bench_bin.new && "
      "mv -f ../base/bench_bin.new ../base/bench_bin\");\n";
  GbenchConfig config = small_config();
  config.rounds = 4;
  commit_base_and_pr(repo, {{"BM_Work", chain(2000), ""}}, {{"BM_Work", chain(6000), ""}}, config,
                     "", overwrite);
  TempDir out;
  const Ending e = run_benchpr_to_end(run_args(repo, out), 300);
  ASSERT_TRUE(e.exited) << e.describe() << "\n" << e.err;
  // Rounds were measured and kept before the comparison was void: the job failed (1), not the
  // 2 of an input to fix before anything is measured.
  EXPECT_EQ(e.exit_code, 1) << e.err << e.out;
  EXPECT_NE(e.err.find("base's benchmark executable ./bench_bin changed after its build"),
            std::string::npos)
      << contains_msg(e.err, "base's benchmark executable ./bench_bin changed after its build");
  EXPECT_EQ(e.out.find("Looks good to merge"), std::string::npos) << e.out;
}

// Counts only (no rounds to check the programs): the PR's benchmark, three times the work,
// copies its own executable over the base's while Callgrind counts it. Its count moved, so the
// base is counted again after the PR's runs; that count would have been the PR's program (the
// same +200%, read as "the base's counts differ", the regression hidden as inconclusive). The
// base's program is checked first, and the comparison ends void.
TEST(OtherSideFiles, ABaseProgramReplacedDuringThePrsCountsEndsTheComparisonBeforeTheRecount) {
  TempRepo repo;
  const std::string overwrite =
      command_line_reader() +
      "#include <cstdlib>\n"
      "static const int kOverwrite = [] {\n"
      "  if (benchmark_command_line().find(\"/instructions/\") == std::string::npos) return 0;\n"
      "  return std::system(\"cp -f bench_bin ../base/bench_bin.new && \"\n"
      "                     \"mv -f ../base/bench_bin.new ../base/bench_bin\");\n"
      "}();\n";
  GbenchConfig config = small_config();
  config.metric = "instructions";
  commit_base_and_pr(repo, {{"BM_Work", chain(2000), ""}}, {{"BM_Work", chain(6000), ""}}, config,
                     "", overwrite);
  TempDir out;
  const Ending e = run_benchpr_to_end(run_args(repo, out), 300);
  ASSERT_TRUE(e.exited) << e.describe() << "\n" << e.err;
  EXPECT_EQ(e.exit_code, 1) << e.err << e.out;
  EXPECT_NE(e.err.find("counting again on the base, after the PR"), std::string::npos) << e.err;
  EXPECT_NE(e.err.find("base's benchmark program ./bench_bin changed after its build"),
            std::string::npos)
      << contains_msg(e.err, "base's benchmark program ./bench_bin changed after its build");
  EXPECT_EQ(e.out.find("Looks good to merge"), std::string::npos) << e.out;
}

TEST(OtherSideFiles, WithoutABuildTheOutputsOfAnEarlierComparisonAreNotRun) {
  TempRepo repo;
  // A first comparison builds bench_bin in both worktrees: the PR's is three times slower.
  commit_base_and_pr(repo, {{"BM_Work", chain(2000), ""}}, {{"BM_Work", chain(6000), ""}});
  TempDir first_out;
  const Ending first = run_benchpr_to_end(run_args(repo, first_out), 300);
  ASSERT_TRUE(first.exited && first.exit_code == 0) << first.describe() << "\n" << first.err;
  // Then a README-only pair whose configuration builds nothing and runs ./bench_bin.
  repo.write(".benchpr.yml",
             "suites:\n  - name: micro\n    run: ./bench_bin --benchmark_min_time=0.01\n"
             "rounds: 4\nwarmup_rounds: 0\n");
  repo.remove("bench.cpp");
  repo.commit("benchmarks built elsewhere");
  repo.git("branch readme-base");
  repo.write("README.md", "words\n");
  repo.commit("a README");
  TempDir out;
  const Ending e =
      run_benchpr_to_end({"run", "-C", repo.path(), "--base", "readme-base", "--head", "feature",
                          "--dry-run", "--seed", "7", "--output", out / "results.json"},
                         300);
  ASSERT_TRUE(e.exited) << e.describe() << "\n" << e.err;
  EXPECT_NE(e.err.find("untracked file(s)"), std::string::npos)
      << contains_msg(e.err, "untracked file(s)");
  // Before: the leftovers ran as the two revisions, and a README change was a 3x regression.
  const json doc = read_json(out / "results.json");
  for (const auto& [name, verdict] : verdicts(doc)) {
    EXPECT_NE(verdict, "regression") << name;
    EXPECT_NE(verdict, "improvement") << name;
    EXPECT_NE(verdict, "slower") << name;
  }
}

// A throwaway PR plants its own slower executable in the base's build tree, dated a year ahead
// so that an incremental build (make, or this configuration's `-nt` test) never replaces it.
// Before: the next honest comparison in that work directory ran the planted file as the base
// and called a 3x regression "improvement". Now the build tree is discarded and built again.
TEST(OtherSideFiles, AFutureDatedExecutablePlantedInTheBasesBuildTreeIsNotUsedNextTime) {
  TempRepo repo;
  commit_base_and_pr(repo, {{"BM_Work", chain(2000), ""}}, {{"BM_Work", chain(6000), ""}});
  // An incremental build: the executable is rebuilt only when older than its source.
  std::string config = slurp(repo.path() + "/.benchpr.yml");
  const std::string plain_build = "build: g++";
  ASSERT_NE(config.find(plain_build), std::string::npos) << config;
  config.replace(config.find(plain_build), plain_build.size(),
                 "build: test bench_bin -nt bench.cpp || g++");
  TempDir cfg;
  write_file(cfg / "benchpr.yml", config);
  TempDir first_out;
  const Ending first =
      run_benchpr_to_end(run_args(repo, first_out, {"--config", cfg / "benchpr.yml"}), 300);
  ASSERT_TRUE(first.exited && first.exit_code == 0) << first.describe() << "\n" << first.err;

  const std::string wt = repo.path() + "/.git/benchpr/wt";
  const std::string planted = slurp(wt + "/head/bench_bin");
  ASSERT_NE(planted, slurp(wt + "/base/bench_bin"));
  std::filesystem::copy_file(wt + "/head/bench_bin", wt + "/base/bench_bin",
                             std::filesystem::copy_options::overwrite_existing);
  std::filesystem::last_write_time(
      wt + "/base/bench_bin",
      std::filesystem::file_time_type::clock::now() + std::chrono::hours(24 * 365));

  TempDir out;
  const Ending e = run_benchpr_to_end(run_args(repo, out, {"--config", cfg / "benchpr.yml"}), 300);
  ASSERT_TRUE(e.exited) << e.describe() << "\n" << e.err;
  EXPECT_EQ(e.exit_code, 0) << e.err;
  EXPECT_NE(e.err.find("discarded the build outputs in the base's worktree"), std::string::npos)
      << contains_msg(e.err, "discarded the build outputs in the base's worktree");
  EXPECT_NE(e.err.find("bench_bin is dated in the future"), std::string::npos) << e.err;
  // The base ran its own build, not the planted file.
  EXPECT_NE(slurp(wt + "/base/bench_bin"), planted);
  const json doc = read_json(out / "results.json");
  std::map<std::string, std::string> digests;
  for (const json& x : doc["executables"]) digests[x["side"]] = x["sha256"];
  ASSERT_EQ(digests.size(), 2u) << doc["executables"];
  EXPECT_NE(digests["base"], digests["head"]);
}

// After a comparison that ended void, the next one in the work directory trusts neither build
// tree: both are discarded before the builds.
TEST(OtherSideFiles, AfterAVoidComparisonTheBuildTreesAreDiscarded) {
  TempRepo repo;
  const std::string overwrite =
      "#include <cstdlib>\n"
      "static const int kOverwrite = std::system(\"cp -f bench_bin ../base/bench_bin.new && "
      "mv -f ../base/bench_bin.new ../base/bench_bin\");\n";
  commit_base_and_pr(repo, {{"BM_Work", chain(2000), ""}}, {{"BM_Work", chain(6000), ""}},
                     small_config(), "", overwrite);
  TempDir void_out;
  const Ending ended_void = run_benchpr_to_end(run_args(repo, void_out), 300);
  ASSERT_EQ(ended_void.exit_code, 1) << ended_void.err;  // measured, then void: the job failed
  TempDir out;
  const Ending e = run_benchpr_to_end(run_args(repo, out), 300);
  EXPECT_NE(e.err.find("the previous comparison in this work directory ended void"),
            std::string::npos)
      << e.err;
}

// The PR's code under Callgrind: waits until a job of the base's has finished (its `rc` file is
// there), then triples the count in every Callgrind file of the base's it finds below the work
// directory (../../out from its worktree), as a PR could (the folders are named on its own
// command line, or found by walking /proc). Natively it does nothing.
constexpr const char* kRewriteBaseCounts = R"(
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
static std::string tripled(const std::string& text, const std::string& key) {
  std::istringstream in(text);
  std::string out, line;
  while (std::getline(in, line)) {
    if (line.rfind(key, 0) == 0) line = key + std::to_string(3 * std::stoull(line.substr(key.size())));
    out += line + "\n";
  }
  return out;
}
static int rewrite_base_counts() {
  const char* preload = std::getenv("LD_PRELOAD");
  if (preload == nullptr || std::strstr(preload, "vgpreload") == nullptr) return 0;
  namespace fs = std::filesystem;
  const auto base_files = [](const char* wanted) {
    std::vector<fs::path> found;
    std::error_code ec;
    for (auto it = fs::recursive_directory_iterator("../../out", ec);
         it != fs::recursive_directory_iterator(); it.increment(ec)) {
      const std::string path = it->path().string(), file = it->path().filename().string();
      if (path.find("base") != std::string::npos && file.rfind(wanted, 0) == 0)
        found.push_back(it->path());
    }
    return found;
  };
  for (int i = 0; i < 1200 && base_files("rc").empty(); ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  for (const fs::path& f : base_files("cg.")) {
    std::ifstream in(f);
    std::stringstream text;
    text << in.rdbuf();
    in.close();
    std::ofstream(f, std::ios::trunc) << tripled(tripled(text.str(), "summary: "), "totals: ");
  }
  return 0;
}
static const int kRewritten = rewrite_base_counts();
)";

TEST(OtherSideFiles, APrThatRewritesTheBasesCallgrindFilesDoesNotChangeItsCounts) {
  TempRepo repo;
  GbenchConfig config = small_config();
  config.metric = "instructions";
  // The PR does twice the work. Before: the base's counts were read after the PR's jobs had run,
  // tripled, and a 2x regression read "Looks good to merge", 33% fewer instructions.
  commit_base_and_pr(repo, {{"BM_Work", chain(2000), ""}}, {{"BM_Work", chain(4000), ""}}, config,
                     "", kRewriteBaseCounts);
  TempDir out;
  const Ending e = run_benchpr_to_end(run_args(repo, out), 600);
  ASSERT_TRUE(e.exited) << e.describe() << "\n" << e.err;
  const json doc = read_json(out / "results.json");
  const json* work = find_benchmark(doc, "micro (instructions)", "BM_Work");
  ASSERT_NE(work, nullptr) << e.err;
  EXPECT_EQ((*work)["verdict"], "regression") << work->dump() << "\n" << e.err;
  EXPECT_NEAR((*work)["change"].get<double>(), 1.0, 0.02) << work->dump();
  EXPECT_EQ(e.out.find("Looks good to merge"), std::string::npos) << e.out;
  // The regression's profile: the base's counted files changed after they were read, so they are
  // not reused; the base is profiled afresh, and its profile agrees with its count.
  EXPECT_NE(e.err.find("not reusing the base side's counted run"), std::string::npos)
      << contains_msg(e.err, "not reusing the base side's counted run");
  const Results results = results_from_string(slurp(out / "results.json"));
  ASSERT_EQ(results.profiles.size(), 1u);
  const BenchmarkProfile& p = results.profiles[0];
  ASSERT_TRUE(p.base && p.head) << p.skipped;
  EXPECT_FALSE(p.from_counts);
  EXPECT_NEAR(p.base->total / (*work)["base"].get<double>(), 1.0, 0.02);
}

}  // namespace
}  // namespace benchpr::testing::faults
