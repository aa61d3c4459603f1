// Counts nobody asked for that failed are a note, and their benchmarks are judged by time;
// counts that were asked for and failed stay failures. Hand-made results.
#include <string>

#include <gtest/gtest.h>

#include "benchpr/core/adaptive/session_analysis.hpp"
#include "benchpr/core/evidence/default_counts.hpp"
#include "benchpr/core/evidence/instruction_analysis.hpp"
#include "support/note_kinds.hpp"

namespace benchpr {
namespace {

BenchmarkSeries count(const std::string& name, double base, double head,
                      const std::string& head_failure = "") {
  BenchmarkSeries s;
  s.suite = instruction_suite_name("core");
  s.name = name;
  s.unit = "instructions";
  s.metric = std::string(kInstructionsMetric);
  s.base = {base};
  if (head > 0) s.head = {head};
  s.head_failure = head_failure;
  if (!head_failure.empty()) s.head_failure_kind = FailureKind::Signal;
  return s;
}

Results results_with(InstructionCounting counting, bool suite_asks) {
  Results r;
  SuiteConfig core;
  core.name = "core";
  core.instructions = suite_asks;
  r.config.suites = {core};
  r.config.instructions = counting;
  const std::string sigill = "Valgrind cannot run it: unhandled instruction bytes: 0x62";
  r.series = {count("BM_Counted", 100, 103), count("BM_Avx1", 50, 0, sigill),
              count("BM_Avx2", 60, 0, sigill), count("BM_Late", 70, 0, "not counted: late")};
  RunRecord failed;
  failed.suite = instruction_suite_name("core");
  failed.side = Side::Head;
  failed.ok = false;
  failed.failure = "BM_Avx1: " + sigill;
  RunRecord fine = failed;
  fine.ok = true;
  fine.failure.clear();
  r.runs = {failed, fine};
  return r;
}

TEST(DefaultCounts, FailedCountsNobodyAskedForAreOneNoteGroupedByReason) {
  const WithoutFailedDefaultCounts w =
      without_failed_default_counts(results_with(InstructionCounting::ByDefault, false));
  ASSERT_EQ(w.results.series.size(), 1u);
  EXPECT_EQ(w.results.series[0].name, "BM_Counted");
  ASSERT_EQ(w.results.runs.size(), 1u);  // the failed count's run record is gone too
  EXPECT_TRUE(w.results.runs[0].ok);
  ASSERT_TRUE(w.note);
  EXPECT_EQ(w.note->plain(),
            "Instructions were not counted for 3 benchmarks (counting is on by default; it was "
            "not asked for, so these are judged by their time alone): `BM_Avx1`, `BM_Avx2`: "
            "Valgrind cannot run it: unhandled instruction bytes: 0x62; `BM_Late`: not counted: "
            "late.");
}

TEST(DefaultCounts, CountsThatWereAskedForKeepTheirFailures) {
  for (const auto& [counting, suite_asks] :
       {std::pair{InstructionCounting::On, false}, std::pair{InstructionCounting::ByDefault, true},
        std::pair{InstructionCounting::Off, true}}) {
    const Results r = results_with(counting, suite_asks);
    const WithoutFailedDefaultCounts w = without_failed_default_counts(r);
    EXPECT_EQ(w.results.series.size(), 4u);
    EXPECT_EQ(w.results.runs.size(), 2u);
    EXPECT_FALSE(w.note);
  }
}

TEST(DefaultCounts, TheSessionsReadingHasNoFailedCountAndSaysWhy) {
  const Analysis by_default = analyse_session(results_with(InstructionCounting::ByDefault, false));
  for (const BenchmarkAnalysis& b : by_default.benchmarks) EXPECT_NE(b.verdict, Verdict::Failed);
  // One note naming the three benchmarks whose counts were dropped.
  EXPECT_EQ(testing::names_in_notes(by_default.notes, NoteKind::CountsNotMade),
            (std::vector<std::vector<std::string>>{{"BM_Avx1", "BM_Avx2", "BM_Late"}}))
      << ::testing::PrintToString(plain_texts(by_default.notes));
  const Analysis asked = analyse_session(results_with(InstructionCounting::On, false));
  int failed = 0;
  for (const BenchmarkAnalysis& b : asked.benchmarks) failed += b.verdict == Verdict::Failed;
  EXPECT_EQ(failed, 3);
}

}  // namespace
}  // namespace benchpr
