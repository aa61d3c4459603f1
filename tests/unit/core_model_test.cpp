// Results made from another's keep what says which comparison it is, and nothing measured.
#include <gtest/gtest.h>

#include "benchpr/core/model/model.hpp"

namespace benchpr {
namespace {

TEST(SameComparison, KeepsWhatNamesTheComparisonAndNothingMeasured) {
  Results r;
  r.tool_version = "1.2.3";
  r.origin = Origin::Executables;
  r.base = {"./a", "", "sha256 0123"};
  r.head = {"./b", "", "sha256 4567"};
  r.config.threshold = 0.05;
  r.machine.cpu = "test cpu";
  r.pull_request = PullRequestInfo{};
  r.pull_request->number = 7;
  r.config_changed_by_head = true;
  r.seed = 42;
  r.workflow_run_url = "https://github.com/o/r/actions/runs/1";
  r.plan = {RoundPlan{}};
  r.series = {BenchmarkSeries{}};
  r.runs = {RunRecord{}};
  r.rounds_done = 1;
  r.complete = true;
  r.stop = {StopKind::PlanDone, 1, {}};

  const Results s = same_comparison(r);
  EXPECT_EQ(s.tool_version, "1.2.3");
  EXPECT_EQ(s.origin, Origin::Executables);
  EXPECT_EQ(s.base.spec, "./a");
  EXPECT_EQ(s.head.subject, "sha256 4567");
  EXPECT_EQ(s.config.threshold, 0.05);
  EXPECT_EQ(s.machine.cpu, "test cpu");
  ASSERT_TRUE(s.pull_request);
  EXPECT_EQ(s.pull_request->number, 7);
  EXPECT_TRUE(s.config_changed_by_head);
  EXPECT_EQ(s.seed, 42u);
  EXPECT_EQ(s.workflow_run_url, r.workflow_run_url);
  EXPECT_TRUE(s.plan.empty());
  EXPECT_TRUE(s.series.empty());
  EXPECT_TRUE(s.runs.empty());
  EXPECT_EQ(s.rounds_done, 0);
  EXPECT_FALSE(s.complete);
  EXPECT_TRUE(s.stop.empty());
}

}  // namespace
}  // namespace benchpr
