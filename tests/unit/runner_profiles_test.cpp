// Which benchmarks are profiled and how the budget bounds them, against a fake process runner
// (the real Callgrind runs are in tests/integration/why_test.cpp).
#include <filesystem>
#include <fstream>
#include <string>
#include <tuple>
#include <vector>

#include <fmt/format.h>

#include <gtest/gtest.h>

#include "benchpr/core/evidence/instruction_analysis.hpp"
#include "benchpr/runner/profiles.hpp"

namespace benchpr::runner {
namespace {

Results two_suites() {
  Results r;
  SuiteConfig gb;
  gb.name = "core";
  gb.run = "./bench";
  SuiteConfig other;
  other.name = "cli";
  other.format = FormatKind::Hyperfine;
  other.run = "hyperfine x";
  r.config.suites = {gb, other};
  return r;
}

BenchmarkAnalysis bench(const std::string& suite, const std::string& name, Verdict v) {
  BenchmarkAnalysis b;
  b.suite = suite;
  b.name = name;
  b.verdict = v;
  return b;
}

TEST(ProfileRequests, ChangedGoogleBenchmarksOnceAndThoseWhyNames) {
  const Results r = two_suites();
  Analysis a;
  a.benchmarks = {
      bench("core", "BM_Slow", Verdict::Regression),
      bench(instruction_suite_name("core"), "BM_Slow", Verdict::Regression),  // the same one
      bench(instruction_suite_name("core"), "BM_Fewer", Verdict::Improvement),
      bench("core", "BM_Flat", Verdict::Unchanged),
      bench("core", "BM_Asked", Verdict::Inconclusive),
      bench("cli", "startup", Verdict::Regression),  // not Google Benchmark: no timer to bound by
  };
  const std::vector<ProfileRequest> req = profile_requests(r, a, "Ask");
  ASSERT_EQ(req.size(), 3u);
  EXPECT_EQ(req[0].name, "BM_Slow");
  EXPECT_EQ(req[0].suite, "core");
  EXPECT_EQ(req[0].requested_by, "regression");
  EXPECT_EQ(req[1].name, "BM_Fewer");
  EXPECT_EQ(req[1].suite, "core");  // the time suite, whichever series labelled it
  EXPECT_EQ(req[1].requested_by, "improvement");
  EXPECT_EQ(req[2].name, "BM_Asked");
  EXPECT_EQ(req[2].requested_by, "--why");
  EXPECT_TRUE(profile_requests(r, a, "").size() == 2u);
}

// Valgrind answers; every benchmark's Callgrind run fails (it leaves no files).
class FakeValgrind : public exec::ProcessRunner {
 public:
  exec::ProcessResult run(const exec::ProcessSpec& spec) override {
    commands.push_back(spec.command);
    exec::ProcessResult r;
    r.exit_code = spec.command.find("--version") != std::string::npos ? 0 : 1;
    return r;
  }
  std::vector<std::string> commands;
};

std::vector<ProfileRequest> three() {
  return {{"core", "BM_A", "regression"},
          {"core", "BM_B", "regression"},
          {"core", "BM_C", "improvement"}};
}

TEST(ProfileBenchmarks, StopsWhenTheNextWouldNotFitTheBudget) {
  Results r = two_suites();
  FakeValgrind fake;
  ProfileSetup setup;
  setup.work_dir = ::testing::TempDir() + "/profiles";
  setup.seconds_left = 15;
  double clock = 0;
  setup.now = [&clock] { return clock += 5; };  // each benchmark takes 5 s by this clock
  std::vector<std::string> lines;
  ASSERT_TRUE(profile_benchmarks(fake, r, three(), setup,
                                 [&](const std::string& l) { lines.push_back(l); }));
  ASSERT_EQ(r.profiles.size(), 3u);
  // BM_A and BM_B ran (5 s each: 10 s spent, 5 s left, and the dearest took 5 s: 15 >= 15).
  EXPECT_EQ(r.profiles[0].seconds, 5);
  EXPECT_NE(r.profiles[0].skipped.find("base side: exit code 1 under Callgrind"), std::string::npos)
      << r.profiles[0].skipped;
  EXPECT_EQ(r.profiles[2].skipped, "the time budget was spent: 5s left, a profile takes about 5s");
  EXPECT_FALSE(r.profiles[2].base);
  // One probe, then one run per benchmark (the base side failed, so the PR's was not run).
  EXPECT_EQ(fake.commands.size(), 3u);
  EXPECT_NE(fake.commands[1].find("--tool=callgrind"), std::string::npos);
  EXPECT_NE(fake.commands[1].find("--benchmark_filter='^(BM_A)$'"), std::string::npos)
      << fake.commands[1];
}

TEST(ProfileBenchmarks, NoBudgetLeftProfilesNothing) {
  Results r = two_suites();
  FakeValgrind fake;
  ProfileSetup setup;
  setup.work_dir = ::testing::TempDir() + "/profiles";
  setup.seconds_left = 0;
  ASSERT_TRUE(profile_benchmarks(fake, r, three(), setup, [](const std::string&) {}));
  ASSERT_EQ(r.profiles.size(), 3u);
  for (const BenchmarkProfile& p : r.profiles) EXPECT_EQ(p.skipped, "the time budget was spent");
  EXPECT_EQ(fake.commands.size(), 1u);  // the probe only
}

// Valgrind answers; every Callgrind run goes on until its timeout kills it (a profile whose cost
// is not known beforehand), taking that long.
class EndlessCallgrind : public exec::ProcessRunner {
 public:
  exec::ProcessResult run(const exec::ProcessSpec& spec) override {
    exec::ProcessResult r;
    if (spec.command.find("--version") != std::string::npos) {
      r.exit_code = 0;
      return r;
    }
    timeouts.push_back(spec.timeout_seconds);
    r.exit_code = -1;
    r.timed_out = true;
    r.wall_seconds = spec.timeout_seconds;
    return r;
  }
  std::vector<double> timeouts;
};

// The first profile has no earlier one to estimate its cost from: it runs, but is killed when
// the budget runs out (not 2 × the suite's timeout + 30 s later), and the others are skipped,
// each with the reason, the progress naming them.
TEST(ProfileBenchmarks, AProfileIsKilledAtTheDeadlineAndTheRestAreNamed) {
  Results r = two_suites();
  r.config.timeout_seconds = 600;  // the suite's own bound: 2 × 10m + 30s under Callgrind
  EndlessCallgrind fake;
  ProfileSetup setup;
  setup.work_dir = ::testing::TempDir() + "/deadline";
  setup.seconds_left = 40;
  double clock = 0;
  setup.now = [&clock, &fake] {
    double t = 0;
    for (double x : fake.timeouts) t += x;
    return clock = t;
  };
  std::vector<std::string> lines;
  ASSERT_TRUE(profile_benchmarks(fake, r, three(), setup,
                                 [&](const std::string& l) { lines.push_back(l); }));
  ASSERT_EQ(fake.timeouts.size(), 1u);  // one Callgrind run, bounded by the 40 s left
  EXPECT_DOUBLE_EQ(fake.timeouts[0], 40);
  ASSERT_EQ(r.profiles.size(), 3u);
  EXPECT_EQ(r.profiles[0].skipped,
            "the time budget was spent: the base side's Callgrind run was stopped after 40s, "
            "when the time budget ran out");
  EXPECT_EQ(r.profiles[1].skipped, "the time budget was spent");
  EXPECT_EQ(r.profiles[2].skipped, "the time budget was spent");
  EXPECT_LE(clock, setup.seconds_left);  // no phase ran past the budget
  bool named = false;
  for (const std::string& l : lines)
    named |= l.find("3 benchmark(s) not profiled: BM_A, BM_B, BM_C") != std::string::npos;
  EXPECT_TRUE(named) << ::testing::PrintToString(lines);
}

// Without a budget, a profile keeps the suite's own bound.
TEST(ProfileBenchmarks, WithoutABudgetTheSuiteTimeoutBoundsAProfile) {
  Results r = two_suites();
  r.config.timeout_seconds = 600;
  EndlessCallgrind fake;
  ProfileSetup setup;
  setup.work_dir = ::testing::TempDir() + "/unbounded";
  ASSERT_TRUE(profile_benchmarks(fake, r, {three()[0]}, setup, [](const std::string&) {}));
  ASSERT_EQ(fake.timeouts.size(), 1u);
  EXPECT_DOUBLE_EQ(fake.timeouts[0], 2 * 600 + 30);
  EXPECT_NE(r.profiles[0].skipped.find("base side: timed out"), std::string::npos)
      << r.profiles[0].skipped;
}

// A dump as Callgrind writes it at the benchmark's PauseTiming/FinishKeepRunning: f's own count.
std::string dump(const char* trigger, int count) {
  return fmt::format(
      "version: 1\npositions: line\nevents: Ir\ndesc: Trigger: --dump-before=benchmark::State::{}()"
      "\nsummary: {}\n\nfn=(1) f()\n0 {}\n",
      trigger, count, count);
}

// The folder the instruction counts leave for one benchmark and side: exit code 0, and two
// processes of three repetitions each (the first, a warm-up, counts 1000): the first at 1
// iteration per repetition, f() counting 50 (its one-off cost), the second at 11, counting
// 50 + 10 x per_iteration. The files' digests are recorded as the counts record them.
SealedRun counted_folder(const std::string& dir, int per_iteration) {
  std::filesystem::create_directories(dir + "/1");
  std::filesystem::create_directories(dir + "/2");
  const auto write = [&dir](const std::string& name, const std::string& text) {
    std::ofstream(dir + "/" + name) << text;
  };
  write("rc", "0 1.0 2.0\n");
  for (const auto& [process, iterations, count] :
       {std::tuple<std::string, int, int>{"1", 1, 50 + per_iteration},
        std::tuple<std::string, int, int>{"2", 11, 50 + 11 * per_iteration}}) {
    write(
        process + "/out.json",
        fmt::format(
            R"({{"benchmarks": [{{"name": "BM_A", "run_type": "iteration", "iterations": {}}}]}})",
            iterations));
    write(process + "/cg.7.1", dump("FinishKeepRunning", 1000));
    write(process + "/cg.7.2", dump("PauseTiming", 5));  // FinishKeepRunning's prologue
    write(process + "/cg.7.3", dump("FinishKeepRunning", count));
    write(process + "/cg.7.4", dump("PauseTiming", 5));
    write(process + "/cg.7.5", dump("FinishKeepRunning", count));
  }
  SealedRun sealed;
  sealed.dir = dir;
  const CountedRunFiles files = read_counted_run(dir, "BM_A", false, nullptr, &sealed.digests);
  EXPECT_FALSE(files.failure) << *files.failure;
  return sealed;
}

TEST(ProfileBenchmarks, ReadsTheInstructionCountsRunsWithoutRunningAgain) {
  Results r = two_suites();
  FakeValgrind fake;
  ProfileSetup setup;
  setup.work_dir = ::testing::TempDir() + "/reuse/profiles";
  const std::string counts = ::testing::TempDir() + "/reuse/instructions";
  std::filesystem::remove_all(counts);
  SealedRuns sealed;
  sealed[{"core", Side::Base, "BM_A"}] = counted_folder(counts + "/base-abcdef/core-00003", 200);
  sealed[{"core", Side::Head, "BM_A"}] = counted_folder(counts + "/head-abcdef/core-00003", 300);
  setup.counted = &sealed;
  setup.seconds_left = 0;  // no budget left: a profile that costs nothing is still made
  ASSERT_TRUE(profile_benchmarks(fake, r, {{"core", "BM_A", "regression"}}, setup,
                                 [](const std::string&) {}));
  ASSERT_EQ(r.profiles.size(), 1u);
  const BenchmarkProfile& p = r.profiles[0];
  EXPECT_TRUE(p.from_counts);
  EXPECT_EQ(p.seconds, 0);
  ASSERT_TRUE(p.base && p.head) << p.skipped;
  // Per iteration, the one-off 50 taken out: ((50 + 11 x 200) - (50 + 200)) / (11 - 1) = 200.
  EXPECT_DOUBLE_EQ(p.base->total, 200);
  EXPECT_DOUBLE_EQ(p.head->functions.at(0).self, 300);
  EXPECT_EQ(fake.commands.size(), 1u);  // the probe only: no Callgrind run
}

TEST(ProfileBenchmarks, ACountedRunRewrittenSinceItWasReadIsNotReused) {
  Results r = two_suites();
  FakeValgrind fake;
  ProfileSetup setup;
  setup.work_dir = ::testing::TempDir() + "/sealed/profiles";
  const std::string counts = ::testing::TempDir() + "/sealed/instructions";
  std::filesystem::remove_all(counts);
  SealedRuns sealed;
  sealed[{"core", Side::Base, "BM_A"}] = counted_folder(counts + "/base-abcdef/core-00003", 200);
  sealed[{"core", Side::Head, "BM_A"}] = counted_folder(counts + "/head-abcdef/core-00003", 300);
  // The PR's code rewrites a dump of the base's, after the count read it.
  std::ofstream(counts + "/base-abcdef/core-00003/2/cg.7.5") << dump("FinishKeepRunning", 99999);
  setup.counted = &sealed;
  std::vector<std::string> lines;
  ASSERT_TRUE(profile_benchmarks(fake, r, {{"core", "BM_A", "regression"}}, setup,
                                 [&](const std::string& l) { lines.push_back(l); }));
  ASSERT_EQ(r.profiles.size(), 1u);
  EXPECT_FALSE(r.profiles[0].from_counts);
  // Profiled afresh instead (the fake Callgrind fails): the rewritten file is never read.
  EXPECT_EQ(fake.commands.size(), 2u);
  bool said = false;
  for (const std::string& l : lines)
    said = said || l.find("2/cg.7.5 changed after the count was read") != std::string::npos;
  EXPECT_TRUE(said);
}

}  // namespace
}  // namespace benchpr::runner
