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
  EXPECT_EQ(doc["stop"]["kind"], "decided") << doc["stop_reason"];
  // Progress says what the looks are and what was spent on what at each.
  const std::string all = r.out + r.err;
  EXPECT_NE(all.find("then a look every 2 rounds"), std::string::npos) << all;
  EXPECT_NE(all.find("of 15m (builds "), std::string::npos) << all;
  EXPECT_NE(all.find("every benchmark is decided"), std::string::npos) << all;
  // Each look's levels were fixed before its rounds ran and are in the file; they add up to at
  // most 5% however many looks there were.
  ASSERT_TRUE(doc.contains("looks")) << r.out;
  double alpha = 0;
  for (const json& look : doc["looks"]) alpha += look["alpha"].get<double>();
  EXPECT_GT(alpha, 0);
  EXPECT_LE(alpha, 0.05 + 1e-12);
}

// A benchmark too noisy to settle ±threshold within the budget (runs drawn with 20% noise need
// some 800 rounds for ±2% at the whole α, more at the looks' levels): the looks go on until one
// sees it cannot settle in the rounds left, the budget or the 1,000 rounds end them; the row says
// what the data rule out and the too-noisy note names it once.
TEST(AdaptiveDefault, AnOpenBenchmarkThatCannotSettleEndsTheLooksAndIsBounded) {
  TempRepo repo;
  GbenchConfig cfg;
  cfg.rounds = 2;
  cfg.warmup = 1;
  // Each process reports one time, drawn with 20% noise: identical code, never within ±2%. The
  // draws follow a fixed sequence (the n-th process run takes the n-th seed, counted in a file),
  // so the comparison is the same on every machine: drawn afresh, one run in about 30 came out
  // significant (the family's 5% spent over the looks), as it should for identical code.
  TempDir counter_dir;
  const std::string counter = counter_dir / "runs";
  const std::string prelude =
      "#include <cmath>\n#include <cstdio>\n#include <random>\n"
      "static const double kSeconds = [] { unsigned k = 0;\n"
      "  if (FILE* f = std::fopen(\"" +
      counter +
      "\", \"r\")) {\n"
      "    if (std::fscanf(f, \"%u\", &k) != 1) k = 0; std::fclose(f); }\n"
      "  if (FILE* f = std::fopen(\"" +
      counter +
      "\", \"w\")) {\n"
      "    std::fprintf(f, \"%u\", k + 1); std::fclose(f); }\n"
      "  std::mt19937 gen(1000 + k); std::normal_distribution<double> n(0, 0.2);\n"
      "  return 1e-6 * std::exp(n(gen)); }();\n";
  const std::vector<GbenchCase> bench = {
      {"BM_Noisy", "state.SetIterationTime(kSeconds);", "->UseManualTime()"}};
  commit_comparison(repo, bench, bench, cfg, "pr", prelude, prelude);

  TempDir out;
  auto r = run_benchpr(BENCHPR_BINARY,
                       {"run", "-C", repo.path(), "--base", "main", "--head", "pr", "--seed", "3",
                        "--budget", "1m", "--output", out / "results.json", "--time-identical"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json doc = json::parse(read_file(out / "results.json"));
  const json& b = benchmark_named(doc, "BM_Noisy/manual_time");
  EXPECT_EQ(b["verdict"], "inconclusive") << r.out;
  // At least to the first look with 6 rounds (the fewest an estimate of what it needs reads).
  const int analysed = doc["rounds_done"].get<int>() - 1;
  EXPECT_GE(analysed, 6) << r.err;
  EXPECT_GE(doc["looks"].size(), 3u) << r.err;
  const std::string stop = doc["stop"]["kind"];
  // Which of the three ends it depends on how fast this machine runs the rounds: on a fast one a
  // minute reaches the 1,000 rounds the looks read at most.
  EXPECT_TRUE(stop == "cannot-settle" || stop == "budget-spent" || stop == "most-rounds")
      << doc["stop_reason"];
  // What the data rule out, in the row, and the benchmark named once in the notes.
  const std::string all = r.out + r.err;
  EXPECT_NE(r.out.find("no change beyond ±"), std::string::npos) << r.out;
  std::string notes;
  for (const json& n : doc["notes"]) notes += n.get<std::string>() + "\n";
  EXPECT_NE(
      notes.find("Too noisy to settle ±2.0% within the 1m budget: `BM_Noisy/manual_time` (rounds "
                 "vary by"),
      std::string::npos)
      << notes;
  EXPECT_NE(notes.find("Spent "), std::string::npos) << notes;
  EXPECT_EQ(r.out.find("rounds would settle ±2.0%"), std::string::npos) << r.out;
}

}  // namespace
}  // namespace benchpr::testing
