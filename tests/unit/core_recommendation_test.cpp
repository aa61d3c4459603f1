// The performance-claim rule of the recommendation: which titles and labels present a pull
// request as a performance change, and what the comment then says.
#include "benchpr/core/verdicts/recommendation.hpp"

#include <optional>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "benchpr/core/evidence/instruction_analysis.hpp"

namespace benchpr {
namespace {

PullRequestInfo pr(std::string title, std::vector<std::string> labels = {}) {
  PullRequestInfo p;
  p.number = 1;
  p.repo = "o/r";
  p.title = std::move(title);
  p.labels = std::move(labels);
  return p;
}

std::string quoted(const PullRequestInfo& p) {
  const auto c = performance_claim(p);
  return c ? c->quoted : "";
}

TEST(PerformanceClaim, ConventionalCommitTagsAtTheStart) {
  EXPECT_EQ(quoted(pr("perf: batch ciphertext input")), "perf:");
  EXPECT_EQ(quoted(pr("Perf(tls): batch input")), "perf(tls):");
  EXPECT_EQ(quoted(pr("perf!: drop the slow path")), "perf!:");
  EXPECT_EQ(quoted(pr("  perf: leading blanks")), "perf:");
  EXPECT_EQ(performance_claim(pr("perf: x"))->what, "its title starts with");
}

TEST(PerformanceClaim, BracketTagAnywhere) {
  EXPECT_EQ(quoted(pr("[perf] batch input")), "[perf]");
  EXPECT_EQ(quoted(pr("tls: [PERF] batch input")), "[perf]");
  EXPECT_EQ(performance_claim(pr("[perf] x"))->what, "its title has the tag");
}

TEST(PerformanceClaim, WholeWordsAnywhereInTheTitle) {
  EXPECT_EQ(quoted(pr("Improve parser performance")), "performance");
  EXPECT_EQ(quoted(pr("Make hashing faster")), "faster");
  EXPECT_EQ(quoted(pr("Speed up the allocator")), "speed up");
  EXPECT_EQ(quoted(pr("Speed-up for small inputs")), "speed up");
  EXPECT_EQ(quoted(pr("2x speedup in the tokenizer")), "speedup");
  EXPECT_EQ(performance_claim(pr("Make hashing faster"))->what, "its title says");
}

TEST(PerformanceClaim, PrefixesAndLookAlikesClaimNothing) {
  EXPECT_FALSE(performance_claim(pr("Perfect the README wording")).has_value());
  EXPECT_FALSE(performance_claim(pr("perform cleanup on exit")).has_value());
  EXPECT_FALSE(performance_claim(pr("perf stat support in the runner script")).has_value());
  EXPECT_FALSE(performance_claim(pr("perfunctory: typo")).has_value());
  EXPECT_FALSE(performance_claim(pr("perf(unclosed: scope")).has_value());
  EXPECT_FALSE(performance_claim(pr("Fix speedometer widget")).has_value());
  EXPECT_FALSE(performance_claim(pr("Speed limits for uploads")).has_value());
  EXPECT_FALSE(performance_claim(pr("fasterxml dependency bump")).has_value());
  EXPECT_FALSE(performance_claim(pr("")).has_value());
}

TEST(PerformanceClaim, RevertsClaimNothing) {
  EXPECT_FALSE(performance_claim(pr("Revert \"perf: batch ciphertext input\"")).has_value());
  EXPECT_FALSE(performance_claim(pr("Revert faster hashing")).has_value());
  // A label is the author's explicit statement, and still counts on a revert.
  EXPECT_TRUE(performance_claim(pr("Revert \"perf: x\"", {"performance"})).has_value());
}

TEST(PerformanceClaim, LabelsByWord) {
  EXPECT_EQ(quoted(pr("Batch input", {"Performance"})), "Performance");
  EXPECT_EQ(quoted(pr("Batch input", {"bug", "type: perf"})), "type: perf");
  EXPECT_EQ(quoted(pr("Batch input", {"area/performance"})), "area/performance");
  EXPECT_EQ(performance_claim(pr("Batch input", {"perf"}))->what, "it has the label");
  EXPECT_FALSE(performance_claim(pr("Batch input", {"perfect-first-issue", "docs"})).has_value());
}

Results results_with(const PullRequestInfo& p) {
  Results r;
  r.config.threshold = 0.02;
  r.pull_request = p;
  return r;
}

Analysis unchanged_analysis() {
  Analysis a;
  BenchmarkAnalysis b;
  b.suite = "s";
  b.name = "BM_A";
  b.verdict = Verdict::Unchanged;
  b.change = 0.001;
  a.benchmarks.push_back(b);
  return a;
}

TEST(Recommendation, PerformanceClaimWithoutImprovementSaysWhyItMatters) {
  const Recommendation r = recommend(results_with(pr("Make hashing faster")), unchanged_analysis());
  EXPECT_EQ(r.kind, RecommendationKind::DoNotMerge);
  EXPECT_NE(r.reason.find("(its title says `faster`)"), std::string::npos) << r.reason;
  EXPECT_NE(r.reason.find("not as a performance change on the current evidence"),
            std::string::npos);
  // The quoted word is a code part, so the renderer escapes it as code.
  bool code = false;
  for (const TextPart& p : r.reason_parts) code |= p.code && p.text == "faster";
  EXPECT_TRUE(code);
}

TEST(Recommendation, NoClaimNoEffectIsAMerge) {
  const Recommendation r =
      recommend(results_with(pr("Perfect the README wording")), unchanged_analysis());
  EXPECT_EQ(r.kind, RecommendationKind::Merge) << r.reason;
}

// The order warning with every benchmark decided: the verdicts stand (they were reached over
// balanced AB/BA rounds), so the recommendation follows them instead of "0 of 2 are
// inconclusive".
TEST(Recommendation, OrderWarningWithNothingUndecidedFollowsTheVerdicts) {
  Analysis a = unchanged_analysis();
  BenchmarkAnalysis b = a.benchmarks.front();
  b.name = "BM_B";
  b.flags = {BenchmarkFlag::Order};
  a.benchmarks.front().flags = {BenchmarkFlag::Order};
  a.benchmarks.push_back(b);
  a.order_warning = true;
  const Recommendation r = recommend(results_with(pr("Tidy the parser")), a);
  EXPECT_EQ(r.kind, RecommendationKind::Merge) << r.reason;
  EXPECT_EQ(r.reason.find("inconclusive"), std::string::npos) << r.reason;

  // One of them undecided: then the order is the story.
  a.benchmarks.back().verdict = Verdict::Inconclusive;
  a.benchmarks.back().reason = "the sign follows run order: position effects dominate";
  const Recommendation open = recommend(results_with(pr("Tidy the parser")), a);
  EXPECT_EQ(open.kind, RecommendationKind::Inconclusive) << open.reason;
  EXPECT_NE(open.reason.find("1 of 2 benchmarks are inconclusive"), std::string::npos)
      << open.reason;
  EXPECT_NE(open.reason.find("the sign follows run order"), std::string::npos) << open.reason;
}

// Five unchanged benchmarks beside BM_X, inconclusive: its estimate `change`, its 95% CI, and the
// reason analyse() gives a change the family's correction did not confirm.
Analysis with_inconclusive(double change, double ci_low, double ci_high) {
  Analysis a;
  for (int i = 0; i < 5; ++i) {
    BenchmarkAnalysis b;
    b.suite = "s";
    b.name = "BM_" + std::to_string(i);
    b.verdict = Verdict::Unchanged;
    b.change = 0.001;
    b.ci_low = -0.01;
    b.ci_high = 0.01;
    b.threshold = 0.02;
    a.benchmarks.push_back(b);
  }
  BenchmarkAnalysis x;
  x.suite = "s";
  x.name = "BM_X";
  x.verdict = Verdict::Inconclusive;
  x.change = change;
  x.ci_low = ci_low;
  x.ci_high = ci_high;
  x.threshold = 0.02;
  x.rounds_used = 10;
  x.rounds_needed = 18;
  x.reason = "not significant after correcting for 6 benchmarks (p 0.020, corrected 0.120)";
  a.benchmarks.push_back(x);
  return a;
}

// An inconclusive slowdown whose estimate reads at the threshold is no plain merge: the
// headline says what is known (the estimate, its interval, why it is open) and how many more
// rounds would settle it (18 needed, 10 ran: 8 more). The numbers: +2.4% reads "2.4% slower",
// the interval "−0.3 … +5.2%" (up to two significant digits below 1%, one decimal above).
TEST(Recommendation, AnInconclusiveSlowdownAtTheThresholdIsNoPlainMerge) {
  const Recommendation r =
      recommend(results_with(pr("Tidy the parser")), with_inconclusive(0.024, -0.003, 0.052));
  EXPECT_EQ(r.kind, RecommendationKind::Inconclusive) << r.reason;
  EXPECT_EQ(r.reason,
            "`BM_X` is 2.4% slower by its estimate (95% CI \u22120.3 \u2026 +5.2%), inconclusive: "
            "not significant after correcting for 6 benchmarks (p 0.020, corrected 0.120); "
            "whether it exceeds the 2.0% threshold is not settled: about 8 more rounds would "
            "settle it.");
  // 1.97% is written "2.0%", level with the threshold: held back too.
  EXPECT_EQ(
      recommend(results_with(pr("Tidy the parser")), with_inconclusive(0.0197, -0.01, 0.05)).kind,
      RecommendationKind::Inconclusive);
  // 1.94% reads "1.9%": below the threshold, and the run still merges.
  EXPECT_EQ(
      recommend(results_with(pr("Tidy the parser")), with_inconclusive(0.0194, -0.01, 0.05)).kind,
      RecommendationKind::Merge);
}

// A count whose two runs of one side disagree ("its time decides") leaves the benchmark to its
// time row: with that row decided, the count does not hold the headline (a placement-only
// relink of cctz: LoadAllTimeZonesFirst's counts +8.7% between the sides, 8.7% within one, its
// time unchanged). A benchmark only counted, or whose count is exact, still does.
TEST(Recommendation, ACountThatIsNotRepeatableDefersToItsDecidedTimeRow) {
  Analysis a = with_inconclusive(0.087, 0.087, 0.087);
  BenchmarkAnalysis& count = a.benchmarks.back();
  count.suite = instruction_suite_name("s");
  count.metric = kInstructionsMetric;
  count.count_check =
      ": the base's two counts differ by 8.7% (843834 and 769981 instructions "
      "per iteration): its loop does not do the same work at every run, so its "
      "count is not exact.";
  count.reason =
      "its counts are not repeatable (two counts of one side differ by 8.7%), so a "
      "change of 8.7% cannot be read from them: its time decides";
  BenchmarkAnalysis time = a.benchmarks.front();
  time.name = "BM_X";
  a.benchmarks.push_back(time);
  const Recommendation r = recommend(results_with(pr("Relink")), a);
  EXPECT_EQ(r.kind, RecommendationKind::Merge) << r.reason;
  // Every benchmark is still counted among those compared.
  EXPECT_NE(r.reason.find("6 of 7"), std::string::npos) << r.reason;

  // Its time row undecided and reading +2.4%: the time row holds the headline.
  a.benchmarks.back().verdict = Verdict::Inconclusive;
  a.benchmarks.back().change = 0.024;
  a.benchmarks.back().rounds_used = 10;
  a.benchmarks.back().rounds_needed = 18;
  const Recommendation open = recommend(results_with(pr("Relink")), a);
  EXPECT_EQ(open.kind, RecommendationKind::Inconclusive) << open.reason;
  EXPECT_EQ(open.reason.find("(instructions)"), std::string::npos) << open.reason;

  // No time row: the count is all there is, and it stays open.
  a.benchmarks.pop_back();
  EXPECT_EQ(recommend(results_with(pr("Relink")), a).kind, RecommendationKind::Inconclusive);
  // An exact count (no disagreement) that is inconclusive is not set aside either.
  a.benchmarks.push_back(time);
  a.benchmarks[a.benchmarks.size() - 2].count_check.clear();
  EXPECT_EQ(recommend(results_with(pr("Relink")), a).kind, RecommendationKind::Inconclusive);
}

// A faster estimate at the threshold still merges (nothing got worse), but the sentence no
// longer claims that no benchmark changed by 2.0%.
TEST(Recommendation, AnInconclusiveSpeedUpAtTheThresholdMergesAndSaysItIsOpen) {
  const Recommendation r =
      recommend(results_with(pr("Tidy the parser")), with_inconclusive(-0.024, -0.052, 0.003));
  EXPECT_EQ(r.kind, RecommendationKind::Merge) << r.reason;
  EXPECT_EQ(r.reason.rfind("No regressions. `BM_X` is 2.4% faster by its estimate", 0), 0u)
      << r.reason;
  EXPECT_NE(r.reason.find("whether it exceeds the 2.0% threshold is not settled"),
            std::string::npos)
      << r.reason;
}

TEST(Recommendation, FailedBuildsComeFirstAndAreNamedBySide) {
  Results r = results_with(pr("Make hashing faster"));
  for (const Side side : {Side::Base, Side::Head}) {
    BuildResult b;
    b.side = side;
    b.ok = false;
    b.failure = side == Side::Base ? "exit code 2" : "timed out";
    r.builds.push_back(b);
  }
  const Recommendation rec = recommend(r, unchanged_analysis());
  EXPECT_EQ(rec.kind, RecommendationKind::Failed);
  EXPECT_EQ(rec.reason,
            "The base revision failed to build (exit code 2); The pull request failed to build "
            "(timed out): nothing could be compared.");
}

BenchmarkAnalysis failed(std::string name, std::string reason) {
  BenchmarkAnalysis b;
  b.suite = "s";
  b.name = std::move(name);
  b.verdict = Verdict::Failed;
  b.change = kMissing;
  b.reason = std::move(reason);
  return b;
}

// A failed benchmark beside compared ones: the headline reads the compared ones as it would
// without the failure and names what failed, instead of "Could not compare.". What would be a
// merge is `failed`, marked incomplete (its title says so): what failed may be what the pull
// request broke.
TEST(Recommendation, AFailureBesideComparedBenchmarksKeepsTheirReadingAndNamesIt) {
  Analysis a = unchanged_analysis();
  const Recommendation without = recommend(results_with(pr("Tidy the parser")), a);
  ASSERT_EQ(without.kind, RecommendationKind::Merge);
  EXPECT_FALSE(without.incomplete);
  a.benchmarks.push_back(failed("BM_Crash", "PR: killed by signal 11 (SIGSEGV)"));
  const Recommendation with = recommend(results_with(pr("Tidy the parser")), a);
  EXPECT_EQ(with.kind, RecommendationKind::Failed) << with.reason;
  EXPECT_TRUE(with.incomplete);
  EXPECT_EQ(with.reason, without.reason +
                             " 1 benchmark failed and is not in this reading: `BM_Crash` (PR: "
                             "killed by signal 11 (SIGSEGV)).");
  // The failed benchmark's name is a code part, escaped as code by the renderer.
  bool code = false;
  for (const TextPart& p : with.reason_parts) code |= p.code && p.text == "BM_Crash";
  EXPECT_TRUE(code);

  // Beside a regression, as beside anything else: the count, then the first three names.
  a.benchmarks.front().verdict = Verdict::Regression;
  a.benchmarks.front().change = 0.1;
  for (const char* name : {"BM_F2", "BM_F3", "BM_F4"}) a.benchmarks.push_back(failed(name, ""));
  const Recommendation blocked = recommend(results_with(pr("Tidy the parser")), a);
  EXPECT_EQ(blocked.kind, RecommendationKind::DoNotMerge);
  EXPECT_TRUE(blocked.incomplete);
  EXPECT_NE(blocked.reason.find(". 4 benchmarks failed and are not in this reading: `BM_Crash` "
                                "(PR: killed by signal 11 (SIGSEGV)); `BM_F2`; `BM_F3` (and 1 "
                                "more)."),
            std::string::npos)
      << blocked.reason;

  // An inconclusive reading stays inconclusive, the failures named.
  a.benchmarks.front().verdict = Verdict::Inconclusive;
  a.benchmarks.front().reason = "not significant";
  const Recommendation open = recommend(results_with(pr("Tidy the parser")), a);
  EXPECT_EQ(open.kind, RecommendationKind::Inconclusive) << open.reason;
  EXPECT_TRUE(open.incomplete);
  EXPECT_NE(open.reason.find(" 4 benchmarks failed and are not in this reading: "),
            std::string::npos)
      << open.reason;
}

// "Could not compare" only when nothing compared.
TEST(Recommendation, BenchmarksThatAllFailedAreNothingCompared) {
  Analysis a;
  a.benchmarks.push_back(failed("BM_Crash", "PR: killed by signal 11 (SIGSEGV)"));
  Recommendation r = recommend(results_with(pr("Tidy the parser")), a);
  EXPECT_EQ(r.kind, RecommendationKind::Failed);
  EXPECT_FALSE(r.incomplete);
  EXPECT_EQ(r.reason,
            "The only benchmark to compare failed: `BM_Crash` (PR: killed by signal 11 "
            "(SIGSEGV)); nothing could be compared.");
  a.benchmarks.push_back(failed("BM_Hang", "timed out"));
  BenchmarkAnalysis added = unchanged_analysis().benchmarks.front();
  added.verdict = Verdict::Added;
  a.benchmarks.push_back(added);
  r = recommend(results_with(pr("Tidy the parser")), a);
  EXPECT_EQ(r.kind, RecommendationKind::Failed);
  EXPECT_EQ(r.reason,
            "All 2 benchmarks failed: `BM_Crash` (PR: killed by signal 11 (SIGSEGV)); `BM_Hang` "
            "(timed out); nothing could be compared.");
}

// Interrupted before any analysed round finished: no benchmark failed, none was measured yet,
// and the headline says that with the reason, instead of "All 3 benchmarks failed".
TEST(Recommendation, AComparisonStoppedBeforeAnyRoundSaysSoInsteadOfListingFailures) {
  Results results = results_with(pr("Tidy the parser"));
  results.complete = false;
  results.stop = {StopKind::Interrupted, 0,
                  "by SIGTERM in warm-up round 1, 7m12s into the "
                  "base's run of micro"};
  Analysis a;
  for (const char* name : {"BM_A", "BM_B", "BM_C"}) {
    a.benchmarks.push_back(failed(name, "no analysed round has run"));
    a.benchmarks.back().failure = FailureKind::NotMeasured;
  }
  const Recommendation r = recommend(results, a);
  EXPECT_EQ(r.kind, RecommendationKind::Failed);
  EXPECT_EQ(r.reason,
            "The comparison stopped before any round finished (interrupted by SIGTERM in warm-up "
            "round 1, 7m12s into the base's run of micro): none of the 3 benchmarks was measured, "
            "so nothing could be compared.");
  // A finished comparison, or a real failure among them, is read as before.
  results.complete = true;
  EXPECT_EQ(recommend(results, a).reason.rfind("All 3 benchmarks failed: ", 0), 0u);
  results.complete = false;
  a.benchmarks.back().failure = FailureKind::Signal;
  EXPECT_EQ(recommend(results, a).reason.rfind("All 3 benchmarks failed: ", 0), 0u);
}

TEST(Recommendation, OnlyAddedAndRemovedBenchmarksAreNothingCompared) {
  Analysis a = unchanged_analysis();
  a.benchmarks.front().verdict = Verdict::Added;
  BenchmarkAnalysis removed = a.benchmarks.front();
  removed.name = "BM_Old";
  removed.verdict = Verdict::Removed;
  a.benchmarks.push_back(removed);
  const Recommendation rec = recommend(results_with(pr("Tidy the parser")), a);
  EXPECT_EQ(rec.kind, RecommendationKind::Inconclusive);
  EXPECT_EQ(rec.reason, "No benchmark could be compared between the two revisions.");
}

}  // namespace
}  // namespace benchpr
