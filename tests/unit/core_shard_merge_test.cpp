// `benchpr merge`: shard results of one comparison join into one; anything else is refused with
// the file and the mismatch named; a missing shard leaves a partial comparison that lists what
// was not measured.
#include <gtest/gtest.h>

#include <functional>
#include <string>

#include "benchpr/core/adaptive/session_analysis.hpp"
#include "benchpr/core/plan/schedule.hpp"
#include "benchpr/core/results_file/results_json.hpp"
#include "benchpr/core/results_file/shard_merge.hpp"

namespace benchpr {
namespace {

const std::string kBase(40, 'a');
const std::string kHead(40, 'b');

// Shard `index` of 3 over four benchmarks: BM_A and BM_D on 1, BM_B on 2, BM_C on 3.
Results shard(int index) {
  Results r;
  r.base = {"main", kBase, ""};
  r.head = {"pr", kHead, ""};
  r.config.rounds = 4;
  SuiteConfig suite;
  suite.name = "gb";
  suite.run = "./bench";
  r.config.suites = {suite};
  r.seed = 7;
  r.plan = make_schedule(4, 1, 7);
  r.machine = {"CPU " + std::to_string(index), 2, "Linux", "g++"};
  r.builds = {{Side::Base, true, 1, "", ""}, {Side::Head, true, 1, "", ""}};
  ShardInfo info;
  info.index = index;
  info.count = 3;
  info.balance = "listing";
  info.partition = {{"gb", "BM_A", 1}, {"gb", "BM_B", 2}, {"gb", "BM_C", 3}, {"gb", "BM_D", 1}};
  r.shard = info;
  for (const ShardUnit& u : info.partition) {
    if (u.shard != index) continue;
    BenchmarkSeries s;
    s.suite = "gb";
    s.name = u.name;
    s.unit = "ns";
    for (int i = 0; i < 5; ++i) {
      s.base.push_back(100 + i);
      s.head.push_back(u.name == "BM_B" ? 150 + i : 100 + i);
    }
    r.series.push_back(s);
  }
  r.rounds_done = 5;
  r.complete = true;
  r.stop = {StopKind::PlanDone, 5, {}};
  r.measuring_seconds = 10.0 * index;
  return r;
}

std::string merge_error(std::vector<ShardFile> files) {
  try {
    merge_shards(std::move(files));
  } catch (const MergeError& e) {
    return e.what();
  }
  return "";
}

TEST(ShardMerge, JoinsEveryShardIntoOneComparison) {
  const MergeOutcome out =
      merge_shards({{"s3.json", shard(3)}, {"s1.json", shard(1)}, {"s2.json", shard(2)}});
  const Results& m = out.merged;
  EXPECT_TRUE(out.missing.empty());
  EXPECT_TRUE(out.not_measured.empty());
  EXPECT_TRUE(m.complete);
  ASSERT_EQ(m.series.size(), 4u);
  // Shard order, each shard's own order.
  EXPECT_EQ(m.series[0].name, "BM_A");
  EXPECT_EQ(m.series[1].name, "BM_D");
  EXPECT_EQ(m.series[2].name, "BM_B");
  EXPECT_EQ(m.series[3].name, "BM_C");
  ASSERT_TRUE(m.shard.has_value());
  EXPECT_EQ(m.shard->index, 0);
  EXPECT_EQ(m.shard->count, 3);
  ASSERT_EQ(m.shard->shards.size(), 3u);
  EXPECT_EQ(m.shard->shards[0].file, "s1.json");
  EXPECT_EQ(m.shard->shards[1].machine.cpu, "CPU 2");
  EXPECT_EQ(m.shard->shards[0].benchmarks, 2);
  EXPECT_TRUE(m.shard->shards[2].complete);
  EXPECT_DOUBLE_EQ(m.measuring_seconds, 30.0);  // the shards ran side by side
  // One family: BM_B's +50% is judged with all four benchmarks.
  const Analysis a = analyse_session(m);
  ASSERT_EQ(a.benchmarks.size(), 4u);
  EXPECT_EQ(a.benchmarks[2].verdict, Verdict::Regression);
  // The merged file reads back, shard records included.
  const Results back = results_from_string(results_to_string(m, &a));
  ASSERT_TRUE(back.shard.has_value());
  EXPECT_EQ(back.shard->shards[2].machine.cpu, "CPU 3");
  EXPECT_EQ(back.shard->partition.size(), 4u);
  EXPECT_EQ(results_to_string(back), results_to_string(m));
}

TEST(ShardMerge, KeepsEachShardsProfiles) {
  Results one = shard(1);
  Results two = shard(2);
  BenchmarkProfile p;
  p.suite = "s";
  p.name = "BM_A";
  p.skipped = "the time budget was spent";
  one.profiles.push_back(p);
  p.name = "BM_B";
  two.profiles.push_back(p);
  const MergeOutcome out =
      merge_shards({{"s1.json", one}, {"s2.json", two}, {"s3.json", shard(3)}});
  ASSERT_EQ(out.merged.profiles.size(), 2u);
  EXPECT_EQ(out.merged.profiles[1].name, "BM_B");
}

TEST(ShardMerge, MissingShardMakesAPartialComparisonThatSaysWhat) {
  const MergeOutcome out = merge_shards({{"s1.json", shard(1)}, {"s3.json", shard(3)}});
  EXPECT_EQ(out.missing, std::vector<int>{2});
  EXPECT_EQ(out.not_measured, std::vector<std::string>{"gb/BM_B"});
  const Results& m = out.merged;
  EXPECT_FALSE(m.complete);
  EXPECT_EQ(m.stop.kind, StopKind::ShardsMissing);
  EXPECT_EQ(describe(m.stop), "shard 2 of 3 is missing; 1 benchmark not measured");
  ASSERT_EQ(m.series.size(), 4u);
  EXPECT_EQ(m.series[3].name, "BM_B");
  EXPECT_EQ(m.series[3].head_failure, "not measured: shard 2 of 3 is missing");
  EXPECT_EQ(m.series[3].base_failure_kind, FailureKind::NotMeasured);
  EXPECT_EQ(m.series[3].head_failure_kind, FailureKind::NotMeasured);
  EXPECT_EQ(m.shard->shards[1].status, "missing");
  const Analysis a = analyse_session(m);
  EXPECT_EQ(a.benchmarks[3].verdict, Verdict::Failed);
  EXPECT_EQ(a.benchmarks[3].failure, FailureKind::NotMeasured);
  EXPECT_EQ(a.recommendation.kind, RecommendationKind::Failed);
  // The kind survives the merged results file.
  const Results back = results_from_string(results_to_string(m));
  EXPECT_EQ(back.series[3].head_failure_kind, FailureKind::NotMeasured);
}

// With instruction counts, a missing shard's benchmarks miss both their times and their counts.
TEST(ShardMerge, AMissingShardsInstructionCountsAreListedToo) {
  const auto counting = [](int index) {
    Results r = shard(index);
    r.config.suites[0].instructions = true;
    const std::size_t timed = r.series.size();
    for (std::size_t i = 0; i < timed; ++i) {
      BenchmarkSeries counts = r.series[i];
      counts.suite = "gb (instructions)";
      counts.metric = "instructions";
      counts.base = {5000};
      counts.head = {5000};
      r.series.push_back(counts);
    }
    return r;
  };
  const MergeOutcome out = merge_shards({{"s1.json", counting(1)}, {"s3.json", counting(3)}});
  EXPECT_EQ(out.not_measured, (std::vector<std::string>{"gb/BM_B", "gb (instructions)/BM_B"}));
  const Analysis a = analyse_session(out.merged);
  int failed = 0;
  for (const BenchmarkAnalysis& b : a.benchmarks)
    failed += b.name == "BM_B" && b.failure == FailureKind::NotMeasured ? 1 : 0;
  EXPECT_EQ(failed, 2);
}

TEST(ShardMerge, FailedShardListsItsBenchmarks) {
  Results broken = shard(1);
  broken.builds[1].ok = false;
  broken.builds[1].failure = "exit code 2";
  broken.series.clear();
  broken.stop = {StopKind::BuildFailed, 0, {}};
  const MergeOutcome out =
      merge_shards({{"s1.json", broken}, {"s2.json", shard(2)}, {"s3.json", shard(3)}});
  EXPECT_EQ(out.not_measured, (std::vector<std::string>{"gb/BM_A", "gb/BM_D"}));
  EXPECT_EQ(out.merged.series[2].base_failure,
            "not measured: shard 1 of 3 failed: the PR failed to build");
  EXPECT_FALSE(out.merged.builds[1].ok);
  EXPECT_EQ(out.merged.builds[1].failure, "shard 1: exit code 2");
}

TEST(ShardMerge, RefusesShardsOfAnotherComparison) {
  Results other_head = shard(2);
  other_head.head.sha = std::string(40, 'c');
  EXPECT_EQ(merge_error({{"s1.json", shard(1)}, {"s2.json", other_head}}),
            "s2.json: the head revision is ccccccc, but bbbbbbb in s1.json: all shards must come "
            "from one comparison (`benchpr run --shard I/N` of the same revisions, seed and "
            "shard count)");
  Results other_seed = shard(2);
  other_seed.seed = 8;
  EXPECT_NE(merge_error({{"s1.json", shard(1)}, {"s2.json", other_seed}}).find("the seed is 8"),
            std::string::npos);
  Results other_count = shard(2);
  other_count.shard->count = 4;
  EXPECT_NE(merge_error({{"s1.json", shard(1)}, {"s2.json", other_count}})
                .find("s2.json: the shard count is 4, but 3 in s1.json"),
            std::string::npos);
  Results other_config = shard(2);
  other_config.config.threshold = 0.05;
  EXPECT_EQ(merge_error({{"s1.json", shard(1)}, {"s2.json", other_config}}),
            "s2.json: its configuration (`threshold`) differs from the one in s1.json: all "
            "shards must compare with the same .benchpr.yml and options");
  Results other_partition = shard(2);
  other_partition.shard->partition[0].shard = 2;
  EXPECT_NE(merge_error({{"s1.json", shard(1)}, {"s2.json", other_partition}})
                .find("s2.json: its partition of the benchmarks differs from s1.json's"),
            std::string::npos);
}

// What the time plan does not size is the comparison's own configuration: a difference there
// means the shards did not run one comparison.
TEST(ShardMerge, RefusesConfigurationsThatDifferInWhatNoTimePlanChanges) {
  const auto refused_for = [](const std::function<void(Config&)>& edit) {
    Results other = shard(2);
    edit(other.config);
    return merge_error({{"s1.json", shard(1)}, {"s2.json", other}});
  };
  EXPECT_NE(refused_for([](Config& c) { c.repetitions = 5; }).find("(`repetitions`)"),
            std::string::npos);
  EXPECT_NE(refused_for([](Config& c) {
              c.bench_args = "--benchmark_min_time=1";
            }).find("(`bench_args`)"),
            std::string::npos);
  EXPECT_NE(refused_for([](Config& c) { c.warmup_rounds = 2; }).find("(`warmup_rounds`)"),
            std::string::npos);
  EXPECT_NE(refused_for([](Config& c) { c.suites[0].run = "./bench --other"; }).find("(`suites`)"),
            std::string::npos);
  EXPECT_EQ(refused_for([](Config& c) { c.rounds = 9; }), "");
}

// A shard's file holds only its own share: values for a benchmark the partition gives another
// shard would stand in for that shard's (with that shard missing, for nothing at all).
TEST(ShardMerge, RefusesASeriesThePartitionGivesToAnotherShard) {
  Results forged = shard(1);
  forged.series.push_back(shard(2).series[0]);  // BM_B, shard 2's
  const std::string error = merge_error({{"s1.json", forged}, {"s3.json", shard(3)}});
  EXPECT_EQ(error,
            "s1.json: benchmark gb/BM_B has values, but the partition gives it to shard 2, not 1: "
            "a shard's file holds only its own share (a file from another comparison, or "
            "edited)");
  // A failure row without values (a suite that failed everywhere) is no claim to measure.
  Results failed = shard(1);
  BenchmarkSeries row;
  row.suite = "gb";
  row.name = "BM_B";
  row.head_failure = "exit code 1";
  failed.series.push_back(row);
  EXPECT_EQ(merge_error({{"s1.json", failed}, {"s2.json", shard(2)}, {"s3.json", shard(3)}}), "");
}

TEST(ShardMerge, RefusesADuplicateShard) {
  EXPECT_EQ(merge_error({{"a.json", shard(2)}, {"s1.json", shard(1)}, {"b.json", shard(2)}}),
            "a.json and b.json are both shard 2 of 3: give each shard's file once");
}

TEST(ShardMerge, RefusesWhatIsNotAShard) {
  Results plain = shard(1);
  plain.shard.reset();
  EXPECT_EQ(merge_error({{"r.json", plain}}),
            "r.json: not a shard result (it was written by `benchpr run` without --shard)");
  Results merged =
      merge_shards({{"s1.json", shard(1)}, {"s2.json", shard(2)}, {"s3.json", shard(3)}}).merged;
  EXPECT_EQ(merge_error({{"m.json", merged}}),
            "m.json: already a merged result; merge the shard files themselves");
  EXPECT_EQ(merge_error({}), "no shard files given");
}

TEST(ShardMerge, RoundsSizedDifferentlyByEachShardsTimePlanStillMerge) {
  // Same seed: the shorter plan is a prefix of the longer one.
  Results longer = shard(2);
  longer.config.rounds = 6;
  longer.plan = make_schedule(6, 1, 7);
  for (auto& s : longer.series) {
    s.base.resize(7, 100);
    s.head.resize(7, 150);
  }
  longer.rounds_done = 7;
  // Each machine sized its own plan: another min time, round cost and summary.
  TimePlan slow_machine;
  slow_machine.budget_seconds = 1800;
  slow_machine.min_time_seconds = 0.05;
  slow_machine.rounds = 4;
  slow_machine.round_seconds = 90;
  slow_machine.summary = "4 rounds at 0.05 s";
  TimePlan fast_machine = slow_machine;
  fast_machine.min_time_seconds = 0.2;
  fast_machine.rounds = 6;
  fast_machine.round_seconds = 40;
  fast_machine.summary = "6 rounds at 0.2 s";
  longer.time_plan = fast_machine;
  Results first = shard(1);
  first.time_plan = slow_machine;
  const MergeOutcome out =
      merge_shards({{"s1.json", first}, {"s2.json", longer}, {"s3.json", shard(3)}});
  EXPECT_TRUE(out.merged.complete);
  EXPECT_EQ(out.merged.plan.size(), 7u);
  EXPECT_EQ(out.merged.config.rounds, 6);
  EXPECT_EQ(out.merged.rounds_done, 7);
}

}  // namespace
}  // namespace benchpr
