// Why a comparison stopped, as data: each kind's sentence (hand-written), the name table, and the
// results file keeping the kind while older files keep their sentence.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "benchpr/core/model/stop_reason.hpp"
#include "benchpr/core/results_file/results_json.hpp"

namespace benchpr {
namespace {

TEST(StopReason, EachKindHasItsSentence) {
  EXPECT_EQ(describe({StopKind::PlanDone, 9, {}}), "all 9 rounds done");
  EXPECT_EQ(describe({StopKind::Decided, 12, {}}), "every benchmark was decided after 12 rounds");
  EXPECT_EQ(describe({StopKind::CannotSettle, 2, {}}),
            "the 2 still open could not settle in the rounds the budget affords");
  EXPECT_EQ(describe({StopKind::MostRounds, 30, {}}), "30 rounds, the most the plan looks at");
  EXPECT_EQ(describe({StopKind::BudgetSpent, 0, {}}), "the budget was spent");
  EXPECT_EQ(describe({StopKind::BudgetSpent, 0, "1m left, a comparison takes about 2m"}),
            "the budget was spent (1m left, a comparison takes about 2m)");
  EXPECT_EQ(describe({StopKind::Interrupted, 0, {}}), "interrupted");
  EXPECT_EQ(describe({StopKind::Interrupted, 0,
                      "by SIGTERM in round 3, 4s into the PR's run of "
                      "micro"}),
            "interrupted by SIGTERM in round 3, 4s into the PR's run of micro");
  EXPECT_EQ(describe({StopKind::Void, 0, "x changed after its build"}),
            "x changed after its build");
  EXPECT_EQ(describe({StopKind::BuildFailed, 0, {}}), "build failed");
  EXPECT_EQ(describe({StopKind::IdenticalPrograms, 0, {}}),
            "the benchmark programs are byte-identical: no rounds to run");
  EXPECT_EQ(describe({StopKind::CountsOnly, 0, {}}), "instruction counts done");
  EXPECT_EQ(describe({StopKind::ReadFromFiles, 0, "2 base and 3 PR runs"}),
            "read 2 base and 3 PR runs from files");
  EXPECT_EQ(describe({StopKind::ShardsMerged, 4, {}}), "4 shards merged, all complete");
  EXPECT_EQ(describe({StopKind::StepsDone, 0, {}}), "every step needed was measured");
  EXPECT_EQ(describe({}), "");
  EXPECT_TRUE(StopReason{}.empty());
  EXPECT_FALSE((StopReason{StopKind::BuildFailed, 0, {}}.empty()));
}

TEST(StopReason, EveryKindHasOneNameThatParsesBack) {
  const std::vector<std::string> names = kStopKindNames.names();
  EXPECT_EQ(names.size(), 16u);
  for (const std::string& n : names) {
    const std::optional<StopKind> k = kStopKindNames.parse(n);
    ASSERT_TRUE(k) << n;
    EXPECT_EQ(kStopKindNames.name(*k), n);
  }
  EXPECT_FALSE(kStopKindNames.parse("the budget was spent"));
}

Results sample(const StopReason& stop) {
  Results r;
  r.tool_version = "test";
  r.base.sha = std::string(40, 'a');
  r.head.sha = std::string(40, 'b');
  r.config.rounds = 2;
  r.complete = false;
  r.stop = stop;
  return r;
}

TEST(StopReason, TheResultsFileKeepsTheKindBesideTheSentence) {
  const StopReason void_stop{StopKind::Void, 0, "`bench` changed after its build"};
  const std::string text = results_to_string(sample(void_stop));
  const nlohmann::json j = nlohmann::json::parse(text);
  EXPECT_EQ(j["stop_reason"], "`bench` changed after its build");
  EXPECT_EQ(j["stop"]["kind"], "void");
  EXPECT_EQ(results_from_json(j).stop, void_stop);
}

TEST(StopReason, AFileWithoutTheKindKeepsItsSentenceAsUnknown) {
  nlohmann::json j = nlohmann::json::parse(results_to_string(sample({StopKind::PlanDone, 8, {}})));
  j.erase("stop");
  const Results old = results_from_json(j);
  EXPECT_EQ(old.stop.kind, StopKind::Unknown);
  EXPECT_EQ(describe(old.stop), "all 8 rounds done");
  // A kind this version does not know reads the same way.
  j["stop"] = {{"kind", "some-later-kind"}, {"count", 1}, {"detail", "x"}};
  EXPECT_EQ(results_from_json(j).stop, (StopReason{StopKind::Unknown, 0, "all 8 rounds done"}));
}

}  // namespace
}  // namespace benchpr
