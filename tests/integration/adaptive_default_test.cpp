// The default plan spends the budget: without --rounds or a budget, rounds go on for the
// benchmarks still open (adaptive looks within the default 15-minute budget) instead of stopping
// after the configured rounds; --rounds keeps the fixed plan.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "support/benchpr_process.hpp"
#include "support/gbench_project.hpp"
#include "support/results_doc.hpp"
#include "support/temp_repo.hpp"

namespace benchpr::testing {
namespace {

using nlohmann::json;

TEST(AdaptiveDefault, DecidesWhatTheFixedPlanLeavesOpen) {
  TempRepo repo;
  GbenchConfig cfg;
  // Two rounds can never give a verdict (fewer than the deciding minimum of 4): the fixed plan
  // leaves even a 4x slow-down open, while the default plan's looks (after 2, 4 and 6 rounds)
  // reach enough rounds to decide it.
  cfg.rounds = 2;
  cfg.warmup = 1;
  commit_comparison(repo, {{"BM_Big", spin(2000), ""}}, {{"BM_Big", spin(8000), ""}}, cfg, "pr");

  TempDir fixed_out;
  auto fixed = run_benchpr(
      BENCHPR_BINARY, {"run", "-C", repo.path(), "--base", "main", "--head", "pr", "--rounds", "2",
                       "--seed", "5", "--output", fixed_out / "results.json"});
  ASSERT_EQ(fixed.exit_code, 0) << fixed.err;
  const json fixed_doc = json::parse(read_file(fixed_out / "results.json"));
  EXPECT_EQ(benchmark_named(fixed_doc, "BM_Big")["verdict"], "inconclusive") << fixed.out;
  EXPECT_EQ(fixed_doc["rounds_done"], 3) << fixed.out;  // 1 warm-up + 2
  EXPECT_TRUE(fixed_doc["config"]["budget_seconds"].is_null());

  TempDir out;
  auto r = run_benchpr(BENCHPR_BINARY, {"run", "-C", repo.path(), "--base", "main", "--head", "pr",
                                        "--seed", "5", "--output", out / "results.json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json doc = json::parse(read_file(out / "results.json"));
  EXPECT_EQ(benchmark_named(doc, "BM_Big")["verdict"], "regression") << r.out;
  // The default budget is recorded, so the results file replays its own looks.
  EXPECT_EQ(doc["config"]["budget_seconds"], 900) << r.out;
  EXPECT_GT(doc["rounds_done"].get<int>(), 3) << r.out;
  EXPECT_TRUE(doc["complete"].get<bool>());
  EXPECT_NE(doc["stop_reason"].get<std::string>().find("decided"), std::string::npos)
      << doc["stop_reason"];
  // Progress says what the looks are and what was spent at each.
  const std::string all = r.out + r.err;
  EXPECT_NE(all.find("then looks after 2, 4, 6 rounds"), std::string::npos) << all;
  EXPECT_NE(all.find("of the 15m budget spent"), std::string::npos) << all;
}

}  // namespace
}  // namespace benchpr::testing
