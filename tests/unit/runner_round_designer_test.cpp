// The round designer on its own: what a round runs, in which order of sides, when a deadline
// cuts the rounds, which benchmarks stay open, and the design the processes run at.
#include <cmath>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "benchpr/core/model/model.hpp"
#include "benchpr/core/plan/time_plan.hpp"
#include "benchpr/runner/round_designer.hpp"

namespace benchpr::runner {
namespace {

SuiteConfig gbench(const std::string& name, const std::string& run = "./bench") {
  SuiteConfig s;
  s.name = name;
  s.run = run;
  s.format = FormatKind::GoogleBenchmark;
  return s;
}

RoundPlan round(int index, bool warmup, Side first) {
  RoundPlan r;
  r.index = index;
  r.warmup = warmup;
  r.first = first;
  return r;
}

RunRecord run(const std::string& suite, int round_index, Side side, double seconds,
              double cpu = kMissing) {
  RunRecord r;
  r.suite = suite;
  r.round = round_index;
  r.side = side;
  r.seconds = seconds;
  r.cpu_seconds = cpu;
  return r;
}

TEST(RoundOrder, TheRoundsFirstSideThenTheOther) {
  EXPECT_EQ(sides_in_order(round(0, false, Side::Base)),
            (std::array<Side, 2>{Side::Base, Side::Head}));
  EXPECT_EQ(sides_in_order(round(1, false, Side::Head)),
            (std::array<Side, 2>{Side::Head, Side::Base}));
}

TEST(RoundOrder, CountsTheWarmupRounds) {
  EXPECT_EQ(warmup_rounds({}), 0);
  EXPECT_EQ(warmup_rounds({round(0, true, Side::Base), round(1, false, Side::Base),
                           round(2, false, Side::Head)}),
            1);
}

TEST(RoundSuites, TimedSuitesInConfiguredOrderLessTheSkipped) {
  Config c;
  c.suites = {gbench("a"), gbench("counts"), gbench("b"), gbench("c")};
  c.suites[1].metric = std::string(kInstructionsMetric);  // counted, never timed in rounds
  const std::vector<const SuiteConfig*> suites = suites_of_round(c, {"b"});
  ASSERT_EQ(suites.size(), 2u);
  EXPECT_EQ(suites[0]->name, "a");
  EXPECT_EQ(suites[1]->name, "c");
}

TEST(RoundDeadline, CutsOnlyBeforeABlockThatWouldEndAfterIt) {
  const RoundsSoFar two_rounds{2, 20};  // 10 s a round: a block takes 20 s
  // One warm-up: analysed rounds start at index 1, blocks at 1, 3, 5 ...
  EXPECT_TRUE(block_would_overrun(round(3, false, Side::Base), 3, 1, two_rounds, 100, 119));
  EXPECT_FALSE(block_would_overrun(round(3, false, Side::Base), 3, 1, two_rounds, 100, 121));
  // The second round of a block always runs: the orders stay balanced.
  EXPECT_FALSE(block_would_overrun(round(4, false, Side::Head), 4, 1, two_rounds, 100, 101));
  // A warm-up round, no deadline, or no round yet to price the block: never cut.
  EXPECT_FALSE(block_would_overrun(round(0, true, Side::Base), 0, 0, two_rounds, 100, 101));
  EXPECT_FALSE(block_would_overrun(round(3, false, Side::Base), 3, 1, two_rounds, 100, 0));
  EXPECT_FALSE(block_would_overrun(round(1, false, Side::Base), 1, 1, {0, 0}, 100, 101));
}

TEST(RoundOpen, EverySuitePresentWithItsOpenBenchmarks) {
  Config c;
  c.suites = {gbench("a"), gbench("b")};
  const auto open = open_after_look(c, {{"a", "BM_1"}, {"a", "BM_3"}});
  ASSERT_EQ(open.size(), 2u);
  EXPECT_EQ(open.at("a"), (std::vector<std::string>{"BM_1", "BM_3"}));
  EXPECT_TRUE(open.at("b").empty());  // present and empty: none of its benchmarks runs
}

TEST(RoundDesignerTest, SizesOnlyGoogleBenchmarkSuitesWhoseMinTimeIsBenchprs) {
  Config c;
  RoundDesigner d;
  EXPECT_FALSE(d.sizes(c, gbench("a")));  // no min time set: nothing sized
  d.set_min_time(0.05);
  EXPECT_TRUE(d.sizes(c, gbench("a")));
  EXPECT_FALSE(d.sizes(c, gbench("a", "./bench --benchmark_min_time=1s")));
  EXPECT_FALSE(d.sizes(c, gbench("a", "./bench --benchmark_out={out}")));
  SuiteConfig hyperfine = gbench("h");
  hyperfine.format = FormatKind::Hyperfine;
  EXPECT_FALSE(d.sizes(c, hyperfine));
  c.bench_args = "--benchmark_min_time=0.2s";
  EXPECT_FALSE(d.sizes(c, gbench("a")));
}

TEST(RoundDesignerTest, RepetitionsAreTheConfigsUntilADesignChoseOthers) {
  Config c;
  c.repetitions = 5;
  RoundDesigner d;
  EXPECT_EQ(d.repetitions(c), 5);
  TimePlan plan;
  plan.min_time_seconds = 0.1;
  plan.repetitions = 7;
  d.resume(c, plan);  // fixed rounds: the min time only
  EXPECT_DOUBLE_EQ(d.min_time(), 0.1);
  EXPECT_EQ(d.repetitions(c), 5);
  c.budget_seconds = 600;
  d.resume(c, plan);  // adaptive: the design chose the repetitions too
  EXPECT_EQ(d.repetitions(c), 7);
  RoundDesigner untouched;
  untouched.resume(c, std::nullopt);
  EXPECT_DOUBLE_EQ(untouched.min_time(), 0);
}

TEST(RoundDesignerTest, MeasuredCostsAreOneSidesTurnPerSuite) {
  Results r;
  r.config.suites = {gbench("a"), gbench("b")};
  r.config.repetitions = 3;
  // Round 0 is outside [1, 3); in round 1 the base side ran in two processes (a selection in
  // groups): one turn of 3 s. Suite b has no CPU time for one of its runs.
  r.runs = {run("a", 0, Side::Base, 100, 100), run("a", 1, Side::Base, 1, 1),
            run("a", 1, Side::Base, 2, 2),     run("a", 1, Side::Head, 3, 3),
            run("a", 2, Side::Head, 2, 2),     run("a", 2, Side::Base, 4, 4),
            run("b", 1, Side::Base, 5, 5),     run("b", 1, Side::Head, 5)};
  BenchmarkSeries seen;
  seen.suite = "a";
  seen.name = "BM_seen";
  seen.base = {1, 1, 1};
  seen.head = {1, 1, kMissing};
  BenchmarkSeries gone = seen;
  gone.name = "BM_gone";
  gone.base = {1, 1, kMissing};
  gone.head = {1, 1, kMissing};
  r.series = {seen, gone};
  RoundDesigner d;
  d.set_min_time(0.05);
  const std::vector<SuiteCost> costs = d.measured_costs(r, 1, 3);
  ASSERT_EQ(costs.size(), 2u);
  EXPECT_EQ(costs[0].suite, "a");
  EXPECT_DOUBLE_EQ(costs[0].run_seconds, 12.0 / 4);  // four turns
  EXPECT_DOUBLE_EQ(costs[0].cpu_seconds, 12.0 / 4);
  EXPECT_TRUE(costs[0].sized);
  EXPECT_DOUBLE_EQ(costs[0].min_time, 0.05);
  EXPECT_EQ(costs[0].repetitions, 3);
  EXPECT_EQ(costs[0].benchmarks, 1);  // only BM_seen has a value in the last round
  EXPECT_DOUBLE_EQ(costs[1].run_seconds, 5);
  EXPECT_DOUBLE_EQ(costs[1].cpu_seconds, 0);  // not every run has one: unknown
}

TEST(RoundDesignerTest, NothingToDesignWithoutASuiteItSizes) {
  Results r;
  r.config.suites = {gbench("a")};
  r.config.repetitions = 4;
  RoundDesigner d;
  d.set_min_time(0.05);
  SuiteCost cost;
  cost.suite = "a";
  cost.sized = false;
  const Redesign design = d.redesign(r, {cost}, nullptr, 100, 10, 2);
  EXPECT_DOUBLE_EQ(design.chosen.min_time, 0.05);
  EXPECT_EQ(design.chosen.repetitions, 4);
  EXPECT_DOUBLE_EQ(design.chosen.round_seconds, 0);  // the caller's estimate stays
  EXPECT_FALSE(design.change);
}

TEST(RoundDesignerTest, AdoptsTheDesignItChoosesAndSaysWhenItChanged) {
  Results r;
  r.config.suites = {gbench("a")};
  r.config.repetitions = 3;
  BenchmarkSeries s;
  s.suite = "a";
  s.name = "BM_x";
  // Noisy between processes, quiet within: more rounds of shorter processes pay.
  s.base = {100, 130, 90, 120, 95, 125};
  s.head = {110, 90, 125, 100, 130, 92};
  r.series = {s};
  RoundDesigner d;
  d.set_min_time(0.2);
  ParsedRun parsed;
  Measurement m;
  m.name = "BM_x";
  m.value = 100;
  m.repetition_log_variance = 1e-6;
  parsed.measurements = {m};
  d.note_within("a", parsed);
  for (int i = 0; i < 6; ++i) d.round_ran(round(i, false, Side::Base), i, 3, 0.01);
  ASSERT_EQ(d.rounds_ran().size(), 6u);
  EXPECT_DOUBLE_EQ(d.rounds_ran()[0].min_time, 0.2);
  SuiteCost cost;
  cost.suite = "a";
  cost.sized = true;
  cost.run_seconds = 2;
  cost.benchmarks = 1;
  cost.min_time = 0.2;
  cost.repetitions = 3;
  const Redesign design = d.redesign(r, {cost}, nullptr, 600, 40, 2);
  EXPECT_DOUBLE_EQ(d.min_time(), design.chosen.min_time);
  EXPECT_EQ(d.repetitions(r.config), design.chosen.repetitions);
  const bool changed = design.chosen.min_time != 0.2 || design.chosen.repetitions != 3;
  EXPECT_EQ(design.change.has_value(), changed);
  if (design.change) {
    EXPECT_EQ(design.change->rfind("round design: ", 0), 0u) << *design.change;
  }
}

TEST(RoundDesignerTest, AWarmupRoundIsNoAnalysedRoundsDesign) {
  RoundDesigner d;
  d.set_min_time(0.01);
  d.round_ran(round(0, true, Side::Base), 0, 3, 0.5);
  d.round_ran(round(1, false, Side::Head), 1, 10, 0.5);
  ASSERT_EQ(d.rounds_ran().size(), 1u);
  EXPECT_EQ(d.rounds_ran()[0].round, 1);
  EXPECT_EQ(d.rounds_ran()[0].repetitions, 10);
}

}  // namespace
}  // namespace benchpr::runner
