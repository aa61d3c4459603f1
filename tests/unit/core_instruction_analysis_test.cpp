// Exact instruction counts: the verdict is the relative change against the threshold, and the
// notes say when time and instructions disagree. Hand-checked numbers.
#include <algorithm>
#include <string>

#include <gtest/gtest.h>

#include "benchpr/core/evidence/instruction_analysis.hpp"
#include "benchpr/core/verdicts/analysis.hpp"
#include "support/note_kinds.hpp"

namespace benchpr {
namespace {

BenchmarkSeries counts(double base, double head, const std::string& name = "BM_A") {
  BenchmarkSeries s;
  s.suite = instruction_suite_name("core");
  s.name = name;
  s.unit = "instructions";
  s.metric = std::string(kInstructionsMetric);
  if (base > 0) s.base = {base};
  if (head > 0) s.head = {head};
  return s;
}

TEST(InstructionAnalysis, ChangeAtOrAboveTheThresholdIsARegressionOrImprovement) {
  // 10300 / 10000 - 1 = +3%; 9950 / 10000 - 1 = -0.5% (exactly the threshold).
  const BenchmarkAnalysis up = analyse_instruction_series(counts(10000, 10300), 0.005);
  EXPECT_EQ(up.verdict, Verdict::Regression);
  EXPECT_NEAR(up.change, 0.03, 1e-12);
  EXPECT_EQ(up.ci_low, up.change);
  EXPECT_EQ(up.ci_high, up.change);
  EXPECT_TRUE(std::isnan(up.p));  // no test: nothing to correct for
  EXPECT_EQ(up.metric, "instructions");
  const BenchmarkAnalysis down = analyse_instruction_series(counts(10000, 9950), 0.005);
  EXPECT_EQ(down.verdict, Verdict::Improvement);
  EXPECT_NEAR(down.change, -0.005, 1e-12);
}

TEST(InstructionAnalysis, TwoCountsOfASideThatDisagreeAreANote) {
  // The check count (index 1) within half the 0.5% threshold: 10,020 / 10,000 - 1 = 0.2%, no
  // note; the PR's 10,500 against 10,300: 1.9% apart, a note naming the side and both counts.
  BenchmarkSeries s = counts(10000, 10300);
  s.base.push_back(10020);
  s.head.push_back(10500);
  const BenchmarkAnalysis a = analyse_instruction_series(s, 0.005);
  // +3% read from counts that differ by 1.9% within one side: 3% − 2 × 1.9% is short of the
  // threshold, so the count cannot decide it (see CountsThatAreNotRepeatable below).
  EXPECT_EQ(a.verdict, Verdict::Inconclusive);
  EXPECT_NEAR(a.change, 0.03, 1e-12);  // from the counts at index 0
  EXPECT_EQ(a.count_check.find("base"), std::string::npos) << a.count_check;
  EXPECT_NE(a.count_check.find("the PR's two counts differ by 1.9% (10300 and 10500"),
            std::string::npos)
      << a.count_check;
  Analysis analysis;
  analysis.benchmarks = {a};
  const std::vector<Note> notes = time_instruction_disagreements(analysis);
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_EQ(notes[0].kind, NoteKind::CountsDiffer) << notes[0].plain();
  EXPECT_EQ(testing::names_in(notes[0]), (std::vector<std::string>{"BM_A"}));
  s.head[1] = 10310;  // 0.1% apart: they agree
  EXPECT_TRUE(analyse_instruction_series(s, 0.005).count_check.empty());
}

// cctz's BM_Format_ParseTime/1 (02918d6 → 6921e4f): in one comparison each side's two counts
// agreed and the sides were 8.9% apart; in another one side's two counts were 4.3% apart. A base
// counted again after the PR's runs (index 2) that disagrees with itself by 8.9% decides nothing.
TEST(InstructionAnalysis, ABaseThatCountsOtherwiseAfterThePrDecidesNothing) {
  BenchmarkSeries drift = counts(1000, 1089);
  drift.base = {1000, 1001, 1089};
  drift.head = {1089, 1090};
  const BenchmarkAnalysis a = analyse_instruction_series(drift, 0.005);
  EXPECT_EQ(a.verdict, Verdict::Inconclusive) << a.reason;
  EXPECT_NE(a.count_check.find("the base's counts before and after the PR's differ by 8.9% (1000 "
                               "and 1089 instructions per iteration)"),
            std::string::npos)
      << a.count_check;
  // The base counted again agrees (1000.5, 0.05% off): the +8.9% is the PR's, and decides.
  drift.base[2] = 1000.5;
  const BenchmarkAnalysis b = analyse_instruction_series(drift, 0.005);
  EXPECT_EQ(b.verdict, Verdict::Regression);
  EXPECT_TRUE(b.count_check.empty()) << b.count_check;
  // Without its check (index 1 empty) the count made again still counts.
  drift.base = {1000, kMissing, 1089};
  EXPECT_EQ(analyse_instruction_series(drift, 0.005).verdict, Verdict::Inconclusive);
  // A drift small beside the change (1% against +8.9%): 8.9% − 2 × 1% still clears the
  // threshold, so the count decides and the note says how far the base moved.
  drift.base = {1000, 1001, 1010};
  const BenchmarkAnalysis c = analyse_instruction_series(drift, 0.005);
  EXPECT_EQ(c.verdict, Verdict::Regression);
  EXPECT_NE(c.count_check.find("differ by 1.0%"), std::string::npos) << c.count_check;
}

// cctz's BM_Zone_LoadTimeZoneCached (02918d6 → 6921e4f, whose code the PR did not touch): the
// PR's two counts were 340 and 333 instructions per iteration, the base's 333; read as exact,
// "+2.0%, regression" blocked the merge.
TEST(InstructionAnalysis, CountsThatAreNotRepeatableDecideOnlyAChangeClearOfTheirSpread) {
  BenchmarkSeries cached = counts(333, 340);
  cached.base.push_back(333);
  cached.head.push_back(333);
  const BenchmarkAnalysis a = analyse_instruction_series(cached, 0.005);
  EXPECT_EQ(a.verdict, Verdict::Inconclusive);
  EXPECT_NEAR(a.change, 340.0 / 333.0 - 1, 1e-12);  // +2.1%, shown as it is
  EXPECT_NE(a.reason.find("its counts are not repeatable (two counts of one side differ by 2.1%)"),
            std::string::npos)
      << a.reason;
  EXPECT_FALSE(a.count_check.empty());
  // The same varying work on both sides (cctz's BM_Format_ParseTime/1: 10,135 and 9,702 on
  // each): unchanged.
  BenchmarkSeries same = counts(10135, 10135);
  same.base.push_back(9702);
  same.head.push_back(9702);
  const BenchmarkAnalysis b = analyse_instruction_series(same, 0.005);
  EXPECT_EQ(b.verdict, Verdict::Unchanged);
  EXPECT_NE(b.reason.find("though not the same at every run"), std::string::npos) << b.reason;
  // A change far beyond the spread still decides: +30% with counts 1% apart (30 − 2 ≥ 0.5).
  BenchmarkSeries clear = counts(10000, 13000);
  clear.base.push_back(10100);
  clear.head.push_back(13000);
  EXPECT_EQ(analyse_instruction_series(clear, 0.005).verdict, Verdict::Regression);
  clear.head[0] = 7000;
  clear.head[1] = 7000;
  EXPECT_EQ(analyse_instruction_series(clear, 0.005).verdict, Verdict::Improvement);
}

TEST(InstructionAnalysis, BelowTheThresholdAndIdenticalAreUnchanged) {
  const BenchmarkAnalysis small = analyse_instruction_series(counts(10000, 10049), 0.005);
  EXPECT_EQ(small.verdict, Verdict::Unchanged);
  EXPECT_NEAR(small.change, 0.0049, 1e-12);
  const BenchmarkAnalysis same = analyse_instruction_series(counts(4017, 4017), 0.005);
  EXPECT_EQ(same.verdict, Verdict::Unchanged);
  EXPECT_EQ(same.change, 0.0);
  // A smaller threshold catches the 0.49%.
  EXPECT_EQ(analyse_instruction_series(counts(10000, 10049), 0.001).verdict, Verdict::Regression);
}

TEST(InstructionAnalysis, FailuresAddedAndRemoved) {
  BenchmarkSeries f = counts(10000, 0);
  f.head_failure = "Valgrind cannot run it: unhandled instruction bytes: 0x62";
  const BenchmarkAnalysis failed = analyse_instruction_series(f, 0.005);
  EXPECT_EQ(failed.verdict, Verdict::Failed);
  EXPECT_EQ(failed.reason, "PR: Valgrind cannot run it: unhandled instruction bytes: 0x62");
  EXPECT_EQ(analyse_instruction_series(counts(0, 100), 0.005).verdict, Verdict::Added);
  EXPECT_EQ(analyse_instruction_series(counts(100, 0), 0.005).verdict, Verdict::Removed);
  EXPECT_EQ(analyse_instruction_series(counts(0, 0), 0.005).verdict, Verdict::Failed);
}

// A session with the time series of BM_A and BM_B (10 rounds, the PR's time as given) and
// their instruction counts.
Results session(double a_time_factor, double a_instr, double b_time_factor, double b_instr) {
  Results r;
  r.config.rounds = 10;
  r.config.warmup_rounds = 0;
  r.config.threshold = 0.02;
  r.complete = true;
  for (int i = 0; i < 10; ++i) r.plan.push_back({i, false, i % 2 ? Side::Base : Side::Head});
  r.rounds_done = 10;
  auto time_series = [&](const std::string& name, double factor) {
    BenchmarkSeries s;
    s.suite = "core";
    s.name = name;
    s.unit = "ns";
    for (int i = 0; i < 10; ++i) {
      const double jitter = 1 + 0.001 * ((i * 7) % 5 - 2);
      s.base.push_back(100 * jitter);
      s.head.push_back(100 * factor * jitter * (1 + 0.0005 * (i % 3 - 1)));
    }
    return s;
  };
  r.series = {time_series("BM_A", a_time_factor), time_series("BM_B", b_time_factor),
              counts(10000, a_instr, "BM_A"), counts(10000, b_instr, "BM_B")};
  return r;
}

TEST(InstructionAnalysis, TakesNoPartInTheTimeFamilyAndDrivesTheRecommendation) {
  // Time flat for both; BM_B executes 3% more instructions.
  const Analysis a = analyse(session(1.0, 10000, 1.0, 10300));
  ASSERT_EQ(a.benchmarks.size(), 4u);
  EXPECT_EQ(a.benchmarks[2].verdict, Verdict::Unchanged);
  EXPECT_EQ(a.benchmarks[3].verdict, Verdict::Regression);
  EXPECT_EQ(a.recommendation.kind, RecommendationKind::DoNotMerge);
  EXPECT_NE(a.recommendation.reason.find("executes 3.0% more instructions per iteration"),
            std::string::npos)
      << a.recommendation.reason;
  EXPECT_EQ(a.recommendation.reason.find("95% CI"), std::string::npos) << a.recommendation.reason;
}

TEST(InstructionAnalysis, DisagreementsAreNoted) {
  // BM_A: time +30% (a sleep), instructions identical; BM_B: instructions +3%, time flat.
  const Analysis a = analyse(session(1.3, 10000, 1.0, 10300));
  ASSERT_EQ(a.benchmarks[0].verdict, Verdict::Regression);
  ASSERT_EQ(a.benchmarks[1].verdict, Verdict::Unchanged);
  // One note per benchmark whose time and count disagree, naming it.
  EXPECT_EQ(testing::names_in_notes(a.notes, NoteKind::TimeVsInstructions),
            (std::vector<std::vector<std::string>>{{"BM_A"}, {"BM_B"}}))
      << ::testing::PrintToString(plain_texts(a.notes));
  // Time and count in opposite directions, each way round, say which (cctz's NextWeekday: 4.3%
  // fewer instructions and 4.5% slower).
  const Analysis opposite = analyse(session(1.045, 9570, 0.95, 10300));
  ASSERT_EQ(opposite.benchmarks[0].verdict, Verdict::Regression);
  ASSERT_EQ(opposite.benchmarks[1].verdict, Verdict::Improvement);
  const std::vector<std::string> texts = plain_texts(opposite.notes);
  const auto has = [&](const std::string& text) {
    return std::any_of(texts.begin(), texts.end(),
                       [&](const std::string& t) { return t.find(text) != std::string::npos; });
  };
  EXPECT_TRUE(
      has("`BM_A`: instructions per iteration −4.3% but time 4.5% slower: fewer "
          "instructions are not always faster (memory, branches, vector width, where "
          "the code sits)."))
      << ::testing::PrintToString(texts);
  EXPECT_TRUE(
      has("`BM_B`: instructions per iteration +3.0% but time 5.0% faster: more "
          "instructions are not always slower"))
      << ::testing::PrintToString(texts);
  // Agreement says nothing.
  const Analysis quiet = analyse(session(1.0, 10000, 1.0, 10000));
  EXPECT_TRUE(testing::notes_of_kind(quiet.notes, NoteKind::TimeVsInstructions).empty())
      << ::testing::PrintToString(plain_texts(quiet.notes));
  EXPECT_TRUE(testing::notes_of_kind(quiet.notes, NoteKind::CountsDiffer).empty())
      << ::testing::PrintToString(plain_texts(quiet.notes));
}

}  // namespace
}  // namespace benchpr
