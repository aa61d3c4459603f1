// The decision table of docs/placement.md, row by row, with hand-made analyses: a time change on
// the same instructions of byte-identical, moved code is a code-placement effect that never
// blocks a merge; an undecided time on the same work is "unchanged: same work", and on the same
// count of changed code "same count" where time shows no slowdown to the threshold; counts beyond
// their threshold decide what time could not; anything else leaves time the judge.
#include "benchpr/core/evidence/placement.hpp"

#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "benchpr/core/evidence/instruction_analysis.hpp"
#include "benchpr/core/results_file/results_json.hpp"
#include "benchpr/core/verdicts/recommendation.hpp"

namespace benchpr {
namespace {

constexpr double kThreshold = 0.005;  // instruction threshold (count agreement: 0.25%)

// A timed benchmark with a verdict, its change and intervals (worse side at `+ci`).
BenchmarkAnalysis timed(Verdict v, double change, double half_width = 0.01,
                        const std::string& name = "BM_Contains") {
  BenchmarkAnalysis b;
  b.suite = "core";
  b.name = name;
  b.unit = "ns";
  b.metric = "cpu_time";
  b.verdict = v;
  b.threshold = 0.02;
  b.rounds_used = 10;
  b.base_value = 100;
  b.head_value = 100 * (1 + change);
  b.change = change;
  b.ci_low = b.eq_low = change - half_width;
  b.ci_high = b.eq_high = change + half_width;
  b.p = b.p_adjusted = v == Verdict::Inconclusive ? 0.4 : 0.001;
  b.no_signal = v == Verdict::Inconclusive;
  return b;
}

// Its exact counts.
BenchmarkAnalysis counted(double base, double head, const std::string& name = "BM_Contains") {
  BenchmarkSeries s;
  s.suite = instruction_suite_name("core");
  s.name = name;
  s.unit = "instructions";
  s.metric = std::string(kInstructionsMetric);
  s.base = {base};
  s.head = {head};
  return analyse_instruction_series(s, kThreshold);
}

HotFunction hot(const std::string& name, std::uint64_t base, std::uint64_t head,
                bool identical = true) {
  HotFunction f;
  f.name = name;
  f.share = 0.95;
  f.base_address = base;
  f.head_address = head;
  f.base_size = f.head_size = 120;
  f.identical = identical;
  return f;
}

CodeEvidence evidence(std::vector<HotFunction> functions, const std::string& name = "BM_Contains") {
  CodeEvidence e;
  e.suite = "core";
  e.name = name;
  e.covered = 0.97;
  e.functions = std::move(functions);
  return e;
}

const CodeEvidence kMoved = evidence({hot("roaring::contains(unsigned int)", 0x4010, 0x4020)});

TEST(Placement, TimeMovedOnTheSameCountOfIdenticalMovedCodeIsPlacement) {
  const BenchmarkAnalysis ins = counted(478887, 478887);
  for (Verdict v : {Verdict::Regression, Verdict::Improvement, Verdict::Slower, Verdict::Faster})
    EXPECT_EQ(read_code(timed(v, 0.1), &ins, &kMoved, kThreshold), CodeReading::Placement)
        << to_string(v);
  // Within the counts' agreement (half the threshold): 0.2% apart is still the same work.
  const BenchmarkAnalysis near = counted(100000, 100200);
  EXPECT_EQ(read_code(timed(Verdict::Regression, 0.1), &near, &kMoved, kThreshold),
            CodeReading::Placement);
  // 0.3% apart: more than the agreement, less than the threshold: time stands.
  const BenchmarkAnalysis apart = counted(100000, 100300);
  EXPECT_EQ(read_code(timed(Verdict::Regression, 0.1), &apart, &kMoved, kThreshold),
            CodeReading::None);
}

TEST(Placement, ChangedOrUnknownCodeLeavesTimeTheJudge) {
  const BenchmarkAnalysis ins = counted(1000, 1000);
  const BenchmarkAnalysis t = timed(Verdict::Regression, 0.1);
  // One hot function's bytes differ (an add swapped for a multiply: the same count).
  const CodeEvidence changed =
      evidence({hot("f()", 0x4010, 0x4020), hot("g()", 0x5000, 0x5010, false)});
  EXPECT_EQ(read_code(t, &ins, &changed, kThreshold), CodeReading::None);
  // No evidence, incomplete evidence, an empty list.
  EXPECT_EQ(read_code(t, &ins, nullptr, kThreshold), CodeReading::None);
  CodeEvidence missing = kMoved;
  missing.missing = "a hot function has no name (0x401000)";
  EXPECT_EQ(read_code(t, &ins, &missing, kThreshold), CodeReading::None);
  const CodeEvidence none = evidence({});
  EXPECT_EQ(read_code(t, &ins, &none, kThreshold), CodeReading::None);
  // Identical code at the same addresses: whatever moved the time, it was not placement.
  const CodeEvidence still = evidence({hot("f()", 0x4010, 0x4010)});
  EXPECT_EQ(read_code(t, &ins, &still, kThreshold), CodeReading::None);
  // A system library's function only (outside the builds) moved nothing.
  HotFunction libc = hot("memcmp", 0, 0);
  libc.outside = true;
  const CodeEvidence outside = evidence({libc});
  EXPECT_EQ(read_code(t, &ins, &outside, kThreshold), CodeReading::None);
  // Not counted, or a count whose own check disagreed.
  EXPECT_EQ(read_code(t, nullptr, &kMoved, kThreshold), CodeReading::None);
  BenchmarkAnalysis unsure = ins;
  unsure.count_check = ": the base's two counts differ by 1.2%";
  EXPECT_EQ(read_code(t, &unsure, &kMoved, kThreshold), CodeReading::None);
}

TEST(Placement, UndecidedTimeOnTheSameWorkIsUnchangedSameWork) {
  const BenchmarkAnalysis ins = counted(23, 23);
  const BenchmarkAnalysis t = timed(Verdict::Inconclusive, 0.01, 0.05);
  EXPECT_EQ(read_code(t, &ins, &kMoved, kThreshold), CodeReading::SameWork);
  // Same addresses too: still the same work.
  const CodeEvidence still = evidence({hot("f()", 0x4010, 0x4010)});
  EXPECT_EQ(read_code(t, &ins, &still, kThreshold), CodeReading::SameWork);
  // The same count of changed code is not the same work.
  const CodeEvidence changed = evidence({hot("f()", 0x4010, 0x4020, false)});
  EXPECT_EQ(read_code(t, &ins, &changed, kThreshold), CodeReading::None);
  // A time verdict that is already unchanged needs nothing.
  EXPECT_EQ(read_code(timed(Verdict::Unchanged, 0.0), &ins, &kMoved, kThreshold),
            CodeReading::None);
}

// Identical, moved hot code, but a function the counted run could have called and did not
// changed (CodeEvidence::unrun_changed: AVX-512 code Valgrind never runs): what runs natively is
// not known, so time stays the judge.
TEST(Placement, CodeTheCountedRunMayNotHaveRunNativelyLeavesTimeTheJudge) {
  const BenchmarkAnalysis ins = counted(478887, 478887);
  CodeEvidence unseen = kMoved;
  unseen.unrun_changed = "`avx512_union` (called from `union_uint16`)";
  EXPECT_EQ(read_code(timed(Verdict::Regression, 0.1), &ins, &unseen, kThreshold),
            CodeReading::None);
  EXPECT_EQ(read_code(timed(Verdict::Inconclusive, 0.01, 0.05), &ins, &unseen, kThreshold),
            CodeReading::None);
  // Short of the threshold on the worse side: the same count, as for changed code.
  EXPECT_EQ(read_code(timed(Verdict::Inconclusive, -0.019, 0.031), &ins, &unseen, kThreshold),
            CodeReading::SameCount);
}

// A changed function whose executed instructions are the same (HotFunction::executed_same: the
// base's path through the PR's bytes, from the entry, each as often) is the same code where the
// benchmark runs it: cctz's FormatTime in n_sec after its PR. A time change is placement, an
// undecided time the same work, as for byte-identical code.
TEST(Placement, CodeTheSameOnlyWhereItRunsReadsAsTheSameCode) {
  const BenchmarkAnalysis ins = counted(2644, 2644);
  HotFunction f = hot("cctz::detail::n_sec()", 0x4010, 0x4030, false);
  f.executed_same = true;
  const CodeEvidence where_run = evidence({f, hot("g()", 0x5000, 0x5020)});
  for (Verdict v : {Verdict::Regression, Verdict::Slower, Verdict::Improvement, Verdict::Faster})
    EXPECT_EQ(read_code(timed(v, 0.05), &ins, &where_run, kThreshold), CodeReading::Placement);
  EXPECT_EQ(read_code(timed(Verdict::Inconclusive, 0.0, 0.04), &ins, &where_run, kThreshold),
            CodeReading::SameWork);
  // At the same address but grown or shrunk around the code it runs: moved within itself.
  HotFunction in_place = hot("cctz::detail::n_sec()", 0x4010, 0x4010, false);
  in_place.executed_same = true;
  in_place.head_size = 96;
  const CodeEvidence shrunk = evidence({in_place});
  EXPECT_EQ(read_code(timed(Verdict::Regression, 0.05), &ins, &shrunk, kThreshold),
            CodeReading::Placement);
  // The same size at the same address: nothing it runs moved, so time is not placement.
  in_place.head_size = in_place.base_size;
  const CodeEvidence unmoved = evidence({in_place});
  EXPECT_EQ(read_code(timed(Verdict::Regression, 0.05), &ins, &unmoved, kThreshold),
            CodeReading::None);
  // Not the same where it runs (another instruction on its path): changed code, time stands.
  HotFunction changed = f;
  changed.executed_same = false;
  const CodeEvidence other = evidence({changed, hot("g()", 0x5000, 0x5020)});
  EXPECT_EQ(read_code(timed(Verdict::Regression, 0.05), &ins, &other, kThreshold),
            CodeReading::None);
  // Other estimated cycles (the simulated caches) on the same count: not placement either.
  BenchmarkAnalysis misses = ins;
  misses.cycles_moved = true;
  EXPECT_EQ(read_code(timed(Verdict::Regression, 0.05), &misses, &where_run, kThreshold),
            CodeReading::None);
}

// Time undecided at −5.0% … +1.2% (threshold ±2%) on changed code running the same 2,644
// instructions: time shows no slowdown reaching the threshold, the counts no change of the work.
TEST(Placement, UndecidedTimeOnTheSameCountOfChangedCodeShowingNoSlowdownIsSameCount) {
  const BenchmarkAnalysis ins = counted(2644, 2644);
  const CodeEvidence changed = evidence({hot("cctz::detail::n_sec()", 0x4010, 0x4020, false)});
  const BenchmarkAnalysis t = timed(Verdict::Inconclusive, -0.019, 0.031);
  EXPECT_EQ(read_code(t, &ins, &changed, kThreshold), CodeReading::SameCount);
  // Without evidence of the code (a resumed comparison, an unnamed hot function) the same.
  EXPECT_EQ(read_code(t, &ins, nullptr, kThreshold), CodeReading::SameCount);
  CodeEvidence missing = changed;
  missing.missing = "a hot function has no name (0x401000)";
  EXPECT_EQ(read_code(t, &ins, &missing, kThreshold), CodeReading::SameCount);
  // Identical code is the stronger reading, whatever the interval.
  EXPECT_EQ(read_code(t, &ins, &kMoved, kThreshold), CodeReading::SameWork);
  // Throughput (higher is better): the worse end is the lower one, −1.2% there.
  BenchmarkAnalysis up = timed(Verdict::Inconclusive, 0.019, 0.031);
  up.better = Better::Higher;
  EXPECT_EQ(read_code(up, &ins, &changed, kThreshold), CodeReading::SameCount);
}

// What a PR's changed code can do with the same instructions, and must still be seen: a slow
// mode or a one-off cost widens the worse end to the threshold, a stall shows as waiting, a
// cache footprint moves the estimated cycles. Each leaves time the judge.
TEST(Placement, SameCountNeverHidesAnIntervalThatReachesTheThresholdOnTheWorseSide) {
  const BenchmarkAnalysis ins = counted(2644, 2644);
  const CodeEvidence changed = evidence({hot("f()", 0x4010, 0x4010, false)});
  // −4% … +2.0%: the worse end reaches the threshold.
  EXPECT_EQ(read_code(timed(Verdict::Inconclusive, -0.01, 0.03), &ins, &changed, kThreshold),
            CodeReading::None);
  // +1.97% reads "2.0%", level with the threshold: not shown below it.
  EXPECT_EQ(read_code(timed(Verdict::Inconclusive, -0.0103, 0.03), &ins, &changed, kThreshold),
            CodeReading::None);
  // Throughput 2.5% lower at the worse end.
  BenchmarkAnalysis up = timed(Verdict::Inconclusive, 0.0, 0.025);
  up.better = Better::Higher;
  EXPECT_EQ(read_code(up, &ins, &changed, kThreshold), CodeReading::None);
  // Wall time moved while CPU time did not (a stall costs time, not instructions).
  BenchmarkAnalysis waits = timed(Verdict::Inconclusive, -0.019, 0.031);
  waits.add_flag(BenchmarkFlag::Waiting);
  EXPECT_EQ(read_code(waits, &ins, &changed, kThreshold), CodeReading::None);
  // The change follows the run order: the interval is not the revision's.
  BenchmarkAnalysis order = timed(Verdict::Inconclusive, -0.019, 0.031);
  order.add_flag(BenchmarkFlag::Order);
  EXPECT_EQ(read_code(order, &ins, &changed, kThreshold), CodeReading::None);
  // Inconclusive for the correction over the family, not for width: not this reading.
  BenchmarkAnalysis corrected = timed(Verdict::Inconclusive, -0.019, 0.031);
  corrected.no_signal = false;
  EXPECT_EQ(read_code(corrected, &ins, &changed, kThreshold), CodeReading::None);
  // The same instructions with other cache misses.
  BenchmarkAnalysis misses = ins;
  misses.cycles_moved = true;
  EXPECT_EQ(read_code(timed(Verdict::Inconclusive, -0.019, 0.031), &misses, &changed, kThreshold),
            CodeReading::None);
  // Counts 0.3% apart: more than their agreement.
  const BenchmarkAnalysis apart = counted(100000, 100300);
  EXPECT_EQ(read_code(timed(Verdict::Inconclusive, -0.019, 0.031), &apart, &changed, kThreshold),
            CodeReading::None);
  // A decided time stands: slower on changed code is the PR's.
  EXPECT_EQ(read_code(timed(Verdict::Slower, 0.01, 0.005), &ins, &changed, kThreshold),
            CodeReading::None);
}

TEST(Placement, CountsBeyondTheirThresholdDecideWhatTimeCouldNot) {
  const BenchmarkAnalysis more = counted(822, 1122);
  EXPECT_EQ(read_code(timed(Verdict::Inconclusive, 0.05, 0.1), &more, nullptr, kThreshold),
            CodeReading::CountsDecided);
  // Where time decided, it stands (a disagreement is a note, not a new verdict).
  EXPECT_EQ(read_code(timed(Verdict::Regression, 0.2), &more, &kMoved, kThreshold),
            CodeReading::None);
  EXPECT_EQ(read_code(timed(Verdict::Unchanged, 0.0), &more, &kMoved, kThreshold),
            CodeReading::None);
}

TEST(Placement, HotFunctionsCoverNinetyPercentOfEachSide) {
  // Base: f 70, g 25, h 5 of 100 -> f, g (95%). PR: f 50, h 45, g 5 -> f, h (95%).
  FunctionProfile base, head;
  base.total = head.total = 100;
  base.functions = {{"f", 70, 100}, {"g", 25, 25}, {"h", 5, 5}};
  head.functions = {{"f", 50, 100}, {"h", 45, 45}, {"g", 5, 5}};
  double covered = 0;
  const std::vector<HotName> hot = hot_function_names(base, head, 0.9, &covered);
  ASSERT_EQ(hot.size(), 3u);
  EXPECT_EQ(hot[0].name, "f");
  EXPECT_DOUBLE_EQ(hot[0].share, 0.7);
  EXPECT_EQ(hot[1].name, "h");
  EXPECT_DOUBLE_EQ(hot[1].share, 0.45);
  EXPECT_EQ(hot[2].name, "g");
  EXPECT_DOUBLE_EQ(covered, 1.0);  // all three, on both sides
  EXPECT_TRUE(hot_function_names(FunctionProfile{}, head, 0.9).empty());
  EXPECT_TRUE(unnamed_function("0x0000000000401234"));
  EXPECT_FALSE(unnamed_function("roaring::contains(unsigned int)"));
}

// The analysis as analyse() leaves it and the recommendation it gets.
Analysis read(const Results& r, std::vector<BenchmarkAnalysis> benchmarks) {
  Analysis a;
  a.analysed_rounds = 10;
  a.benchmarks = std::move(benchmarks);
  apply_code_readings(r, a);
  a.recommendation = recommend(r, a);
  return a;
}

TEST(Placement, APlacementRowIsNoRegressionAndTheSentenceSaysWhy) {
  Results r;
  r.hot_code = {kMoved};
  const Analysis a =
      read(r, {timed(Verdict::Regression, 0.10), counted(478887, 478887),
               timed(Verdict::Unchanged, 0.0, 0.005, "BM_Other"), counted(1000, 1000, "BM_Other")});
  EXPECT_EQ(a.benchmarks[0].verdict, Verdict::Placement);
  EXPECT_EQ(a.benchmarks[0].code_reading, CodeReading::Placement);
  EXPECT_EQ(a.benchmarks[0].time_verdict, Verdict::Regression);
  EXPECT_DOUBLE_EQ(a.benchmarks[0].instructions_base, 478887);
  EXPECT_EQ(a.recommendation.kind, RecommendationKind::Merge) << a.recommendation.reason;
  // Named as a suite's benchmark: the counts are a suite of their own.
  EXPECT_NE(a.recommendation.reason.find("`core/BM_Contains` moved by code placement only"),
            std::string::npos)
      << a.recommendation.reason;
  EXPECT_NE(a.recommendation.reason.find("may flip with the next commit"), std::string::npos);
  // The results file says what the row was by time alone.
  const auto j = nlohmann::json::parse(results_to_string(r, &a));
  EXPECT_EQ(j["benchmarks"][0]["verdict"], "placement");
  EXPECT_EQ(j["benchmarks"][0]["code_reading"], "placement");
  EXPECT_EQ(j["benchmarks"][0]["time_verdict"], "regression");
  EXPECT_FALSE(j["benchmarks"][1].contains("code_reading"));
}

TEST(Placement, ARegressionOnChangedCodeStillBlocksBesideEqualCounts) {
  Results r;
  r.hot_code = {evidence({hot("f()", 0x4010, 0x4020, false)})};
  const Analysis a = read(r, {timed(Verdict::Regression, 0.10), counted(1000, 1000)});
  EXPECT_EQ(a.benchmarks[0].verdict, Verdict::Regression);
  EXPECT_EQ(a.benchmarks[0].code_reading, CodeReading::None);
  EXPECT_EQ(a.recommendation.kind, RecommendationKind::DoNotMerge);
}

TEST(Placement, SameWorkIsUnchangedAndLeavesNoDoubt) {
  // Time alone: −10% … +12%, inconclusive; the same 23 instructions of identical code.
  Results r;
  r.hot_code = {kMoved};
  const Analysis a =
      read(r, {timed(Verdict::Inconclusive, 0.01, 0.11), counted(23, 23),
               timed(Verdict::Unchanged, 0.0, 0.005, "BM_Other"), counted(1000, 1000, "BM_Other")});
  EXPECT_EQ(a.benchmarks[0].verdict, Verdict::Unchanged);
  EXPECT_EQ(a.benchmarks[0].code_reading, CodeReading::SameWork);
  EXPECT_EQ(a.benchmarks[0].time_verdict, Verdict::Inconclusive);
  EXPECT_EQ(a.recommendation.kind, RecommendationKind::Merge) << a.recommendation.reason;
}

TEST(Placement, SameCountIsUnchangedAndTheResultsFileSaysSo) {
  Results r;
  r.hot_code = {evidence({hot("cctz::detail::n_sec()", 0x4010, 0x4020, false)})};
  const Analysis a =
      read(r, {timed(Verdict::Inconclusive, -0.019, 0.031), counted(2644, 2644),
               timed(Verdict::Unchanged, 0.0, 0.005, "BM_Other"), counted(1000, 1000, "BM_Other")});
  EXPECT_EQ(a.benchmarks[0].verdict, Verdict::Unchanged);
  EXPECT_EQ(a.benchmarks[0].code_reading, CodeReading::SameCount);
  EXPECT_EQ(a.benchmarks[0].time_verdict, Verdict::Inconclusive);
  EXPECT_FALSE(a.benchmarks[0].no_signal);
  EXPECT_EQ(a.recommendation.kind, RecommendationKind::Merge) << a.recommendation.reason;
  const auto j = nlohmann::json::parse(results_to_string(r, &a));
  EXPECT_EQ(j["benchmarks"][0]["verdict"], "unchanged");
  EXPECT_EQ(j["benchmarks"][0]["code_reading"], "same-count");
  EXPECT_EQ(j["benchmarks"][0]["time_verdict"], "inconclusive");
}

TEST(Placement, CountsDecidedDoNotHideATimeIntervalThatReachesTheThreshold) {
  // Fewer instructions (−5%), time undecided at −7% … +9% on that changed code: the count's row
  // is an improvement, but time could be 9% worse, so no plain merge.
  Results r;
  const Analysis a =
      read(r, {timed(Verdict::Inconclusive, 0.01, 0.08), counted(1000, 950),
               timed(Verdict::Unchanged, 0.0, 0.005, "BM_B"), counted(1000, 1000, "BM_B"),
               timed(Verdict::Unchanged, 0.0, 0.005, "BM_C"), counted(1000, 1000, "BM_C")});
  EXPECT_EQ(a.benchmarks[0].verdict, Verdict::Inconclusive);
  EXPECT_EQ(a.benchmarks[0].code_reading, CodeReading::CountsDecided);
  EXPECT_EQ(a.recommendation.kind, RecommendationKind::Inconclusive) << a.recommendation.reason;
  EXPECT_NE(a.recommendation.reason.find("could be up to"), std::string::npos)
      << a.recommendation.reason;
}

TEST(Placement, CountsDecidedAreNotLeftOpen) {
  // One inconclusive of three timed benchmarks would be "many inconclusive" (a quarter); its
  // counts decided (+36.5%), and its interval stays inside the threshold on the worse side.
  Results r;
  const Analysis a = read(r, {timed(Verdict::Inconclusive, -0.005, 0.012), counted(822, 1122),
                              timed(Verdict::Unchanged, 0.0, 0.005, "BM_B")});
  EXPECT_EQ(a.benchmarks[0].code_reading, CodeReading::CountsDecided);
  // The count's regression decides.
  EXPECT_EQ(a.recommendation.kind, RecommendationKind::DoNotMerge) << a.recommendation.reason;
  EXPECT_EQ(a.recommendation.reason.find("inconclusive"), std::string::npos)
      << a.recommendation.reason;
}

TEST(Placement, HotCodeRoundTripsThroughTheResultsFile) {
  Results r;
  r.base.sha = std::string(40, 'a');
  r.head.sha = std::string(40, 'b');
  CodeEvidence e = kMoved;
  HotFunction libc = hot("memcmp", 0, 0);
  libc.outside = true;
  libc.base_size = libc.head_size = 0;
  e.functions.push_back(libc);
  CodeEvidence missing = evidence({}, "BM_Unnamed");
  missing.missing = "a hot function has no name (0x401000)";
  r.hot_code = {e, missing};
  const std::string text = results_to_string(r);
  const Results back = results_from_string(text);
  ASSERT_EQ(back.hot_code.size(), 2u);
  EXPECT_EQ(back.hot_code[0].name, "BM_Contains");
  ASSERT_EQ(back.hot_code[0].functions.size(), 2u);
  const HotFunction& f = back.hot_code[0].functions[0];
  EXPECT_EQ(f.name, "roaring::contains(unsigned int)");
  EXPECT_EQ(f.base_address, 0x4010u);
  EXPECT_EQ(f.head_address, 0x4020u);
  EXPECT_EQ(f.shift(), 16);
  EXPECT_EQ(f.base_size, 120u);
  EXPECT_TRUE(f.identical);
  EXPECT_FALSE(f.outside);
  EXPECT_TRUE(back.hot_code[0].functions[1].outside);
  EXPECT_DOUBLE_EQ(back.hot_code[0].covered, 0.97);
  EXPECT_EQ(back.hot_code[1].missing, missing.missing);
  EXPECT_EQ(results_to_string(back), text);
  // A hostile file: a share out of range is an error, not a reading.
  std::string bad = text;
  bad.replace(bad.find("\"share\":0.95"), 12, "\"share\":7.00");
  EXPECT_THROW(results_from_string(bad), ResultsFormatError);
}

}  // namespace
}  // namespace benchpr
