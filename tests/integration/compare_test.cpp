// `benchpr compare`: result files written by a real Google Benchmark binary (two builds of a
// tiny project, the PR's doing twice the work in one benchmark), compared by the real benchpr
// binary: each file one process, several files per side. The comment says what
// the files cannot tell (no order, no interleaving), and `publish` of the results file it wrote
// gives the same comment. The two sides run at the same time, so a load that comes or goes
// while they run cannot pass for a change.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "support/benchpr_process.hpp"
#include "support/gbench_project.hpp"
#include "support/results_doc.hpp"
#include "support/temp_dir.hpp"

namespace benchpr::testing {
namespace {

using nlohmann::json;

bool contains(const std::string& haystack, const std::string& needle) {
  return haystack.find(needle) != std::string::npos;
}

// Register work only (chain()): the doubled benchmark is a regression under load too.
std::vector<GbenchCase> cases(int grows_steps) {
  return {{"BM_Fixed", chain(2000), ""}, {"BM_Grows", chain(grows_steps), ""}};
}

// Builds bench.cpp of `cases` in `dir` and returns the executable's path.
std::string build_bench(const TempDir& dir, const std::string& name,
                        const std::vector<GbenchCase>& c) {
  write_file(dir / (name + ".cpp"), gbench_source(c));
  run_checked("g++ -O2 -std=c++17 " + name + ".cpp -o " + name + " -lbenchmark -lpthread",
              dir.path());
  return dir / name;
}

// The command of one run of `exe` writing Google Benchmark JSON to `out`.
std::string bench_command(const std::string& exe, const std::string& out, int repetitions) {
  return shell_quote(exe) +
         " --benchmark_min_time=0.02 --benchmark_repetitions=" + std::to_string(repetitions) +
         " --benchmark_out=" + shell_quote(out) + " --benchmark_out_format=json > /dev/null";
}

void run_bench(const std::string& exe, const std::string& out, int repetitions) {
  run_checked(bench_command(exe, out, repetitions));
}

// A run of each executable, both at the same time: whatever else the machine does while they
// run (a build beside them, a core taken away) it does to both sides, so the pairs the files make
// compare the two builds and not two moments of the machine. One after the other, a load that
// came or went between them was measured as a change.
void run_both(const std::string& base_exe, const std::string& base_out, const std::string& head_exe,
              const std::string& head_out, int repetitions) {
  run_checked(bench_command(base_exe, base_out, repetitions) + " & base=$!; " +
              bench_command(head_exe, head_out, repetitions) + " & head=$!; " +
              "wait $base && wait $head");
}

class Compare : public ::testing::Test {
 protected:
  void SetUp() override {
    base_exe = build_bench(dir, "base_bench", cases(2000));
    head_exe = build_bench(dir, "head_bench", cases(4000));
  }
  TempDir dir;
  std::string base_exe, head_exe;
};

// Each file is one process: its repetitions are its value, not rounds. Four files a side are
// four rounds.
TEST_F(Compare, FilesWithRepetitionsAreOneRoundEach) {
  std::vector<std::string> args = {"compare", "--base"};
  for (int i = 1; i <= 4; ++i) {
    run_both(base_exe, dir / fmt::format("base{}.json", i), head_exe,
             dir / fmt::format("head{}.json", i), 3);
    args.push_back(dir / fmt::format("base{}.json", i));
  }
  args.push_back("--head");
  for (int i = 1; i <= 4; ++i) args.push_back(dir / fmt::format("head{}.json", i));
  for (const std::string& a :
       {std::string("--output"), dir / "results.json", std::string("--html"), dir / "report.html",
        std::string("--format"), std::string("markdown")})
    args.push_back(a);
  const BenchprRun r = run_benchpr(BENCHPR_BINARY, args);
  ASSERT_EQ(r.exit_code, 0) << r.err << r.out;
  const json doc = json::parse(read_file(dir / "results.json"));
  EXPECT_EQ(doc.at("plan").size(), 4u);
  EXPECT_EQ(benchmark_named(doc, "BM_Grows").at("verdict"), "regression") << r.out;
  expect_compared_in_every_round(doc, "BM_Grows", 4);
  expect_compared_in_every_round(doc, "BM_Fixed", 4);
  EXPECT_TRUE(contains(r.out, "4 rounds paired from result files, run order unknown")) << r.out;
  EXPECT_EQ(doc.at("origin"), "result-files");
  EXPECT_EQ(doc.at("recommendation").at("verdict"), recommendation_for(doc));
  // What the files cannot say, in the comment and the reports.
  EXPECT_TRUE(contains(r.out, "Compared result files, not revisions")) << r.out;
  EXPECT_TRUE(contains(r.out, "do not say in which order, how interleaved or on which machine"))
      << r.out;
  EXPECT_FALSE(contains(r.out, "interleaved AB/BA")) << r.out;
  EXPECT_FALSE(contains(r.out, "AB: the base ran first")) << r.out;
  EXPECT_TRUE(contains(r.out, "which ran first is not known")) << r.out;
  // One order for want of any: a sign that is the same in every round is the change, not an
  // order effect (no "order" flag, no warning about position effects).
  EXPECT_FALSE(contains(r.out, "sign follows run order")) << r.out;
  for (const json& b : doc.at("benchmarks"))
    EXPECT_EQ(std::count(b.at("flags").begin(), b.at("flags").end(), "order"), 0) << b.dump();
  const std::string html = read_file(dir / "report.html");
  EXPECT_TRUE(contains(html, "paired from result files, run order unknown"));
  EXPECT_FALSE(contains(html, "ran second"));
  // The terminal's text report names the files where a run names commits.
  const BenchprRun text = run_benchpr(
      BENCHPR_BINARY, {"compare", dir / "base1.json", dir / "head1.json", "--format", "text"});
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_TRUE(contains(text.out, "base " + dir / "base1.json" + " vs PR " + dir / "head1.json"))
      << text.out;
  // One file a side is one process a side: no verdict, and the comment says why.
  const BenchprRun one =
      run_benchpr(BENCHPR_BINARY, {"compare", dir / "base1.json", dir / "head1.json", "--format",
                                   "markdown", "--output", dir / "one.json"});
  ASSERT_EQ(one.exit_code, 0) << one.err;
  EXPECT_TRUE(contains(one.out, "a results file is one process")) << one.out;
  const json one_doc = json::parse(read_file(dir / "one.json"));
  EXPECT_EQ(benchmark_named(one_doc, "BM_Grows").at("verdict"), "inconclusive") << one.out;
  // The results file reads back to the same comment.
  const BenchprRun again = run_benchpr(
      BENCHPR_BINARY, {"publish", dir / "results.json", "--dry-run", "--format", "markdown"});
  ASSERT_EQ(again.exit_code, 0) << again.err;
  EXPECT_EQ(again.out, r.out);
}

TEST_F(Compare, SeveralFilesPerSideArePairedInOrder) {
  std::vector<std::string> args = {"compare", "--base"};
  for (int i = 1; i <= 5; ++i) {
    run_both(base_exe, dir / ("a" + std::to_string(i) + ".json"), head_exe,
             dir / ("b" + std::to_string(i) + ".json"), 1);
    args.push_back(dir / ("a" + std::to_string(i) + ".json"));
  }
  args.push_back("--head");
  for (int i = 1; i <= 5; ++i) args.push_back(dir / ("b" + std::to_string(i) + ".json"));
  for (const std::string& a : {std::string("--output"), dir / "results.json",
                               std::string("--fail-on"), std::string("regression")})
    args.push_back(a);
  const BenchprRun r = run_benchpr(BENCHPR_BINARY, args);
  // --fail-on regression: the doubled benchmark makes it a don't-merge.
  EXPECT_EQ(r.exit_code, 3) << r.err << r.out;
  const json doc = json::parse(read_file(dir / "results.json"));
  EXPECT_EQ(doc.at("plan").size(), 5u);
  EXPECT_EQ(benchmark_named(doc, "BM_Grows").at("verdict"), "regression");
  EXPECT_EQ(benchmark_named(doc, "BM_Grows").at("rounds_used"), 5);
  EXPECT_TRUE(contains(doc.at("base").at("spec").get<std::string>(), "a1.json"));
  EXPECT_TRUE(contains(doc.at("head").at("spec").get<std::string>(), "b5.json"));
}

TEST_F(Compare, FilesOfDifferentToolsOrNoneAreRefusedNamingTheFile) {
  run_bench(base_exe, dir / "base.json", 1);
  const std::string hyperfine =
      std::string(BENCHPR_SOURCE_DIR) + "/tests/data/hyperfine/command_names.json";
  const BenchprRun mixed = run_benchpr(BENCHPR_BINARY, {"compare", dir / "base.json", hyperfine});
  EXPECT_EQ(mixed.exit_code, 2);
  EXPECT_TRUE(contains(mixed.err, "command_names.json is hyperfine JSON but")) << mixed.err;
  write_file(dir / "notes.txt", "not json\n");
  const BenchprRun garbage =
      run_benchpr(BENCHPR_BINARY, {"compare", dir / "base.json", dir / "notes.txt"});
  EXPECT_EQ(garbage.exit_code, 2);
  EXPECT_TRUE(contains(garbage.err, "notes.txt: ")) << garbage.err;
  const BenchprRun one = run_benchpr(BENCHPR_BINARY, {"compare", dir / "base.json"});
  EXPECT_EQ(one.exit_code, 2);
  EXPECT_TRUE(contains(one.err, "compare takes two files")) << one.err;
}

// Two built executables, no git: `run --base-exe A --head-exe B` measures in interleaved rounds
// (both orders in the plan), from fresh copies, with the same analysis.
TEST_F(Compare, RunComparesTwoExecutablesInInterleavedRounds) {
  const BenchprRun r = run_benchpr(
      BENCHPR_BINARY, {"run", "--base-exe", base_exe, "--head-exe", head_exe, "--rounds", "6",
                       "--bench-args", "--benchmark_min_time=0.02", "--workdir", dir / "work",
                       "--output", dir / "results.json", "--format", "markdown"});
  ASSERT_EQ(r.exit_code, 0) << r.err << r.out;
  const json doc = json::parse(read_file(dir / "results.json"));
  EXPECT_EQ(doc.at("origin"), "executables");
  EXPECT_EQ(doc.at("base").at("spec"), base_exe);
  EXPECT_EQ(doc.at("base").at("sha"), "");
  int base_first = 0, head_first = 0;
  for (const json& round : doc.at("plan")) {
    if (round.at("warmup")) continue;
    (round.at("first") == "base" ? base_first : head_first)++;
  }
  EXPECT_EQ(base_first, 3);
  EXPECT_EQ(head_first, 3);
  EXPECT_EQ(benchmark_named(doc, "BM_Grows").at("verdict"), "regression") << r.out;
  // Machine-decided (its binary differs): compared in all 6 analysed rounds (plus the warm-up).
  const json& fixed = benchmark_named(doc, "BM_Fixed");
  EXPECT_TRUE(is_comparison_verdict(fixed.at("verdict"))) << fixed.dump();
  EXPECT_EQ(fixed.at("rounds_used"), 6) << fixed.dump();
  EXPECT_TRUE(contains(r.out, "Compared two executables, not revisions")) << r.out;
  EXPECT_TRUE(contains(r.out, "interleaved AB/BA")) << r.out;
  // One process per side and round (warm-up included), each of which ran.
  int runs = 0;
  for (const json& run : doc.at("runs")) {
    ++runs;
    EXPECT_TRUE(run.at("failure").get<std::string>().empty()) << run.dump();
  }
  EXPECT_EQ(runs, 2 * 7);
}

// A PR that registers a second benchmark under BM_Fixed's name: its entries and BM_Fixed's are
// the same name per repetition. Read as BM_Fixed's repetitions, the faster one's time stood for
// both ("2.0x faster"); `compare` refuses the file naming it, `run` fails that benchmark on the
// PR side with the reason, and compares the rest.
TEST_F(Compare, ANameTwoBenchmarksShareIsNeverReadAsOne) {
  std::vector<GbenchCase> twice = cases(2000);
  twice.push_back({"BM_Alias", chain(500), "->Name(\"BM_Fixed\")"});
  const std::string dup_exe = build_bench(dir, "dup_bench", twice);
  run_bench(base_exe, dir / "base.json", 2);
  run_bench(dup_exe, dir / "head.json", 2);
  const BenchprRun c =
      run_benchpr(BENCHPR_BINARY, {"compare", dir / "base.json", dir / "head.json"});
  EXPECT_EQ(c.exit_code, 2) << c.out;
  EXPECT_TRUE(contains(c.err, dir / "head.json" + ": BM_Fixed: the name is reported twice"))
      << c.err;

  const BenchprRun r = run_benchpr(
      BENCHPR_BINARY, {"run", "--base-exe", base_exe, "--head-exe", dup_exe, "--rounds", "4",
                       "--bench-args", "--benchmark_min_time=0.01", "--workdir", dir / "work",
                       "--output", dir / "results.json", "--format", "markdown"});
  const json doc = json::parse(read_file(dir / "results.json"));
  const json& fixed = benchmark_named(doc, "BM_Fixed");
  EXPECT_EQ(fixed.at("verdict"), "failed") << fixed.dump();
  EXPECT_TRUE(contains(r.out, "reported twice in one results file")) << r.out;
  EXPECT_NE(benchmark_named(doc, "BM_Grows").at("verdict"), "failed");
}

TEST_F(Compare, RunWithExecutablesRefusesRevisionOptions) {
  const BenchprRun r = run_benchpr(
      BENCHPR_BINARY, {"run", "--base-exe", base_exe, "--head-exe", head_exe, "--base", "main"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_TRUE(contains(r.err, "--base does not apply with --base-exe/--head-exe")) << r.err;
  const BenchprRun missing =
      run_benchpr(BENCHPR_BINARY, {"run", "--base-exe", base_exe, "--head-exe", dir / "nothing"});
  EXPECT_EQ(missing.exit_code, 2);
  EXPECT_TRUE(contains(missing.err, "--head-exe " + dir / "nothing" + ": no such file"))
      << missing.err;
}

}  // namespace
}  // namespace benchpr::testing
