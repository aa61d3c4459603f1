// Instruction counts under Callgrind, for real: a Google Benchmark project at two commits with
// known changes of work (+3%, +0.5%, none), one that only adds a sleep (time sees it,
// instructions cannot) and one Valgrind cannot run, measured by the real benchpr binary.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <sstream>
#include <string>

#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "support/benchpr_process.hpp"
#include "support/gbench_project.hpp"
#include "support/results_doc.hpp"
#include "support/temp_repo.hpp"

namespace benchpr::testing {
namespace {

using nlohmann::json;

// `benchpr run` of the repository's main against its feature branch, a dry run, the results
// file in `out`.
BenchprRun compare_main_with_feature(const TempRepo& repo, const TempDir& out) {
  return run_benchpr(BENCHPR_BINARY, {"run", "-C", repo.path(), "--base", "main", "--head",
                                      "feature", "--dry-run", "--output", out / "results.json"});
}

// Under Valgrind (its preload library is in LD_PRELOAD) this benchmark executes an AVX-512
// instruction Valgrind does not know; natively it never does, so only its count fails.
constexpr const char* kPrelude = R"(
#include <cstring>
static bool under_valgrind() {
  const char* p = std::getenv("LD_PRELOAD");
  return p != nullptr && std::strstr(p, "vgpreload") != nullptr;
}
)";

// A benchmark whose loop executes, under Valgrind only, an instruction Valgrind does not know.
GbenchCase no_valgrind_case() {
  return {"BM_NoValgrind",
          spin(1000) +
              " if (under_valgrind()) asm volatile(\".byte 0x62,0xf1,0x7c,0x48,0x10,0x04,"
              "0x24\" ::: \"memory\");",
          ""};
}

std::vector<GbenchCase> cases(int plus3, int plus_half, bool sleep) {
  return {
      {"BM_Plus3", spin(plus3), ""},
      {"BM_PlusHalf", spin(plus_half), ""},
      {"BM_Same", spin(100000), ""},
      {"BM_Sleep",
       spin(100000) +
           (sleep ? " std::this_thread::sleep_for(std::chrono::microseconds(500));" : ""),
       ""},
      no_valgrind_case(),
  };
}

TEST(Instructions, KnownChangesFromOneRunSleepOnlyInTimeUnsupportedFailsAlone) {
  TempRepo repo;
  GbenchConfig cfg;
  // 10 rounds: each round runs fresh copies of the executables, so what a file adds is spread
  // over the rounds instead of fixed per side, and rounds where one side got less than half the
  // other's CPU are dropped (the sleeping side always gets less on a busy machine): at 6 rounds,
  // beside another test, 3 rounds were left and the sleep's +960% came out at p 0.013, short of
  // significance after correcting for 5.
  cfg.rounds = 10;
  cfg.min_time = "0.005";
  cfg.metric = "real_time";  // so the sleep counts in time
  // 0.2%: the +0.5% change is a regression whatever the last instructions of the loop's entry
  // do to the ratio.
  cfg.extra = "instructions: true\ninstruction_threshold: 0.2%\n";
  write_gbench_project(repo, cases(100000, 100000, false), cfg, kPrelude);
  repo.commit_base_and_branch();
  write_gbench_project(repo, cases(103000, 100500, true), cfg, kPrelude);
  repo.commit("more work in two benchmarks, a sleep in one");

  TempDir out;
  const BenchprRun r = run_benchpr_as_given(
      BENCHPR_BINARY, {"run", "-C", repo.path(), "--base", "main", "--head", "feature", "--dry-run",
                       "--seed", "7", "--rounds", "10", "--output", out / "results.json"});
  const json doc = json::parse(read_file(out / "results.json"));
  ASSERT_TRUE(doc.contains("benchmarks")) << r.err;
  // One process per core for the suite's five benchmarks. Whether the one Valgrind cannot run
  // shares a process depends on the cores (a shared one is counted again one benchmark at a time:
  // runner_instruction_counts_test); either way only its own count fails (below).
  EXPECT_NE(r.err.find("counting instructions under Callgrind, base: 5 benchmarks in "),
            std::string::npos)
      << r.err;

  const std::string ins = "micro (instructions)";
  auto change = [&](const std::string& name) {
    const json* b = find_benchmark(doc, ins, name);
    EXPECT_NE(b, nullptr) << name << "\n" << r.err;
    return b ? (*b)["change"].get<double>() : NAN;
  };
  auto verdict = [&](const std::string& suite, const std::string& name) {
    const json* b = find_benchmark(doc, suite, name);
    return b ? (*b)["verdict"].get<std::string>() : std::string("missing");
  };
  // From one run per side: the exact ratio within ±0.2 percentage points.
  EXPECT_NEAR(change("BM_Plus3"), 0.03, 0.002);
  EXPECT_NEAR(change("BM_PlusHalf"), 0.005, 0.002);
  EXPECT_EQ(change("BM_Same"), 0.0);  // identical code: exactly the same count
  EXPECT_LT(std::fabs(change("BM_Sleep")), 0.002);
  EXPECT_EQ(verdict(ins, "BM_Plus3"), "regression");
  EXPECT_EQ(verdict(ins, "BM_PlusHalf"), "regression");
  EXPECT_EQ(verdict(ins, "BM_Same"), "unchanged");
  EXPECT_EQ(verdict(ins, "BM_Sleep"), "unchanged");
  // Time sees the sleep: 0.5 ms more per iteration, judged against what the loop itself took in
  // this run (well under 0.5 ms on a fast, idle machine; longer on a slow or busy one), so at
  // least half of 0.5 ms over the base's time per iteration.
  const json* slept = find_benchmark(doc, "micro", "BM_Sleep");
  ASSERT_NE(slept, nullptr);
  const double slept_expected = 500e3 / (*slept)["base"].get<double>();  // base in ns
  EXPECT_GT((*slept)["change"].get<double>(), 0.5 * slept_expected) << slept->dump();
  EXPECT_TRUE(verdict("micro", "BM_Sleep") == "regression" ||
              verdict("micro", "BM_Sleep") == "slower")
      << slept->dump() << "\n"
      << r.err;

  // Valgrind cannot run one benchmark: it fails with the reason, and only in instructions.
  const json* unsupported = find_benchmark(doc, ins, "BM_NoValgrind");
  ASSERT_NE(unsupported, nullptr);
  EXPECT_EQ((*unsupported)["verdict"], "failed");
  EXPECT_NE((*unsupported)["reason"].get<std::string>().find("Valgrind cannot run it"),
            std::string::npos)
      << unsupported->dump();
  // In time it is measured and compared like the others (in real time, a round that a busy
  // machine starved on one side may be left out, so the rounds used are not asserted).
  const json* timed = find_benchmark(doc, "micro", "BM_NoValgrind");
  ASSERT_NE(timed, nullptr);
  EXPECT_TRUE(is_comparison_verdict((*timed)["verdict"])) << timed->dump();

  // The comment: counts per iteration, "exact", what instructions do not see, the time spent,
  // and the disagreement for the sleep.
  EXPECT_NE(r.out.find("Instructions: counted per iteration"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("do not see time spent waiting"), std::string::npos);
  EXPECT_NE(r.out.find("(4 benchmarks counted in "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("| exact |"), std::string::npos) << r.out;
  // The name in the note is a code span.
  EXPECT_NE(r.out.find("`BM_Sleep`: time"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("while instructions per iteration are flat"), std::string::npos);
}

TEST(Instructions, InstructionsOnlySuiteRunsNoRounds) {
  TempRepo repo;
  GbenchConfig cfg;
  cfg.metric = "instructions";
  const std::vector<GbenchCase> base = {{"BM_A", spin(20000), ""}};
  write_gbench_project(repo, base, cfg);
  repo.commit_base_and_branch();
  write_gbench_project(repo, {{"BM_A", spin(10000), ""}}, cfg);
  repo.commit("half the work");

  TempDir out;
  const BenchprRun r = compare_main_with_feature(repo, out);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err.find("round 1 of"), std::string::npos) << r.err;
  const json doc = json::parse(read_file(out / "results.json"));
  const json* a = find_benchmark(doc, "micro (instructions)", "BM_A");
  ASSERT_NE(a, nullptr) << r.err;
  EXPECT_EQ((*a)["verdict"], "improvement");
  EXPECT_NEAR((*a)["change"].get<double>(), -0.5, 0.002);
  EXPECT_EQ(find_benchmark(doc, "micro", "BM_A"), nullptr);
  EXPECT_EQ(doc["recommendation"]["verdict"], "merge") << r.out;
}

// Work a repetition does once, in its first iteration: a lazily filled table, and the reseeding
// of a Mersenne Twister whose state is regenerated (624 words) at its first draw. Per iteration
// both loops do a handful of instructions; counted at one iteration per repetition, as before,
// the one-off work was all of the count (about 1,000 and 15,000 instructions "per iteration").
constexpr const char* kOneOffPrelude = R"(
#include <random>
#include <vector>
// Set before every repetition (Google Benchmark's Setup): the loop's first iteration then does
// the repetition's one-off work.
static bool g_table_fresh = true, g_rng_fresh = true;
static void fresh_table(const benchmark::State&) { g_table_fresh = true; }
static void fresh_rng(const benchmark::State&) { g_rng_fresh = true; }
)";

std::vector<GbenchCase> one_off_cases() {
  return {
      {"BM_LazyTable",
       "static std::vector<int> table; if (g_table_fresh) { g_table_fresh = false; "
       "table.assign(4096, 1); } benchmark::DoNotOptimize(table[17]);",
       "->Setup(fresh_table)"},
      {"BM_Reseed",
       "static std::mt19937 rng; if (g_rng_fresh) { g_rng_fresh = false; rng.seed(7); } "
       "benchmark::DoNotOptimize(rng());",
       "->Setup(fresh_rng)"},
      {"BM_Work", spin(1000), ""},
  };
}

TEST(Instructions, WhatARepetitionDoesOnceIsNotCountedAsAnIteration) {
  TempRepo repo;
  GbenchConfig cfg;
  cfg.metric = "instructions";
  write_gbench_project(repo, one_off_cases(), cfg, kOneOffPrelude);
  repo.commit_base_and_branch();
  // A function no benchmark calls: programs that differ (byte-identical ones are not counted).
  write_gbench_project(
      repo, one_off_cases(), cfg,
      std::string(kOneOffPrelude) + "int pr_helper(int x) { return x * 3 + 1; }\n");
  repo.commit("a helper");

  TempDir out;
  const BenchprRun r = compare_main_with_feature(repo, out);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json doc = json::parse(read_file(out / "results.json"));
  const auto count = [&](const std::string& name) {
    const json* b = find_benchmark(doc, "micro (instructions)", name);
    EXPECT_NE(b, nullptr) << name << "\n" << r.err;
    return b ? (*b)["base"].get<double>() : NAN;
  };
  // A load, a compare and a branch, and DoNotOptimize: about 10 per iteration.
  EXPECT_LT(count("BM_LazyTable"), 30) << r.err;
  // mt19937 draws cost about 20 instructions each, and regenerating its 624 words about 15 per
  // draw spread over them: under 60, far from the 15,000 of the one-off work.
  EXPECT_LT(count("BM_Reseed"), 60) << r.err;
  EXPECT_GT(count("BM_Reseed"), 10) << r.err;
  // spin(1000): about 4 instructions per step, whatever the iterations.
  EXPECT_GT(count("BM_Work"), 3000);
  EXPECT_LT(count("BM_Work"), 6000);
  // Identical code on both sides: the same counts, and the two counts of each side agree.
  for (const char* name : {"BM_LazyTable", "BM_Reseed", "BM_Work"}) {
    const json* b = find_benchmark(doc, "micro (instructions)", name);
    ASSERT_NE(b, nullptr);
    EXPECT_EQ((*b)["verdict"], "unchanged") << b->dump();
  }
  EXPECT_EQ(r.out.find("two counts differ"), std::string::npos) << r.out;
}

// A suite whose main does costly work before any benchmark (CRoaring loads its data sets there):
// under Callgrind it is paid once per process, and the suite's benchmarks share processes, so
// it is paid per core, not per benchmark. Each start of the program appends its command line
// to a file: the Callgrind runs are those that write their JSON below the counts' folder.
std::string start_up_prelude(const std::string& starts_file) {
  return command_line_reader() + fmt::format(R"(
static const bool g_started = [] {{
  std::ofstream("{}", std::ios::app) << benchmark_command_line() << "\n";
  volatile unsigned long long x = 0;  // the costly set-up: about 20 million instructions
  for (int i = 0; i < 5000000; ++i) x = x + i;
  return true;
}}();
)",
                                             starts_file);
}

TEST(Instructions, ACostlyStartUpIsPaidOncePerProcessNotOncePerBenchmark) {
  TempRepo repo;
  TempDir starts;
  const std::string starts_file = starts / "starts.txt";
  GbenchConfig cfg;
  cfg.metric = "instructions";
  const auto suite = [](int third) {
    return std::vector<GbenchCase>{{"BM_W1", spin(1000), ""},  {"BM_W2", spin(2000), ""},
                                   {"BM_W3", spin(third), ""}, {"BM_W4", spin(4000), ""},
                                   {"BM_W5", spin(5000), ""},  {"BM_W6", spin(6000), ""}};
  };
  write_gbench_project(repo, suite(3000), cfg, start_up_prelude(starts_file));
  repo.commit_base_and_branch();
  write_gbench_project(repo, suite(6000), cfg, start_up_prelude(starts_file));
  repo.commit("twice the work in BM_W3");

  TempDir out;
  const BenchprRun r = compare_main_with_feature(repo, out);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  // "6 benchmarks in N processes": N is the machine's cores at most.
  const std::string said = "counting instructions under Callgrind, base: 6 benchmarks in ";
  const std::size_t at = r.err.find(said);
  ASSERT_NE(at, std::string::npos) << r.err;
  const int processes = std::stoi(r.err.substr(at + said.size()));
  const json doc = json::parse(read_file(out / "results.json"));
  // At most one process per core; below six cores, fewer processes than benchmarks.
  const int cores = doc["machine"]["cores"].get<int>();
  EXPECT_LE(processes, std::max(1, cores)) << r.err;
  if (cores < 6) {
    EXPECT_LT(processes, 6) << r.err;
  }
  int counted_starts = 0;
  std::istringstream lines(read_file(starts_file));
  for (std::string line; std::getline(lines, line);)
    if (line.find("/instructions/") != std::string::npos) ++counted_starts;
  // Two runs (few and many iterations) per process and side, and two more for BM_W3 alone,
  // whose count moved, counted on the base again after the PR's; one per benchmark would be 24.
  EXPECT_NE(r.err.find("counting again on the base, after the PR: 1 benchmark(s)"),
            std::string::npos)
      << r.err;
  EXPECT_EQ(counted_starts, 2 * 2 * processes + 2) << read_file(starts_file) << r.err;
  EXPECT_EQ(r.err.find("counting them one at a time"), std::string::npos) << r.err;

  // The counts are each benchmark's own: spin(n) is about 4 instructions a step, whichever
  // benchmarks shared its process; BM_W3's doubled, the rest unchanged, each side's two counts
  // agreeing.
  for (int k = 1; k <= 6; ++k) {
    const std::string name = "BM_W" + std::to_string(k);
    const json* b = find_benchmark(doc, "micro (instructions)", name);
    ASSERT_NE(b, nullptr) << name << "\n" << r.err;
    const double base = (*b)["base"].get<double>();
    EXPECT_GT(base, 3.0 * 1000 * k) << name;
    EXPECT_LT(base, 6.0 * 1000 * k) << name;
    if (k == 3) {
      EXPECT_EQ((*b)["verdict"], "regression") << b->dump();
      EXPECT_NEAR((*b)["change"].get<double>(), 1.0, 0.01) << b->dump();
    } else {
      EXPECT_EQ((*b)["verdict"], "unchanged") << b->dump();
    }
  }
  EXPECT_EQ(r.out.find("two counts differ"), std::string::npos) << r.out;
}

// A benchmark whose work depends on when its process runs (cctz's ParseTime/1 parses the time
// of day): here each Callgrind process reads how many counted processes started before it, and
// loops 1000 more steps per pair of them. Each side's two processes agree with each other; the
// sides differ by +100%, though the code is the same. The base counted again after the PR's runs
// differs from its own first count, so the count decides nothing and says why.
TEST(Instructions, ACountThatDependsOnWhenItRunsIsNotThePrsChange) {
  TempRepo repo;
  TempDir starts;
  const std::string starts_file = starts / "starts.txt";
  GbenchConfig cfg;
  cfg.metric = "instructions";
  const std::string prelude = command_line_reader() + fmt::format(R"(
static int g_pairs = [] {{
  if (benchmark_command_line().find("/instructions/") == std::string::npos) return 0;
  int before = 0;
  {{
    std::ifstream in("{0}");
    for (std::string line; std::getline(in, line);) ++before;
  }}
  std::ofstream("{0}", std::ios::app) << "started\n";
  return before / 2;
}}();
)",
                                                                  starts_file);
  const std::vector<GbenchCase> suite = {
      {"BM_Drift", "for (int k = 0; k <= g_pairs; ++k) { " + spin(1000) + " }", ""}};
  write_gbench_project(repo, suite, cfg, prelude);
  repo.commit_base_and_branch();
  // Another program (a function BM_Drift never calls), so the two builds are not byte-identical.
  write_gbench_project(repo, suite, cfg, prelude + "int pr_helper(int x) { return x * 3 + 1; }\n");
  repo.commit("a helper");

  TempDir out;
  const BenchprRun r = compare_main_with_feature(repo, out);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("counting again on the base, after the PR: 1 benchmark(s)"),
            std::string::npos)
      << r.err;
  const json doc = json::parse(read_file(out / "results.json"));
  const json* b = find_benchmark(doc, "micro (instructions)", "BM_Drift");
  ASSERT_NE(b, nullptr) << r.err;
  EXPECT_NEAR((*b)["change"].get<double>(), 1.0, 0.05) << b->dump();
  EXPECT_EQ((*b)["verdict"], "inconclusive") << b->dump() << r.err;
  EXPECT_NE(r.out.find("the base's counts before and after the PR's differ by"), std::string::npos)
      << r.out;
  EXPECT_EQ(r.out.find("❌"), std::string::npos) << r.out;
}

// A suite whose main takes 0.8 s before any benchmark (a clock-timed wait, so Valgrind cannot
// stretch it): its Callgrind processes run the start-up uninstrumented, and the library benchpr
// preloads turns the instrumentation on when Google Benchmark opens its JSON file. The counts are
// each benchmark's whole loop, exactly: 4 instructions a step of spin(n), the doubled one doubled.
TEST(Instructions, ASlowStartUpRunsUninstrumentedAndEveryBenchmarkIsCountedWhole) {
  TempRepo repo;
  GbenchConfig cfg;
  cfg.metric = "instructions";
  const std::string prelude = R"(
#include <chrono>
static const bool g_loaded = [] {
  const auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(800);
  volatile unsigned long long x = 0;
  while (std::chrono::steady_clock::now() < until) x = x + 1;
  return true;
}();
)";
  const auto suite = [](int second) {
    return std::vector<GbenchCase>{
        {"BM_W1", spin(1000), ""}, {"BM_W2", spin(second), ""}, {"BM_W3", spin(3000), ""}};
  };
  write_gbench_project(repo, suite(2000), cfg, prelude);
  repo.commit_base_and_branch();
  write_gbench_project(repo, suite(4000), cfg, prelude);
  repo.commit("twice the work in BM_W2");

  TempDir out;
  const BenchprRun r = compare_main_with_feature(repo, out);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("micro: its start-up takes"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("natively; it runs uninstrumented under Callgrind"), std::string::npos)
      << r.err;
  const json doc = json::parse(read_file(out / "results.json"));
  for (int k = 1; k <= 3; ++k) {
    const std::string name = "BM_W" + std::to_string(k);
    const json* b = find_benchmark(doc, "micro (instructions)", name);
    ASSERT_NE(b, nullptr) << name << "\n" << r.err;
    const double base = (*b)["base"].get<double>();
    EXPECT_GT(base, 3.0 * 1000 * k) << name << " " << b->dump();
    EXPECT_LT(base, 6.0 * 1000 * k) << name << " " << b->dump();
    if (k == 2) {
      EXPECT_EQ((*b)["verdict"], "regression") << b->dump();
      EXPECT_NEAR((*b)["change"].get<double>(), 1.0, 0.01) << b->dump();
    } else {
      EXPECT_EQ((*b)["verdict"], "unchanged") << b->dump();
      EXPECT_NEAR((*b)["change"].get<double>(), 0.0, 0.001) << b->dump();
    }
  }
  EXPECT_EQ(r.out.find("two counts differ"), std::string::npos) << r.out;
}

// Counting on by default within a budget: a suite whose listing computes for 5 s of CPU time
// natively (its main before any benchmark; CPU time, so a busy machine stretches only its wall
// time) makes counting both sides and the base again about 1m25s by the
// start-up bound (5 s spent listing the base, then 25 + 5 + 25 s, and 25 s again), more than a
// quarter of a 5m budget (1m15s) and within half of it: counting may take 2m30s, the log says
// so, and both sides are counted, the moved count again on the base. The start-up is the
// listing's only, so the timed rounds and the Callgrind processes stay short.
// Waiting stretches the listings' wall time, which the bound adds once: beside two CPU hogs and
// a build a 5 s listing took 16 s, and both sides came to 1m42s. Half of 5m still holds both
// sides while waiting stretches the listing up to about 5.5 times (40 + 20k s for a stretch of
// k); half of 3m20s held only up to 3 times, and the share stayed a minute.
TEST(Instructions, ASlowStartUpMeasuredByTheBaseListingWidensCountingsShareToHalfTheBudget) {
  TempRepo repo;
  GbenchConfig cfg;
  cfg.min_time = "0.005";
  const std::string prelude = command_line_reader() + R"(
#include <ctime>
static const bool g_loaded = [] {
  if (benchmark_command_line().find("--benchmark_list_tests") == std::string::npos) return false;
  volatile unsigned long long x = 0;
  while (std::clock() < 5 * CLOCKS_PER_SEC) x = x + 1;
  return true;
}();
)";
  const auto suite = [](int work) {
    return std::vector<GbenchCase>{{"BM_Work", spin(work), ""}, {"BM_Same", spin(20000), ""}};
  };
  write_gbench_project(repo, suite(40000), cfg, prelude);
  repo.commit_base_and_branch();
  write_gbench_project(repo, suite(20000), cfg, prelude);
  repo.commit("half the work");

  TempDir out;
  const BenchprRun r = run_benchpr_as_given(
      BENCHPR_BINARY, {"run", "-C", repo.path(), "--base", "main", "--head", "feature", "--dry-run",
                       "--budget", "300s", "--output", out / "results.json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("counting instructions may take 2m30s of the 5m budget (half), not 1m15s: "
                       "counting both sides would take about"),
            std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("base micro: its start-up takes "), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("natively; it runs uninstrumented under Callgrind"), std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("counting again on the base, after the PR: 1 benchmark(s)"),
            std::string::npos)
      << r.err;
  const json doc = json::parse(read_file(out / "results.json"));
  EXPECT_EQ(doc.value("counting_share_seconds", 0.0), 150.0);
  const json* work = find_benchmark(doc, "micro (instructions)", "BM_Work");
  ASSERT_NE(work, nullptr) << r.err;
  EXPECT_EQ((*work)["verdict"], "improvement") << work->dump();
  EXPECT_NEAR((*work)["change"].get<double>(), -0.5, 0.01) << work->dump();
  const json* same = find_benchmark(doc, "micro (instructions)", "BM_Same");
  ASSERT_NE(same, nullptr) << r.err;
  EXPECT_EQ((*same)["verdict"], "unchanged") << same->dump();
  EXPECT_EQ(r.out.find("Instructions were not counted"), std::string::npos) << r.out;
  EXPECT_EQ(r.err.find("not counted:"), std::string::npos) << r.err;
}

// Nothing in .benchpr.yml or on the command line says to count: with Valgrind installed, `run`
// counts every Google Benchmark suite beside its time. A count that cannot be made (Valgrind
// does not know an instruction) was not asked for: a note names it, its benchmark is judged by
// its time, and nothing reads "failed".
TEST(Instructions, CountingIsOnByDefaultAndACountThatFailsIsANoteNotAFailure) {
  TempRepo repo;
  GbenchConfig cfg;
  cfg.min_time = "0.005";
  const auto suite = [](int work) {
    return std::vector<GbenchCase>{{"BM_Work", spin(work), ""}, no_valgrind_case()};
  };
  write_gbench_project(repo, suite(40000), cfg, kPrelude);
  repo.commit_base_and_branch();
  write_gbench_project(repo, suite(20000), cfg, kPrelude);
  repo.commit("half the work");

  TempDir out;
  const BenchprRun r = run_benchpr_as_given(
      BENCHPR_BINARY, {"run", "-C", repo.path(), "--base", "main", "--head", "feature", "--dry-run",
                       "--rounds", "6", "--output", out / "results.json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("counting instructions under Callgrind, base: 2 benchmarks"),
            std::string::npos)
      << r.err;
  const json doc = json::parse(read_file(out / "results.json"));
  EXPECT_EQ(doc["config"].value("instructions_by_default", false), true) << doc["config"].dump();
  const json* work = find_benchmark(doc, "micro (instructions)", "BM_Work");
  ASSERT_NE(work, nullptr) << r.err;
  EXPECT_EQ((*work)["verdict"], "improvement");
  EXPECT_NEAR((*work)["change"].get<double>(), -0.5, 0.01);
  // The count Valgrind could not make is no row and no failure; its time is compared.
  EXPECT_EQ(find_benchmark(doc, "micro (instructions)", "BM_NoValgrind"), nullptr);
  const json* timed = find_benchmark(doc, "micro", "BM_NoValgrind");
  ASSERT_NE(timed, nullptr);
  EXPECT_NE((*timed)["verdict"], "failed");
  for (const auto& [name, verdict] : verdicts(doc)) EXPECT_NE(verdict, "failed") << name;
  EXPECT_NE(doc["recommendation"]["verdict"], "failed") << doc["recommendation"].dump();
  EXPECT_NE(r.out.find("Instructions were not counted for 1 benchmark"), std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("Valgrind cannot run it"), std::string::npos) << r.out;
  // The footnote says counting was on by default and how to turn it off.
  EXPECT_NE(r.out.find("(on by default wherever Valgrind is installed; `instructions: false` in "
                       ".benchpr.yml turns them off)"),
            std::string::npos)
      << r.out;
}

// --no-instructions (and `instructions: false`) leave counting off, Valgrind or not.
TEST(Instructions, NoInstructionsCountsNothing) {
  TempRepo repo;
  GbenchConfig cfg;
  write_gbench_project(repo, {{"BM_A", spin(20000), ""}}, cfg);
  repo.commit_base_and_branch();
  write_gbench_project(repo, {{"BM_A", spin(10000), ""}}, cfg);
  repo.commit("half the work");
  const BenchprRun r = run_benchpr_as_given(
      BENCHPR_BINARY, {"run", "-C", repo.path(), "--base", "main", "--head", "feature", "--dry-run",
                       "--no-instructions", "--rounds", "4"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err.find("counting instructions"), std::string::npos) << r.err;
}

TEST(Instructions, MissingValgrindIsOneErrorNamingThePackage) {
  TempRepo repo;
  write_gbench_project(repo, {{"BM_A", spin(1000), ""}});
  repo.commit("base");
  TempDir empty;
  // --instructions asks for counts without a word in .benchpr.yml; a PATH without valgrind
  // (benchpr itself needs nothing from PATH before the check).
  const BenchprRun r = run_benchpr(
      BENCHPR_BINARY,
      {"run", "-C", repo.path(), "--base", "HEAD", "--head", "HEAD", "--dry-run", "--instructions"},
      {{"PATH", empty.path()}});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("instruction counts need Valgrind"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("package `valgrind`"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("building"), std::string::npos) << r.err;

  // Nobody asked: no error, a line saying counts are off and how to turn them on (the build
  // then fails for want of a compiler on this PATH, which is not what is checked here).
  const BenchprRun unsaid = run_benchpr_as_given(
      BENCHPR_BINARY, {"run", "-C", repo.path(), "--base", "HEAD", "--head", "HEAD", "--dry-run"},
      {{"PATH", empty.path()}});
  EXPECT_EQ(unsaid.err.find("instruction counts need Valgrind"), std::string::npos) << unsaid.err;
  EXPECT_NE(unsaid.err.find("instructions are not counted: Valgrind is not installed (install "
                            "the package `valgrind`"),
            std::string::npos)
      << unsaid.err;
}

}  // namespace
}  // namespace benchpr::testing
