// The partition every shard computes for itself: it must be the same everywhere, cover every
// unit of work exactly once, and balance the expected time.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>
#include <string>

#include "benchpr/core/plan/schedule.hpp"
#include "benchpr/core/plan/shard_plan.hpp"

namespace benchpr {
namespace {

std::vector<WorkItem> items(int n) {
  std::vector<WorkItem> out;
  for (int i = 0; i < n; ++i) out.push_back({"s", "BM_" + std::to_string(i), 1.0 + i % 7});
  return out;
}

std::map<std::string, int> shard_of(const std::vector<ShardUnit>& units) {
  std::map<std::string, int> out;
  for (const ShardUnit& u : units) out[u.suite + "/" + u.name] = u.shard;
  return out;
}

TEST(ShardSpec, ParsesIndexOverCount) {
  const ShardSpecReading r = parse_shard_spec("2/3");
  ASSERT_TRUE(r.spec.has_value()) << r.problem;
  EXPECT_EQ(r.spec->index, 2);
  EXPECT_EQ(r.spec->count, 3);
  EXPECT_EQ(r.problem, "");
}

// The problem alone: the caller says where the text came from (--shard or BENCHPR_SHARD).
TEST(ShardSpec, RejectsWhatIsNotAShard) {
  const auto problem = [](std::string_view text) {
    const ShardSpecReading r = parse_shard_spec(text);
    EXPECT_FALSE(r.spec.has_value()) << text;
    return r.problem;
  };
  EXPECT_EQ(problem("3"), "expected INDEX/COUNT, such as 2/3 (the second of three shards)");
  EXPECT_EQ(problem("0/3"), "the index counts from 1 to the shard count (3)");
  EXPECT_EQ(problem("4/3"), "the index counts from 1 to the shard count (3)");
  EXPECT_EQ(problem("1/0"), "the shard count must be 1 to 1000");
  EXPECT_EQ(problem("1/1001"), "the shard count must be 1 to 1000");
  EXPECT_EQ(problem("a/b"), "expected INDEX/COUNT with whole numbers, such as 2/3");
  EXPECT_EQ(problem("1/2x"), "expected INDEX/COUNT with whole numbers, such as 2/3");
  EXPECT_EQ(problem("-1/2"), "the index counts from 1 to the shard count (2)");
}

// Hand-checked: costs 5,4,3,3,2,1 over 2 shards, longest first to the least loaded:
// 5->1 (5,0), 4->2 (5,4), 3(a)->2 (5,7), 3(b)->1 (8,7), 2->2 (8,9), 1->1 (9,9).
TEST(Partition, LongestFirstToTheLeastLoaded) {
  const std::vector<WorkItem> in = {{"s", "e", 2}, {"s", "a3", 3}, {"s", "x5", 5},
                                    {"s", "f", 1}, {"s", "b3", 3}, {"s", "y4", 4}};
  const auto got = shard_of(partition_work(in, 2));
  EXPECT_EQ(got.at("s/x5"), 1);
  EXPECT_EQ(got.at("s/y4"), 2);
  EXPECT_EQ(got.at("s/a3"), 2);  // ties between equal costs go by name: a3 before b3
  EXPECT_EQ(got.at("s/b3"), 1);
  EXPECT_EQ(got.at("s/e"), 2);
  EXPECT_EQ(got.at("s/f"), 1);
}

TEST(Partition, EqualCostsSpreadRoundRobin) {
  const std::vector<WorkItem> in = {
      {"s", "a", 1}, {"s", "b", 1}, {"s", "c", 1}, {"s", "d", 1}, {"s", "e", 1}};
  const auto units = partition_work(in, 3);
  // Returned in input order.
  ASSERT_EQ(units.size(), 5u);
  EXPECT_EQ(units[0].name, "a");
  EXPECT_EQ(units[0].shard, 1);
  EXPECT_EQ(units[1].shard, 2);
  EXPECT_EQ(units[2].shard, 3);
  EXPECT_EQ(units[3].shard, 1);
  EXPECT_EQ(units[4].shard, 2);
}

TEST(Partition, ZeroCostItemsStillSpread) {
  const std::vector<WorkItem> in = {{"s", "a", 0}, {"s", "b", 0}, {"s", "c", 0}};
  const auto got = shard_of(partition_work(in, 3));
  EXPECT_EQ(got.at("s/a"), 1);
  EXPECT_EQ(got.at("s/b"), 2);
  EXPECT_EQ(got.at("s/c"), 3);
}

TEST(Partition, CompleteDisjointAndDeterministicForAnyCount) {
  for (int n : {0, 1, 5, 37}) {
    for (int count = 1; count <= 45; ++count) {
      SCOPED_TRACE(testing::Message() << n << " items, " << count << " shards");
      std::vector<WorkItem> in = items(n);
      const auto units = partition_work(in, count);
      ASSERT_EQ(units.size(), in.size());
      std::set<std::string> names;
      for (const ShardUnit& u : units) {
        EXPECT_GE(u.shard, 1);
        EXPECT_LE(u.shard, count);
        EXPECT_TRUE(names.insert(u.name).second);  // each exactly once
      }
      // The same inputs in another order: the same assignment (a runner may list differently).
      std::reverse(in.begin(), in.end());
      EXPECT_EQ(shard_of(partition_work(in, count)), shard_of(units));
      // More shards than items: every item alone, the rest empty.
      if (count >= n) {
        std::set<int> used;
        for (const ShardUnit& u : units) used.insert(u.shard);
        EXPECT_EQ(used.size(), static_cast<std::size_t>(n));
      }
    }
  }
}

TEST(Partition, BalancesExpectedTime) {
  // 100 items costing 1..7 s (400 s in all) over 4 shards: LPT stays within the largest item.
  const auto in = items(100);
  const auto units = partition_work(in, 4);
  std::map<int, double> load;
  for (std::size_t i = 0; i < in.size(); ++i) load[units[i].shard] += in[i].cost;
  double lo = 1e9, hi = 0;
  for (const auto& [k, v] : load) {
    lo = std::min(lo, v);
    hi = std::max(hi, v);
  }
  EXPECT_LE(hi - lo, 7.0);
}

RunRecord run(const char* suite, double seconds, bool ok) {
  RunRecord r;
  r.suite = suite;
  r.seconds = seconds;
  r.ok = ok;
  return r;
}

BenchmarkSeries series(const char* name, const char* unit, std::vector<double> base,
                       std::vector<double> head) {
  BenchmarkSeries s;
  s.suite = "gb";
  s.name = name;
  s.unit = unit;
  s.base = std::move(base);
  s.head = std::move(head);
  return s;
}

Results previous() {
  Results r;
  r.runs = {run("gb", 10, true), run("gb", 12, true), run("jmh", 60, true), run("jmh", 0, false)};
  r.series = {series("BM_Fast", "ns", {100, 100}, {100, 120}),
              series("BM_Slow", "ms", {7000, 9000}, {8000, 8000})};
  return r;
}

// Hand-checked: gb runs took 11 s on average for 2 benchmarks, 5.5 s each unless one iteration
// is longer (BM_Slow: median 8000 ms = 8 s); jmh's ok runs took 60 s; BM_New is unknown and
// gets the median of gb's known costs (5.5 and 8: 6.75); the other suite is unknown: 1 s.
TEST(Partition, CostsFromAPreviousResultsFile) {
  std::vector<WorkItem> in = {{"gb", "BM_Fast", 1},
                              {"gb", "BM_Slow", 1},
                              {"gb", "BM_New", 1},
                              {"jmh", "", 1},
                              {"other", "", 1}};
  EXPECT_EQ(apply_costs(previous(), in), 3u);
  EXPECT_DOUBLE_EQ(in[0].cost, 5.5);
  EXPECT_DOUBLE_EQ(in[1].cost, 8.0);
  EXPECT_DOUBLE_EQ(in[2].cost, 6.75);
  EXPECT_DOUBLE_EQ(in[3].cost, 60.0);
  EXPECT_DOUBLE_EQ(in[4].cost, 1.0);
  // 60 | 8 | 6.75, then 5.5 and 1 to the least loaded (shard 3, then shard 2).
  const auto got = shard_of(partition_work(in, 3));
  EXPECT_EQ(got.at("jmh/"), 1);
  EXPECT_EQ(got.at("gb/BM_Slow"), 2);
  EXPECT_EQ(got.at("gb/BM_New"), 3);
  EXPECT_EQ(got.at("gb/BM_Fast"), 3);
  EXPECT_EQ(got.at("other/"), 2);
}

}  // namespace
}  // namespace benchpr

namespace benchpr {
namespace {

// The shards of one matrix draw the seed by themselves: what they share gives the same seed,
// and anything of the comparison that differs gives another.
TEST(SharedShardSeed, DependsOnWhatEveryShardSharesOnly) {
  const std::string base(40, 'a'), head(40, 'b'), config = R"({"rounds":10})";
  const std::uint64_t seed = shared_shard_seed(base, head, config, 3);
  EXPECT_EQ(shared_shard_seed(base, head, config, 3), seed);
  EXPECT_NE(shared_shard_seed(base, std::string(40, 'c'), config, 3), seed);
  EXPECT_NE(shared_shard_seed(std::string(40, 'c'), head, config, 3), seed);
  EXPECT_NE(shared_shard_seed(base, head, R"({"rounds":12})", 3), seed);
  EXPECT_NE(shared_shard_seed(base, head, config, 4), seed);
  // Parts cannot run into each other: moving a character from one to the next changes it.
  EXPECT_NE(shared_shard_seed("ab", "c", config, 3), shared_shard_seed("a", "bc", config, 3));
  // Both orders of the first block occur over seeds of many comparisons.
  int head_first = 0;
  for (int i = 0; i < 64; ++i) {
    const auto plan = make_schedule(2, 0, shared_shard_seed(base, head, std::to_string(i), 3));
    head_first += plan.at(0).first == Side::Head ? 1 : 0;
  }
  EXPECT_GT(head_first, 8);
  EXPECT_LT(head_first, 56);
}

}  // namespace
}  // namespace benchpr
