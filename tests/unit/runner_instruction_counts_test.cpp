// The counting phase's plan and its deadline, with a fake process runner: which processes run
// (a suite's benchmarks sharing one per core), and what counting nobody asked for does when its
// share of the budget runs out (each uncounted benchmark says so; no group is counted again).
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "benchpr/core/evidence/instruction_analysis.hpp"
#include "benchpr/runner/instruction_counts.hpp"
#include "benchpr/runner/instrument_on_open.hpp"
#include "support/temp_dir.hpp"

namespace benchpr::runner {
namespace {

// Time as a test sets it.
class SetClock : public Clock {
 public:
  double now_seconds() const override { return now; }
  double now = 1000;
};

// Lists three benchmarks; every Callgrind batch is stopped by its timeout before any job ends,
// `batch_seconds` later by `clock` (when set).
class StoppedBatches : public exec::ProcessRunner {
 public:
  SetClock* clock = nullptr;
  double batch_seconds = 0;
  exec::ProcessResult run(const exec::ProcessSpec& spec) override {
    exec::ProcessResult r;
    if (spec.command.find("--benchmark_list_tests=true") != std::string::npos) {
      r.exit_code = 0;
      r.output_tail = "BM_A\nBM_B\nBM_C\n";
      return r;
    }
    batches.push_back(spec);
    if (clock) clock->now += batch_seconds;
    r.timed_out = true;
    return r;
  }
  std::vector<exec::ProcessSpec> batches;
};

struct Phase {
  testing::TempDir dir;
  Results results;
  InstructionSetup setup;
  Phase(InstructionCounting counting, double deadline) {
    SuiteConfig suite;
    suite.name = "core";
    suite.run = "./bench";
    results.config.suites = {suite};
    results.config.instructions = counting;
    setup.base_dir = dir / "base";
    setup.head_dir = dir / "head";
    setup.work_dir = dir / "instructions";
    setup.log_dir = dir.path();
    setup.parallel = 2;
    setup.deadline_seconds = deadline;
  }
};

TEST(CountInstructions, ASharedDeadlineStopsTheBatchesAndEveryUncountedBenchmarkSaysWhy) {
  Phase p(InstructionCounting::ByDefault, 120);
  StoppedBatches fake;
  std::vector<std::string> lines;
  ASSERT_TRUE(count_instructions(fake, p.results, p.setup,
                                 [&](const std::string& l) { lines.push_back(l); }));
  // One batch per side, no retry of a group: the base may take half the deadline, the PR what
  // is left (all of it, as the fake took no time).
  ASSERT_EQ(fake.batches.size(), 2u);
  EXPECT_NEAR(fake.batches[0].timeout_seconds, 60, 1);
  EXPECT_NEAR(fake.batches[1].timeout_seconds, 120, 1);
  ASSERT_EQ(p.results.series.size(), 3u);
  for (const BenchmarkSeries& s : p.results.series) {
    EXPECT_EQ(s.suite, instruction_suite_name("core"));
    EXPECT_EQ(s.base_failure.rfind(
                  "not counted: instruction counting's share of the time budget (2m) ran out (", 0),
              0u)
        << s.base_failure;
    EXPECT_NE(s.base_failure.find("`instructions: false`"), std::string::npos) << s.base_failure;
    EXPECT_EQ(s.head_failure, s.base_failure) << s.name;
    EXPECT_EQ(s.base_failure_kind, FailureKind::Timeout);
  }
  bool said = false;
  for (const std::string& l : lines) said = said || l.find("3 benchmarks in ") != std::string::npos;
  EXPECT_TRUE(said);
}

// A suite whose start-up (its listing, natively) takes `start_up` seconds (20 s: at least
// 10 minutes per Callgrind job instrumented (two processes), 1m40s uninstrumented (two at once),
// beyond a 2-minute share; nothing is started and each benchmark says why). Keeps each batch's job
// list.
class SlowStartUp : public exec::ProcessRunner {
 public:
  double start_up = 20;
  exec::ProcessResult run(const exec::ProcessSpec& spec) override {
    exec::ProcessResult r;
    if (spec.command.find("--benchmark_list_tests=true") != std::string::npos) {
      r.exit_code = 0;
      r.wall_seconds = start_up;
      r.output_tail = "BM_A\nBM_B\n";
      return r;
    }
    ++batches;
    commands.push_back(spec.command);
    timeouts.push_back(spec.timeout_seconds);
    r.timed_out = true;
    return r;
  }
  int batches = 0;
  std::vector<std::string> commands;
  std::vector<double> timeouts;
};

TEST(CountInstructions, ASlowStartUpIsNotCountedAndNothingIsStarted) {
  Phase p(InstructionCounting::ByDefault, 120);
  SlowStartUp fake;
  std::vector<std::string> lines;
  ASSERT_TRUE(count_instructions(fake, p.results, p.setup,
                                 [&](const std::string& l) { lines.push_back(l); }));
  EXPECT_EQ(fake.batches, 0);
  ASSERT_EQ(p.results.series.size(), 2u);
  for (const BenchmarkSeries& s : p.results.series) {
    EXPECT_NE(s.base_failure.find("the suite's start-up takes 20s before its first benchmark"),
              std::string::npos)
        << s.base_failure;
    // Uninstrumented where the late-instrumentation library is built in (5x, not 15x).
    const bool late = !instrument_on_open_library().empty();
    EXPECT_NE(s.base_failure.find(late ? "at least 1m40s per Callgrind job even uninstrumented"
                                       : "at least 10m per Callgrind job"),
              std::string::npos)
        << s.base_failure;
    EXPECT_EQ(s.head_failure, s.base_failure);
  }
  // With the time (no deadline: counting asked for), it is counted.
  Phase asked(InstructionCounting::On, 0);
  SlowStartUp counted;
  ASSERT_TRUE(count_instructions(counted, asked.results, asked.setup, [](const std::string&) {}));
  EXPECT_GT(counted.batches, 0);
}

// A start-up of 5 s (CRoaring's main loads data before any benchmark): instrumented from the
// start it would cost 2 x 15 x 5 s, more than the side's minute; uninstrumented, 50 s. Its
// processes run with --instr-atstart=no and the library preloaded, which turns the
// instrumentation on when Google Benchmark opens the JSON file the script names.
TEST(CountInstructions, ASlowStartUpRunsUninstrumentedUntilTheFirstBenchmark) {
  if (instrument_on_open_library().empty()) GTEST_SKIP() << "built without valgrind/callgrind.h";
  Phase p(InstructionCounting::ByDefault, 120);
  SlowStartUp fake;
  fake.start_up = 5;
  std::vector<std::string> lines;
  ASSERT_TRUE(count_instructions(fake, p.results, p.setup,
                                 [&](const std::string& l) { lines.push_back(l); }));
  ASSERT_EQ(fake.batches, 2);
  bool said = false;
  for (const std::string& l : lines)
    said = said || l.find("core: its start-up takes 5s natively; it runs uninstrumented") !=
                       std::string::npos;
  EXPECT_TRUE(said);
  // Each side's folder holds the library, its owner's only; each script preloads it.
  int scripts = 0;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(p.setup.work_dir)) {
    if (entry.path().filename() == "instrument-on-open.so") {
      const auto perms = std::filesystem::status(entry.path()).permissions();
      EXPECT_EQ(perms & std::filesystem::perms::all,
                std::filesystem::perms::owner_read | std::filesystem::perms::owner_exec);
      EXPECT_EQ(std::filesystem::file_size(entry.path()), instrument_on_open_library().size());
    }
    if (entry.path().filename() != "job.sh") continue;
    ++scripts;
    std::ifstream in(entry.path());
    const std::string script((std::istreambuf_iterator<char>(in)), {});
    const std::string dir = entry.path().parent_path().string();
    EXPECT_NE(script.find("--instr-atstart=no"), std::string::npos) << script;
    EXPECT_NE(script.find("/instrument-on-open.so'\"${LD_PRELOAD:+:$LD_PRELOAD}\""),
              std::string::npos)
        << script;
    EXPECT_NE(script.find("BENCHPR_INSTRUMENT_ON_OPEN='" + dir + "/1/out.json'"), std::string::npos)
        << script;
    EXPECT_NE(script.find("--benchmark_out='" + dir + "/1/out.json'"), std::string::npos) << script;
    // Its two processes at once, each paying the start-up on a core of its own.
    EXPECT_NE(script.find("wait $second"), std::string::npos) << script;
  }
  // Two benchmarks, two cores: one process pair per side, not two.
  EXPECT_EQ(scripts, 2);
  // Started, not refused before starting (the fake's batches then run out of time).
  for (const BenchmarkSeries& s : p.results.series)
    EXPECT_EQ(s.base_failure.find("the suite's start-up takes"), std::string::npos)
        << s.base_failure;
}

// CRoaring's 17 s start-up, uninstrumented, in a 15-minute budget: counting both sides is about
// 3m24s by the bound and 4m49s with the base again, more than a quarter (3m45s) and within half:
// the base's listing settles a share of 7m30s before anything runs under Callgrind, the base's
// batch may take half of it, and a benchmark the deadline stops names that share.
TEST(CountInstructions, TheStartUpTheBaseListingMeasuresWidensTheShareBeforeAnythingRuns) {
  if (instrument_on_open_library().empty()) GTEST_SKIP() << "built without valgrind/callgrind.h";
  Phase p(InstructionCounting::ByDefault, 225);
  p.setup.budget_seconds = 900;
  SetClock clock;
  p.setup.clock = &clock;
  SlowStartUp fake;
  fake.start_up = 17;
  std::vector<std::string> lines;
  ASSERT_TRUE(count_instructions(fake, p.results, p.setup,
                                 [&](const std::string& l) { lines.push_back(l); }));
  ASSERT_EQ(fake.timeouts.size(), 2u);
  EXPECT_DOUBLE_EQ(fake.timeouts[0], 225);  // half of 7m30s (the fake's clock did not move)
  EXPECT_DOUBLE_EQ(fake.timeouts[1], 450);
  bool said = false;
  for (const std::string& l : lines)
    said = said || l.rfind(
                       "counting instructions may take 7m30s of the 15m budget (half), not "
                       "3m45s",
                       0) == 0;
  EXPECT_TRUE(said);
  EXPECT_DOUBLE_EQ(p.results.counting_share_seconds, 450);  // what the comment's spending says
  for (const BenchmarkSeries& s : p.results.series)
    EXPECT_NE(s.base_failure.find("share of the time budget (7m30s) ran out"), std::string::npos)
        << s.base_failure;
  // The same share without the budget it is of stays as given: 3m45s, half for the base.
  Phase given(InstructionCounting::ByDefault, 225);
  SlowStartUp as_given;
  as_given.start_up = 17;
  ASSERT_TRUE(count_instructions(as_given, given.results, given.setup, [](const std::string&) {}));
  ASSERT_EQ(as_given.timeouts.size(), 2u);
  EXPECT_NEAR(as_given.timeouts[0], 112.5, 1);
  EXPECT_DOUBLE_EQ(given.results.counting_share_seconds, 0);  // no budget: no share recorded
}

// A quick start-up is instrumented from the start, as always.
TEST(CountInstructions, AQuickStartUpIsInstrumentedFromTheStart) {
  Phase p(InstructionCounting::ByDefault, 120);
  SlowStartUp fake;
  fake.start_up = 0.1;
  ASSERT_TRUE(count_instructions(fake, p.results, p.setup, [](const std::string&) {}));
  int scripts = 0;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(p.setup.work_dir)) {
    EXPECT_NE(entry.path().filename(), "instrument-on-open.so");
    if (entry.path().filename() != "job.sh") continue;
    ++scripts;
    std::ifstream in(entry.path());
    const std::string script((std::istreambuf_iterator<char>(in)), {});
    EXPECT_EQ(script.find("--instr-atstart"), std::string::npos) << script;
    EXPECT_EQ(script.find("LD_PRELOAD"), std::string::npos) << script;
  }
  EXPECT_GT(scripts, 0);
}

TEST(CountInstructions, ThePrGetsWhatTheBaseLeftOfTheDeadline) {
  Phase p(InstructionCounting::ByDefault, 120);
  SetClock clock;
  p.setup.clock = &clock;
  StoppedBatches fake;
  fake.clock = &clock;
  fake.batch_seconds = 50;  // the base's batch ran 50 s of its 60 before it stopped
  ASSERT_TRUE(count_instructions(fake, p.results, p.setup, [](const std::string&) {}));
  ASSERT_EQ(fake.batches.size(), 2u);
  EXPECT_NEAR(fake.batches[0].timeout_seconds, 60, 1e-9);
  EXPECT_NEAR(fake.batches[1].timeout_seconds, 70, 1e-9);  // 120 − 50
}

TEST(CountInstructions, WithoutADeadlineTheTimeoutsAreTheSuitesOwn) {
  Phase p(InstructionCounting::On, 0);
  StoppedBatches fake;
  std::vector<std::string> lines;
  ASSERT_TRUE(count_instructions(fake, p.results, p.setup,
                                 [&](const std::string& l) { lines.push_back(l); }));
  // Three benchmarks in two processes: one of them shares its process. It left no counts, so
  // its benchmarks are counted again one at a time, in a second batch per side.
  ASSERT_EQ(fake.batches.size(), 4u);
  EXPECT_NE(fake.batches[1].command.find("again.list"), std::string::npos);
  EXPECT_NE(fake.batches[3].command.find("again.list"), std::string::npos);
  bool said = false;
  for (const std::string& l : lines)
    said = said || l.find("counting them one at a time") != std::string::npos;
  EXPECT_TRUE(said);
  // Three benchmarks, at most two processes: their allowance is the suite's 10 minutes per
  // benchmark, twice (two runs) plus 15 s each, spread over two cores, plus the longest.
  EXPECT_GT(fake.batches[0].timeout_seconds, 2 * 600);
  for (const BenchmarkSeries& s : p.results.series)
    EXPECT_EQ(s.base_failure.find("not counted"), std::string::npos) << s.base_failure;
}

}  // namespace
}  // namespace benchpr::runner
