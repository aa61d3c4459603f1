#include <gtest/gtest.h>

#include "benchpr/app/actions_report.hpp"
#include "benchpr/app/report_output.hpp"

namespace benchpr::app {
namespace {

BenchmarkAnalysis bench(const std::string& name, Verdict v, double change = kMissing,
                        double lo = kMissing, double hi = kMissing) {
  BenchmarkAnalysis b;
  b.suite = "core";
  b.name = name;
  b.verdict = v;
  b.change = change;
  b.ci_low = lo;
  b.ci_high = hi;
  return b;
}

Analysis sample() {
  Analysis a;
  a.benchmarks = {bench("BM_Tls/4096", Verdict::Regression, 0.075, 0.041, 0.108),
                  bench("BM_Copy", Verdict::Improvement),
                  bench("BM_A", Verdict::Inconclusive),
                  bench("BM_B", Verdict::Inconclusive),
                  bench("BM_C", Verdict::Failed),
                  bench("BM_D", Verdict::Unchanged)};
  a.recommendation.kind = RecommendationKind::DoNotMerge;
  return a;
}

TEST(AppActionsReport, OutputsCountVerdicts) {
  const auto outputs = step_outputs(sample(), "/w/results.json", "https://c/1");
  const std::vector<std::pair<std::string, std::string>> expected = {
      {"recommendation", "do-not-merge"},
      {"regressions", "1"},
      {"improvements", "1"},
      {"inconclusive", "2"},
      {"failed", "1"},
      {"results", "/w/results.json"},
      {"comment-url", "https://c/1"}};
  EXPECT_EQ(outputs, expected);
}

TEST(AppActionsReport, OneWarningPerRegressionWithItsInterval) {
  const auto lines = regression_annotations(sample());
  ASSERT_EQ(lines.size(), 1u);
  // '%' is escaped as %25 in workflow commands; the runner shows "+7.5%".
  EXPECT_EQ(lines[0],
            "::warning title=benchpr regression::BM_Tls/4096 (core) regressed: change +7.5%25 "
            "(95%25 CI +4.1%25 to +10.8%25)");
}

// GitHub shows 10 warnings per step: the 11th and later are counted in one notice instead of
// vanishing.
TEST(AppActionsReport, AtMostTenWarningsThenANoticeCountingTheRest) {
  Analysis a;
  for (int i = 0; i < 13; ++i)
    a.benchmarks.push_back(bench("BM_" + std::to_string(i), Verdict::Regression, 0.5));
  a.benchmarks.push_back(bench("BM_Fine", Verdict::Unchanged));
  const auto lines = regression_annotations(a);
  ASSERT_EQ(lines.size(), 11u);
  for (int i = 0; i < 10; ++i) EXPECT_TRUE(lines[i].starts_with("::warning ")) << lines[i];
  EXPECT_EQ(lines[10],
            "::notice::benchpr: 3 more regressions not annotated (GitHub shows 10 warnings per "
            "step); the comment and the job summary list every one");
  a.benchmarks.resize(10);
  EXPECT_EQ(regression_annotations(a).size(), 10u) << "exactly ten need no notice";
}

TEST(AppActionsReport, NamesCannotEndTheAnnotationOrStartANewLine) {
  Analysis a;
  a.benchmarks = {bench("BM_X\n::error::owned", Verdict::Regression, 0.5)};
  const auto lines = regression_annotations(a);
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_EQ(lines[0].find('\n'), std::string::npos);
  EXPECT_NE(lines[0].find("BM_X%0A::error::owned"), std::string::npos) << lines[0];
}

TEST(AppActionsReport, ComparisonNoteNamesBothRevisionsOfAPullRequest) {
  Results r;
  r.base = {"merge base of main", "1111111aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", "", true};
  r.head = {"pull/7 head", "2222222bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb", ""};
  EXPECT_EQ(comparison_note(r), "");  // local comparisons: the footer's SHAs say it
  r.pull_request = PullRequestInfo{};
  EXPECT_EQ(comparison_note(r),
            "Compared pull/7 head (2222222) against the merge base of main (1111111).");
  r.base.spec = "main";
  r.base.merge_base = false;
  EXPECT_EQ(comparison_note(r), "Compared pull/7 head (2222222) against main (1111111).");
}

}  // namespace
}  // namespace benchpr::app
