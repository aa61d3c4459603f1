// The counting phase's plan and its deadline, with a fake process runner: which processes run
// (a suite's benchmarks sharing one per core), and what counting nobody asked for does when its
// share of the budget runs out (each uncounted benchmark says so; no group is counted again).
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "benchpr/core/instruction_analysis.hpp"
#include "benchpr/runner/instruction_counts.hpp"
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

// A suite whose start-up (its listing, natively) takes 20 s: at least 10 minutes per
// Callgrind process, beyond a 2-minute share. Nothing is started; each benchmark says why.
class SlowStartUp : public exec::ProcessRunner {
 public:
  exec::ProcessResult run(const exec::ProcessSpec& spec) override {
    exec::ProcessResult r;
    if (spec.command.find("--benchmark_list_tests=true") != std::string::npos) {
      r.exit_code = 0;
      r.wall_seconds = 20;
      r.output_tail = "BM_A\nBM_B\n";
      return r;
    }
    ++batches;
    r.timed_out = true;
    return r;
  }
  int batches = 0;
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
    EXPECT_NE(s.base_failure.find("at least 10m per Callgrind process"), std::string::npos)
        << s.base_failure;
    EXPECT_EQ(s.head_failure, s.base_failure);
  }
  // With the time (no deadline: counting asked for), it is counted.
  Phase asked(InstructionCounting::On, 0);
  SlowStartUp counted;
  ASSERT_TRUE(count_instructions(counted, asked.results, asked.setup, [](const std::string&) {}));
  EXPECT_GT(counted.batches, 0);
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
