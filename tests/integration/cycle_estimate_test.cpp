// The estimated cycles beside the instruction count, for real: a Google Benchmark project whose
// PR changes only how its loop walks memory (the same code, a stride read from data: 4 KiB
// steps instead of one int), counted under Callgrind with its cache simulation by the real
// benchpr binary. The instructions stay exactly equal; the estimate shows the misses.
#include <gtest/gtest.h>

#include <string>

#include <nlohmann/json.hpp>

#include "support/benchpr_process.hpp"
#include "support/gbench_project.hpp"
#include "support/results_doc.hpp"
#include "support/temp_repo.hpp"

namespace benchpr::testing {
namespace {

using nlohmann::json;

// 16 MiB of ints, filled once; the stride is data, so both revisions compile to the same code.
std::string prelude(int stride) {
  return "#include <vector>\nstatic volatile int g_stride = " + std::to_string(stride) +
         ";\nstatic std::vector<int>& ints() { static std::vector<int> v(1 << 22, 1); return v; "
         "}\n";
}

// 4,096 reads per iteration at `g_stride` ints apart: one int apart they stay in 16 KiB (in the
// simulated 32 KiB L1 after the first iteration); 1,024 ints (4 KiB) apart every read is a
// line of its own, 256 KiB in all, and misses L1.
std::vector<GbenchCase> cases() {
  return {
      {"BM_Walk",
       "const std::vector<int>& v = ints(); const unsigned stride = g_stride; long sum = 0; "
       "for (unsigned k = 0; k < 4096; ++k) sum += v[(k * stride) & ((1u << 22) - 1)]; "
       "benchmark::DoNotOptimize(sum);",
       ""},
      {"BM_Same", spin(2000), ""},
  };
}

// The series of (suite, name) in the results file, or null.
const json* find_series(const json& doc, const std::string& suite, const std::string& name) {
  for (const json& s : doc["series"])
    if (s["suite"] == suite && s["name"] == name) return &s;
  return nullptr;
}

TEST(CycleEstimate, AStrideWalkKeepsItsInstructionsAndMovesItsEstimatedCycles) {
  TempRepo repo;
  GbenchConfig cfg;
  cfg.metric = "instructions";  // counts only: no timed rounds
  commit_comparison(repo, cases(), cases(), cfg, "feature", prelude(1), prelude(1024));

  TempDir out;
  const BenchprRun r = run_benchpr_as_given(
      BENCHPR_BINARY, {"run", "-C", repo.path(), "--base", "main", "--head", "feature", "--dry-run",
                       "--output", out / "results.json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json doc = json::parse(read_file(out / "results.json"));
  const std::string ins = "micro (instructions)";

  // The instructions: exactly the same code and count.
  const json* walk = find_benchmark(doc, ins, "BM_Walk");
  ASSERT_NE(walk, nullptr) << r.err;
  EXPECT_EQ((*walk)["verdict"], "unchanged") << walk->dump();
  EXPECT_EQ((*walk)["change"].get<double>(), 0.0) << walk->dump();

  // The cache events per iteration: L1 read misses from about none to one per read.
  const json* series = find_series(doc, ins, "BM_Walk");
  ASSERT_NE(series, nullptr);
  ASSERT_TRUE(series->contains("events")) << series->dump();
  const json& d1 = (*series)["events"]["D1mr"];
  EXPECT_LT(d1["base"][0].get<double>(), 50) << series->dump();
  EXPECT_GT(d1["head"][0].get<double>(), 4000) << series->dump();
  // Its estimate: instructions + 10 per L1 miss, + 100 per last-level one; moved by far more
  // than the threshold while the count did not move at all.
  const double base_cycles = (*walk)["cycles_base"].get<double>();
  const double head_cycles = (*walk)["cycles_head"].get<double>();
  EXPECT_GT(head_cycles / base_cycles - 1, 1.0) << walk->dump();

  // The benchmark the PR did not touch: the same count, the same estimate.
  const json* same = find_benchmark(doc, ins, "BM_Same");
  ASSERT_NE(same, nullptr);
  EXPECT_EQ((*same)["change"].get<double>(), 0.0);
  EXPECT_NEAR((*same)["cycles_head"].get<double>() / (*same)["cycles_base"].get<double>(), 1, 0.001)
      << same->dump();

  // The comment: a note names the misses beside the unchanged count, the paragraph says what
  // the estimate is.
  EXPECT_NE(r.out.find("`BM_Walk`: instructions per iteration unchanged (0.0%, exact count), "
                       "estimated cycles +"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("D1 misses"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("KCachegrind's CEst"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("`BM_Same`: instructions per iteration"), std::string::npos) << r.out;

  // Turned off: counts as before, no events, no estimate.
  TempDir plain;
  const BenchprRun off = run_benchpr_as_given(
      BENCHPR_BINARY, {"run", "-C", repo.path(), "--base", "main", "--head", "feature", "--dry-run",
                       "--no-cycle-estimate", "--output", plain / "results.json"});
  ASSERT_EQ(off.exit_code, 0) << off.err;
  const json plain_doc = json::parse(read_file(plain / "results.json"));
  const json* plain_series = find_series(plain_doc, ins, "BM_Walk");
  ASSERT_NE(plain_series, nullptr);
  EXPECT_FALSE(plain_series->contains("events")) << plain_series->dump();
  EXPECT_EQ(plain_doc["config"]["cycle_estimate"], false);
  EXPECT_EQ(off.out.find("estimated cycles"), std::string::npos) << off.out;
}

}  // namespace
}  // namespace benchpr::testing
