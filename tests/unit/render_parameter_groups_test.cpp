// Benchmarks that differ only by parameters are shown as one table with the parameter as a
// column (as people tabulate a payload-size sweep by hand); everything else keeps the plain
// table, regressions first.
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "benchpr/render/parameter_groups.hpp"
#include "benchpr/render/render.hpp"
#include "support/hand_analysis.hpp"

namespace benchpr::render {
namespace {

using Keys = std::vector<std::string>;

TEST(SplitParameters, GoogleBenchmarkTrailingIntegers) {
  auto p = split_parameters("BM_Copy/64");
  ASSERT_TRUE(p);
  EXPECT_EQ(p->base, "BM_Copy");
  EXPECT_EQ(p->keys, Keys{"arg"});
  EXPECT_EQ(p->values, Keys{"64"});

  p = split_parameters("BM_Matrix/64/-8");
  ASSERT_TRUE(p);
  EXPECT_EQ(p->base, "BM_Matrix");
  EXPECT_EQ(p->keys, (Keys{"arg1", "arg2"}));
  EXPECT_EQ(p->values, (Keys{"64", "-8"}));

  p = split_parameters("BM_Spin<Lock>/size:512/threads:4");
  ASSERT_TRUE(p);
  EXPECT_EQ(p->base, "BM_Spin<Lock>");
  EXPECT_EQ(p->keys, (Keys{"size", "threads"}));
  EXPECT_EQ(p->values, (Keys{"512", "4"}));

  p = split_parameters("BM_Io/fs/4096");  // only the trailing integers are parameters
  ASSERT_TRUE(p);
  EXPECT_EQ(p->base, "BM_Io/fs");
}

TEST(SplitParameters, JmhParams) {
  auto p = split_parameters("org.x.TlsBenchmark.roundTrip:cipher=aes:payload=256");
  ASSERT_TRUE(p);
  EXPECT_EQ(p->base, "org.x.TlsBenchmark.roundTrip");
  EXPECT_EQ(p->keys, (Keys{"cipher", "payload"}));
  EXPECT_EQ(p->values, (Keys{"aes", "256"}));
}

TEST(SplitParameters, NamesWithoutParameters) {
  for (const char* name : {"BM_Plain", "BM_X/64/real_time", "BM_X/small", "/64", "64",
                           "org.x.Bench.method", "BM_X/threads:two", ":a=1", "x:a=1:bad"}) {
    EXPECT_FALSE(split_parameters(name)) << name;
  }
}

using testing::hand_benchmark;

TEST(ParameterGroups, MembersOrderedNumericallyAndOnlyRealGroups) {
  const std::vector<BenchmarkAnalysis> b = {
      hand_benchmark("s", "BM_A/1024", Verdict::Unchanged, 1, 1, 0),
      hand_benchmark("s", "BM_A/64", Verdict::Regression, 1, 1, 0),
      hand_benchmark("s", "BM_A/65536", Verdict::Unchanged, 1, 1, 0),
      hand_benchmark("s", "BM_B/64", Verdict::Unchanged, 1, 1, 0),   // alone: no group
      hand_benchmark("t", "BM_A/8", Verdict::Unchanged, 1, 1, 0),    // other suite
      hand_benchmark("s", "BM_A/8/2", Verdict::Unchanged, 1, 1, 0),  // other keys
      hand_benchmark("s", "J.m:mode=avgt", Verdict::Unchanged, 1, 1, 0),
      hand_benchmark("s", "J.m:mode=thrpt", Verdict::Unchanged, 1, 1, 0),
  };
  const auto groups = find_parameter_groups(b);
  ASSERT_EQ(groups.size(), 2u);
  EXPECT_EQ(groups[0].base, "BM_A");
  EXPECT_EQ(groups[0].members, (std::vector<std::size_t>{1, 0, 2}));  // 64, 1024, 65536
  EXPECT_EQ(groups[0].numeric, std::vector<bool>{true});
  EXPECT_EQ(groups[1].base, "J.m");
  EXPECT_EQ(groups[1].members, (std::vector<std::size_t>{6, 7}));  // avgt < thrpt
  EXPECT_EQ(groups[1].numeric, std::vector<bool>{false});
}

Results session() {
  Results r;
  r.base = {"main", "abc1234def5678abc1234def5678abc1234def56", "base"};
  r.head = {"pr", "def5678abc1234def5678abc1234def5678abc12", "head"};
  r.config.threshold = 0.02;
  r.plan.push_back({0, false, Side::Base});
  r.plan.push_back({1, false, Side::Head});
  r.rounds_done = 2;
  r.complete = true;
  return r;
}

// The seed's shape: a JMH throughput sweep over payload sizes, one size regressed.
Analysis sweep() {
  const std::string m = "org.apache.pekko.util.ByteString_concat3way_Benchmark.bs2";
  Analysis a;
  a.benchmarks = {
      hand_benchmark("jmh", m + ":size=65536", Verdict::Unchanged, 510.53, 509.9, -0.001, "ops/us",
                     Better::Higher),
      hand_benchmark("jmh", m + ":size=64", Verdict::Unchanged, 501.9, 502.4, 0.001, "ops/us",
                     Better::Higher),
      hand_benchmark("jmh", m + ":size=1024", Verdict::Regression, 527.13, 474.4, -0.10, "ops/us",
                     Better::Higher),
      hand_benchmark("jmh", "org.apache.pekko.util.ByteString_Benchmark.iterator",
                     Verdict::Regression, 909.99, 400.68, -0.56, "ops/us", Better::Higher),
      hand_benchmark("jmh", "org.apache.pekko.util.ByteString_Benchmark.asBuffers",
                     Verdict::Improvement, 98.9, 200.44, 1.03, "ops/us", Better::Higher),
      hand_benchmark("jmh", m + "Copy:size=64", Verdict::Unchanged, 163.6, 163.0, -0.004, "ops/us",
                     Better::Higher),
      hand_benchmark("jmh", m + "Copy:size=1024", Verdict::Unchanged, 22.82, 22.9, 0.003, "ops/us",
                     Better::Higher),
  };
  a.recommendation.kind = RecommendationKind::DoNotMerge;
  a.recommendation.reason = "regressions";
  a.analysed_rounds = 2;
  return a;
}

TEST(ParameterTables, SweepGetsAParameterColumnAfterThePlainRegressions) {
  const std::string md = render_comment(session(), sweep());
  const std::string expected =
      "| benchmark | base | PR | change | 95% CI | verdict |\n"
      "|:--|--:|--:|--:|:--|:--|\n"
      "| `org.apache.pekko.util.ByteString_Benchmark.iterator` | 910 ops/us | 401 ops/us | "
      "**2.3× lower** | 2.2× … 2.3× | ❌ regression |\n"
      "\n"
      "**`org.apache.pekko.util.ByteString_concat3way_Benchmark.bs2`**\n"
      "\n"
      "| size | base | PR | change | 95% CI | verdict |\n"
      "|--:|--:|--:|--:|:--|:--|\n"
      "| 64 | 502 ops/us | 502 ops/us | +0.1% | −0.9 … +1.1% | ✅ unchanged |\n"
      "| 1024 | 527 ops/us | 474 ops/us | **−10.0%** | −11.0 … −9.0% | ❌ regression |\n"
      "| 65536 | 511 ops/us | 510 ops/us | −0.1% | −1.1 … +0.9% | ✅ unchanged |\n"
      "\n"
      "| benchmark | base | PR | change | 95% CI | verdict |\n"
      "|:--|--:|--:|--:|:--|:--|\n"
      "| `org.apache.pekko.util.ByteString_Benchmark.asBuffers` | 98.9 ops/us | 200 ops/us | "
      "**2.0× higher** | 2.02× … 2.04× | ⚡ improvement |\n"
      "\n";
  EXPECT_NE(md.find(expected), std::string::npos) << md;
  // The unchanged members shown in the sweep are not listed again; the all-unchanged group is.
  EXPECT_NE(md.find("<details><summary>2 more unchanged</summary>"), std::string::npos) << md;
  EXPECT_NE(md.find("| `org.apache.pekko.util.ByteString_concat3way_Benchmark.bs2Copy:size=64` |"),
            std::string::npos)
      << md;
  EXPECT_EQ(md.find("| `org.apache.pekko.util.ByteString_concat3way_Benchmark.bs2:size=64` |"),
            std::string::npos)
      << md;
  // The headline still counts every benchmark.
  EXPECT_NE(md.find("✅ 4 unchanged"), std::string::npos) << md;
}

TEST(ParameterTables, SuiteNamedInTheTitleWhenThereAreSeveral) {
  Analysis a;
  a.benchmarks = {hand_benchmark("core", "BM_Copy/64", Verdict::Improvement, 100, 50, -0.5),
                  hand_benchmark("core", "BM_Copy/4096", Verdict::Improvement, 6400, 3100, -0.52),
                  hand_benchmark("io", "BM_Read", Verdict::Unchanged, 10, 10, 0)};
  a.recommendation.kind = RecommendationKind::Merge;
  a.analysed_rounds = 2;
  const std::string md = render_comment(session(), a);
  EXPECT_NE(md.find("**`BM_Copy`** in suite core\n\n| arg | base | PR |"), std::string::npos) << md;
  EXPECT_NE(md.find("| 64 | 100 ns | 50.0 ns |"), std::string::npos) << md;
  EXPECT_NE(md.find("| 4096 | 6.40 µs | 3.10 µs |"), std::string::npos) << md;
}

TEST(ParameterTables, HostileParameterValuesAreEscaped) {
  Analysis a;
  a.benchmarks = {hand_benchmark("s", "J.m:p=<b>x</b>|y", Verdict::Regression, 1, 2, 1.0),
                  hand_benchmark("s", "J.m:p=@octocat", Verdict::Regression, 1, 2, 1.0)};
  a.recommendation.kind = RecommendationKind::DoNotMerge;
  a.analysed_rounds = 2;
  const std::string md = render_comment(session(), a);
  EXPECT_EQ(md.find("<b>"), std::string::npos) << md;
  EXPECT_NE(md.find("| &lt;b&gt;x&lt;/b&gt;\\|y | 1.00 ns |"), std::string::npos) << md;
  EXPECT_EQ(md.find("@octocat"), std::string::npos) << md;
  EXPECT_NE(md.find("| p | base |"), std::string::npos) << md;
}

TEST(ParameterTables, BudgetCutKeepsTablesWhole) {
  Analysis a;
  for (int i = 0; i < 400; ++i) {
    a.benchmarks.push_back(hand_benchmark("s", "BM_Sweep/" + std::to_string(i * 64),
                                          i == 7 ? Verdict::Regression : Verdict::Inconclusive, 100,
                                          110, 0.1));
  }
  a.recommendation.kind = RecommendationKind::DoNotMerge;
  a.analysed_rounds = 2;
  RenderOptions options;
  options.max_chars = 8000;
  const std::string md = render_comment(session(), a, options);
  EXPECT_LE(md.size(), 8000u);
  EXPECT_NE(md.find("| arg | base | PR | change | 95% CI | verdict |\n|--:|"), std::string::npos)
      << md;
  EXPECT_NE(md.find("more benchmarks"), std::string::npos) << md;
  // Every table line that starts a row also ends one.
  std::size_t pos = 0;
  while ((pos = md.find("\n| ", pos)) != std::string::npos) {
    const std::size_t end = md.find('\n', pos + 1);
    EXPECT_EQ(md[end - 1], '|') << md.substr(pos, end - pos);
    pos = end;
  }
}

}  // namespace
}  // namespace benchpr::render
