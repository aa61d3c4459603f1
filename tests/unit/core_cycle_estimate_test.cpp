// The cycle estimate beside an instruction count (core/evidence/cycle_estimate.hpp): KCachegrind's
// CEst formula on hand-checked numbers, when an estimate counts as moved (clear of its own check),
// the words that show it, and that a moved estimate keeps "same work" and "code placement"
// from being claimed while never changing the count's own verdict.
#include "benchpr/core/evidence/cycle_estimate.hpp"

#include <string>

#include <gtest/gtest.h>

#include "benchpr/core/evidence/instruction_analysis.hpp"
#include "benchpr/core/evidence/placement.hpp"
#include "benchpr/core/model/model.hpp"

namespace benchpr {
namespace {

constexpr double kThreshold = 0.005;

// Every cache miss event at `index` 0 (and 1 when `check` is given).
EventCounts misses(double i1, double d1r, double d1w, double llr_i, double llr_d, double llw_d) {
  return {{"I1mr", {i1}},    {"D1mr", {d1r}},   {"D1mw", {d1w}},     {"ILmr", {llr_i}},
          {"DLmr", {llr_d}}, {"DLmw", {llw_d}}, {"Dr", {d1r * 100}}, {"Dw", {d1w * 100}}};
}

BenchmarkSeries series(double base, double head, EventCounts base_events, EventCounts head_events) {
  BenchmarkSeries s;
  s.suite = instruction_suite_name("core");
  s.name = "BM_Walk";
  s.unit = "instructions";
  s.metric = std::string(kInstructionsMetric);
  s.base = {base};
  s.head = {head};
  s.base_events = std::move(base_events);
  s.head_events = std::move(head_events);
  return s;
}

TEST(CycleEstimate, IsInstructionsPlusTenPerL1MissAndAHundredPerLastLevelMiss) {
  // 1000 + 10 × (1 + 2 + 3) + 100 × (0.5 + 0.25 + 0.25) = 1000 + 60 + 100 = 1160.
  EXPECT_DOUBLE_EQ(estimated_cycles(1000, misses(1, 2, 3, 0.5, 0.25, 0.25)), 1160);
  // Data reads and writes that hit cost nothing beyond their instruction.
  EXPECT_DOUBLE_EQ(estimated_cycles(1000, misses(0, 0, 0, 0, 0, 0)), 1000);
  // Branch simulation's mispredictions, where the dumps hold them: 10 each (+ 10 × 3).
  EventCounts branches = misses(1, 2, 3, 0.5, 0.25, 0.25);
  branches["Bcm"] = {2};
  branches["Bim"] = {1};
  branches["Bc"] = {500};
  EXPECT_DOUBLE_EQ(estimated_cycles(1000, branches), 1190);
}

TEST(CycleEstimate, MissesADifferenceLeftBelowZeroCountAsNone) {
  // Misses per iteration are the difference of two runs: the shorter one may miss a little more.
  // −0.4 D1 read misses and 2 D1 write misses make a D1 group of 1.6, kept as it is; an LL group
  // of −0.3 counts as none, not as 30 cycles taken off: 1000 + 10 × (1 + 1.6) = 1026.
  EXPECT_DOUBLE_EQ(estimated_cycles(1000, misses(1, -0.4, 2, 0, -0.3, 0)), 1026);
  // A group below zero as a whole reads as none in the note's words, never "−0.40".
  const BenchmarkSeries s =
      series(28686, 28686, misses(0, -0.4, 0, 0, 0, 0), misses(0, 4097, 1, 0, 0, 0));
  EXPECT_EQ(miss_changes(s), "D1 misses 0.00 → 4,098 per iteration");
  // Both sides below zero are the same none: no change to name.
  const BenchmarkSeries none =
      series(28686, 28686, misses(0, -0.4, 0, 0, 0, 0), misses(0, -2.5, 0, 0, 0, 0));
  EXPECT_EQ(miss_changes(none), "");
}

TEST(CycleEstimate, NeedsEveryCacheEventAndTheCount) {
  // A count made without cache simulation (Ir only): no estimate.
  EXPECT_TRUE(is_missing(estimated_cycles(1000, {})));
  EventCounts partial = misses(1, 2, 3, 0.5, 0.25, 0.25);
  partial.erase("DLmw");
  EXPECT_TRUE(is_missing(estimated_cycles(1000, partial)));
  EXPECT_TRUE(is_missing(estimated_cycles(kMissing, misses(1, 2, 3, 0, 0, 0))));
  // Index 1 (the check) where the events have none.
  EXPECT_TRUE(is_missing(estimated_cycles(1000, misses(1, 2, 3, 0, 0, 0), 1)));
}

TEST(CycleEstimate, SameInstructionsMoreMissesMovesTheEstimateNotTheVerdict) {
  // A stride walk: the same 28,686 instructions; 16 → 4,097 D1 read misses, 0 → 256 LL misses.
  const BenchmarkSeries s =
      series(28686, 28686, misses(2, 16, 1, 0, 0, 0), misses(2, 4097, 1, 0, 256, 0));
  const BenchmarkAnalysis a = analyse_instruction_series(s, kThreshold);
  EXPECT_EQ(a.verdict, Verdict::Unchanged);
  // 28686 + 10 × 19 = 28876; 28686 + 10 × 4100 + 100 × 256 = 95286.
  EXPECT_DOUBLE_EQ(a.cycles_base, 28876);
  EXPECT_DOUBLE_EQ(a.cycles_head, 95286);
  EXPECT_TRUE(a.cycles_moved);
  EXPECT_EQ(cycles_phrase(a), "estimated cycles +230.0% (28,876 → 95,286)");
  EXPECT_EQ(miss_changes(s), "D1 misses 17.0 → 4,098, LL misses 0.00 → 256 per iteration");
}

TEST(CycleEstimate, AMoveWithinItsOwnSpreadOrTheThresholdIsNotAMove) {
  // 1000 + 10 × 10 = 1100 against 1000 + 10 × 12 = 1120: +1.8%, beyond 0.5%.
  BenchmarkSeries s = series(1000, 1000, misses(0, 10, 0, 0, 0, 0), misses(0, 12, 0, 0, 0, 0));
  BenchmarkAnalysis a;
  estimate_cycles(s, kThreshold, a);
  EXPECT_TRUE(a.cycles_moved);
  // The PR's check (one repetition alone) reads 11 misses: its spread is 1120/1110 − 1 = 0.9%,
  // and 1.8% − 2 × 0.9% stays short of the threshold.
  s.head = {1000, 1000};
  s.head_events["D1mr"] = {12, 11};
  for (const char* e : {"I1mr", "D1mw", "ILmr", "DLmr", "DLmw"}) s.head_events[e] = {0, 0};
  estimate_cycles(s, kThreshold, a);
  EXPECT_FALSE(a.cycles_moved);
  // 1100 against 1104: +0.36%, below the threshold.
  const BenchmarkSeries small =
      series(1000, 1000, misses(0, 10, 0, 0, 0, 0), misses(0, 10.4, 0, 0, 0, 0));
  estimate_cycles(small, kThreshold, a);
  EXPECT_FALSE(a.cycles_moved);
  // Without cache events on one side: no estimate, nothing moved.
  estimate_cycles(series(1000, 1000, misses(0, 10, 0, 0, 0, 0), {}), kThreshold, a);
  EXPECT_TRUE(is_missing(a.cycles_head));
  EXPECT_FALSE(a.cycles_moved);
  EXPECT_EQ(cycles_phrase(a), "");
}

TEST(CycleEstimate, ANoteNamesTheMissesWhenOnlyTheEstimateMoved) {
  Results r;
  r.config.instruction_threshold = kThreshold;
  r.series.push_back(
      series(28686, 28686, misses(2, 16, 1, 0, 0, 0), misses(2, 4097, 1, 0, 256, 0)));
  // The estimate moved with the count: nothing to add.
  r.series.push_back(series(1000, 1100, misses(0, 10, 0, 0, 0, 0), misses(0, 11, 0, 0, 0, 0)));
  r.series.back().name = "BM_More";
  Analysis analysis;
  for (const BenchmarkSeries& s : r.series)
    analysis.benchmarks.push_back(analyse_instruction_series(s, kThreshold));
  EXPECT_TRUE(has_cycle_estimates(r));
  const std::vector<Note> notes = cycle_estimate_notes(r, analysis);
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_EQ(plain_text(notes[0].parts),
            "`BM_Walk`: instructions per iteration unchanged (0.0%, exact count), estimated "
            "cycles +230.0% (28,876 → 95,286 per iteration; D1 misses 17.0 → 4,098, LL misses "
            "0.00 → 256 per iteration): its loop uses the simulated caches differently. "
            "An estimate, not a verdict: time says what it costs.");
  // Files written before cache simulation: no estimate, no note.
  Results old;
  old.series.push_back(series(1000, 1000, {}, {}));
  EXPECT_FALSE(has_cycle_estimates(old));
}

TEST(CycleEstimate, AMovedEstimateIsNeitherSameWorkNorCodePlacement) {
  BenchmarkAnalysis t;
  t.suite = "core";
  t.name = "BM_Walk";
  t.unit = "ns";
  t.metric = "cpu_time";
  t.threshold = 0.02;
  t.rounds_used = 10;
  t.base_value = 100;
  HotFunction f;
  f.name = "walk()";
  f.share = 0.95;
  f.base_address = 0x4010;
  f.head_address = 0x4020;
  f.base_size = f.head_size = 64;
  f.identical = true;
  CodeEvidence code;
  code.suite = "core";
  code.name = "BM_Walk";
  code.covered = 0.97;
  code.functions = {f};
  const BenchmarkAnalysis same = analyse_instruction_series(
      series(1000, 1000, misses(0, 10, 0, 0, 0, 0), misses(0, 10, 0, 0, 0, 0)), kThreshold);
  const BenchmarkAnalysis missed = analyse_instruction_series(
      series(1000, 1000, misses(0, 10, 0, 0, 0, 0), misses(0, 90, 0, 0, 0, 0)), kThreshold);
  ASSERT_EQ(missed.verdict, Verdict::Unchanged);
  // Time undecided: the same work only while the estimate stayed.
  t.verdict = Verdict::Inconclusive;
  t.change = 0.01;
  t.ci_low = t.eq_low = -0.04;
  t.ci_high = t.eq_high = 0.06;
  EXPECT_EQ(read_code(t, &same, &code, kThreshold), CodeReading::SameWork);
  EXPECT_EQ(read_code(t, &missed, &code, kThreshold), CodeReading::None);
  // Time moved on byte-identical, moved code: placement only while the estimate stayed.
  t.verdict = Verdict::Regression;
  t.change = 0.1;
  t.ci_low = t.eq_low = 0.09;
  t.ci_high = t.eq_high = 0.11;
  EXPECT_EQ(read_code(t, &same, &code, kThreshold), CodeReading::Placement);
  EXPECT_EQ(read_code(t, &missed, &code, kThreshold), CodeReading::None);
}

}  // namespace
}  // namespace benchpr
