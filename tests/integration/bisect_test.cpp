// Which commit: a pull request of five commits, +10% work in commit 3 and −20% in commit 5,
// commit 2 does not build. The real benchpr binary with --bisect must name commit 3 (with the
// unbuilt commit 2 beside it: nothing can tell them apart) for the +10% and commit 5 for the
// −20%, name commit 2 as skipped, and stay inside the budget.
#include <gtest/gtest.h>

#include <cmath>
#include <iostream>
#include <map>
#include <string>

#include <nlohmann/json.hpp>

#include "support/benchpr_process.hpp"
#include "support/gbench_project.hpp"
#include "support/results_doc.hpp"
#include "support/temp_repo.hpp"

namespace benchpr::testing {
namespace {

using nlohmann::json;

// The work of the benchmark followed, and one that stays put in every commit.
std::vector<GbenchCase> work(int steps) {
  return {{"BM_Work", chain(steps), ""}, {"BM_Same", chain(20000), ""}};
}

// Each test's repository and output directory, and benchpr's --bisect run on them.
class Bisect : public ::testing::Test {
 protected:
  // Short benchmark runs; counted by Callgrind (one run per commit, exact) unless `timed`.
  static GbenchConfig config(bool timed = false) {
    GbenchConfig cfg;
    cfg.min_time = "0.01";
    if (!timed) cfg.metric = "instructions";
    return cfg;
  }

  // `benchpr run --base main --head pr --bisect` on `repo`, its results in `out`/`file`.
  BenchprRun run_bisect(TempRepo& in, const std::string& file,
                        const std::vector<std::string>& extra = {}) {
    std::vector<std::string> args = {"run",    "-C", in.path(),  "--base",   "main",
                                     "--head", "pr", "--bisect", "--output", out / file};
    args.insert(args.end(), extra.begin(), extra.end());
    return run_benchpr(BENCHPR_BINARY, args);
  }

  json results(const std::string& file) const { return json::parse(read_file(out / file)); }

  TempRepo repo;
  TempDir out;
};

// The PR's five commits on `pr`; returns their SHAs, [0] the base.
std::vector<std::string> five_commits(TempRepo& repo, const GbenchConfig& cfg) {
  std::vector<std::string> shas;
  write_gbench_project(repo, work(20000), cfg);
  shas.push_back(repo.commit_base_and_branch("pr"));
  repo.write("README", "notes\n");
  shas.push_back(repo.commit("Describe the benchmarks"));
  repo.write("broken.hpp", "#error half-done refactoring\n");
  repo.write("bench.cpp", "#include \"broken.hpp\"\n" + gbench_source(work(20000)));
  shas.push_back(repo.commit("Start the refactoring"));
  repo.remove("broken.hpp");
  repo.write("bench.cpp", gbench_source(work(22000)));
  shas.push_back(repo.commit("Finish the refactoring: more work per item"));
  repo.write("README", "notes, more of them\n");
  shas.push_back(repo.commit("Say more in the notes"));
  repo.write("bench.cpp", gbench_source(work(17600)));
  shas.push_back(repo.commit("Skip the work of every fifth step"));
  return shas;
}

TEST_F(Bisect, FiveCommitsBothStepsNamedTheUnbuiltCommitSkippedWithinTheBudget) {
  GbenchConfig cfg = config(true);
  cfg.rounds = 6;
  cfg.warmup = 1;
  cfg.extra = "budget: 8m\n";
  const std::vector<std::string> shas = five_commits(repo, cfg);

  const BenchprRun r =
      run_bisect(repo, "results.json", {"--seed", "5", "--markdown", out / "comment.md"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json doc = results("results.json");
  ASSERT_EQ(benchmark_named(doc, "BM_Work")["verdict"], "improvement") << r.err;
  ASSERT_TRUE(doc.contains("bisect")) << r.err;
  const json& b = doc["bisect"];
  EXPECT_EQ(b["method"], "time");
  ASSERT_EQ(b["commits"].size(), 6u) << r.err;
  for (std::size_t i = 0; i < shas.size(); ++i) EXPECT_EQ(b["commits"][i]["sha"], shas[i]);
  EXPECT_EQ(b["commits"][2].value("skipped", false), true) << r.err;
  for (int c : {1, 3, 4, 5}) EXPECT_FALSE(b["commits"][c].contains("skipped")) << c;
  EXPECT_TRUE(b["complete"].get<bool>()) << b["stop_reason"] << "\n" << r.err;
  EXPECT_LE(b["seconds"].get<double>(), b["budget_seconds"].get<double>()) << r.err;

  // The steps: 1 → 3 (over the unbuilt 2) about +10%, 4 → 5 about −20%, each with an interval
  // that excludes 0; the steps of the notes-only commits are small whatever the machine does.
  // Six rounds of mean times on a shared runner scatter a step by several points (a CI run read
  // 4 → 5 as −26%, interval −33 … −19%), so "about" is ±10 points: still far from the other
  // step and from 0.
  const auto step = [&](int from, int to) -> const json* {
    for (const json& p : b["pairs"])
      if (p["from"] == from && p["to"] == to && !p.contains("failure")) return &p;
    return nullptr;
  };
  // BM_Work's value of a step (an untouched benchmark that noise gave a verdict is followed too).
  const auto work_in = [&](const json* pair) -> const json& {
    for (const json& v : (*pair)["values"])
      if (v["name"] == "BM_Work") return v;
    ADD_FAILURE() << "no BM_Work in " << pair->dump();
    return (*pair)["values"].at(0);
  };
  const json* plus10 = step(1, 3);
  ASSERT_NE(plus10, nullptr) << b.dump(1);
  const json& v3 = work_in(plus10);
  EXPECT_NEAR(v3["change"].get<double>(), 0.10, 0.08) << b.dump(1);
  EXPECT_GT(v3["ci"][0].get<double>(), 0) << b.dump(1);
  const json* minus20 = step(4, 5);
  ASSERT_NE(minus20, nullptr) << b.dump(1);
  const json& v5 = work_in(minus20);
  EXPECT_NEAR(v5["change"].get<double>(), -0.20, 0.10) << b.dump(1);
  EXPECT_LT(v5["ci"][1].get<double>(), 0) << b.dump(1);
  for (const auto& [from, to] : {std::pair{0, 1}, std::pair{3, 4}}) {
    const json* same = step(from, to);
    ASSERT_NE(same, nullptr) << from << "-" << to << "\n" << b.dump(1);
    for (const json& v : (*same)["values"])
      EXPECT_LT(std::fabs(v["change"].get<double>()), 0.05) << b.dump(1);
  }
  // BM_Work is followed, and a benchmark is followed only when the comparison called it a
  // regression or an improvement. BM_Same is untouched: six rounds on a loaded runner once
  // called it a −2.5% improvement, and then it is followed too.
  bool work_followed = false;
  for (const json& t : b["targets"]) {
    work_followed = work_followed || t["name"] == "BM_Work";
    const std::string v = benchmark_named(doc, t["name"].get<std::string>())["verdict"];
    EXPECT_TRUE(v == "regression" || v == "improvement") << t.dump();
  }
  EXPECT_TRUE(work_followed) << b["targets"].dump();

  // The comment: the line under the row names both commits and the skipped one, the collapsed
  // table lists every commit.
  const std::string md = read_file(out / "comment.md");
  const std::string c2 = shas[2].substr(0, 7);
  const std::string c3 = shas[3].substr(0, 7);
  const std::string c5 = shas[5].substr(0, 7);
  const std::string line = "| ↳ came with `" + c2 + " Start the refactoring` or `" + c3 +
                           " Finish the refactoring: more work per item` (+";
  EXPECT_NE(md.find(line), std::string::npos) << md;
  EXPECT_NE(md.find("`" + c2 + "` did not build)"), std::string::npos) << md;
  EXPECT_NE(md.find("`" + c5 + " Skip the work of every fifth step` (−"), std::string::npos) << md;
  EXPECT_NE(md.find("<details><summary>Which commit</summary>"), std::string::npos) << md;
  EXPECT_NE(md.find("Did not build, stepped over: `" + c2 + " Start the refactoring`."),
            std::string::npos)
      << md;
  std::cerr << "bisect: " << b["pairs"].size() - 1 << " comparisons in " << b["seconds"]
            << " s of the " << b["budget_seconds"] << " s left\n";
}

// The same pull request counted under Callgrind (`metric: instructions`): exact counts, one run
// per commit, so the notes-only commits show exactly no change and both steps carry all of it.
TEST_F(Bisect, FiveCommitsByExactInstructionCounts) {
  GbenchConfig cfg = config();
  cfg.extra = "budget: 8m\n";
  const std::vector<std::string> shas = five_commits(repo, cfg);

  const BenchprRun r = run_bisect(repo, "results.json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json doc = results("results.json");
  ASSERT_TRUE(doc.contains("bisect")) << r.err;
  const json& b = doc["bisect"];
  EXPECT_EQ(b["method"], "instructions");
  ASSERT_EQ(b["targets"].size(), 1u) << b.dump(1);
  EXPECT_EQ(b["targets"][0]["suite"], "micro (instructions)");
  EXPECT_EQ(b["commits"][2].value("skipped", false), true) << b.dump(1);
  EXPECT_TRUE(b["complete"].get<bool>()) << b.dump(1);
  // Every commit that built has its count; the steps are the two changes, exactly.
  std::map<int, double> counts;
  for (const json& p : b["pairs"]) {
    if (p.contains("failure")) continue;
    for (const json& v : p["values"]) {
      counts[p["from"].get<int>()] = v["from_value"].get<double>();
      counts[p["to"].get<int>()] = v["to_value"].get<double>();
    }
  }
  ASSERT_EQ(counts.size(), 5u) << b.dump(1);  // all but the unbuilt commit 2
  EXPECT_NEAR(counts[1] / counts[0], 1, 0.001);
  EXPECT_NEAR(counts[3] / counts[1] - 1, 0.10, 0.01);
  EXPECT_NEAR(counts[4] / counts[3], 1, 0.001);
  EXPECT_NEAR(counts[5] / counts[4] - 1, -0.20, 0.01);
  const std::string c5 = shas[5].substr(0, 7);
  EXPECT_NE(r.out.find("Finish the refactoring: more work per item` (+10"), std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("`" + c5 + " Skip the work of every fifth step` (−20"), std::string::npos)
      << r.out;
  std::cerr << "bisect by counts: " << b["pairs"].size() - 1 << " comparisons in " << b["seconds"]
            << " s\n";
}

// Ten commits, the +10% in the seventh: longer than the commit-by-commit limit, so the search
// halves the chain by exact counts and needs three comparisons, not ten.
TEST_F(Bisect, TenCommitsAreHalvedByExactCounts) {
  write_gbench_project(repo, work(20000), config());
  repo.commit_base_and_branch("pr");
  std::vector<std::string> shas = {""};
  for (int c = 1; c <= 10; ++c) {
    repo.write("README", "notes " + std::to_string(c) + "\n");
    if (c == 7) repo.write("bench.cpp", gbench_source(work(22000)));
    shas.push_back(repo.commit(c == 7 ? "More work per item" : "Notes " + std::to_string(c)));
  }

  const BenchprRun r = run_bisect(repo, "results.json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json doc = results("results.json");
  ASSERT_TRUE(doc.contains("bisect")) << r.err;
  const json& b = doc["bisect"];
  EXPECT_TRUE(b["complete"].get<bool>()) << b.dump(1);
  std::vector<std::pair<int, int>> pairs;
  for (const json& p : b["pairs"]) pairs.emplace_back(p["from"].get<int>(), p["to"].get<int>());
  // The main comparison, then 0-5 (flat), 5-7 (the change), 5-6 (flat): 6-7 is the step.
  EXPECT_EQ(pairs, (std::vector<std::pair<int, int>>{{0, 10}, {0, 5}, {5, 7}, {5, 6}}))
      << b.dump(1);
  EXPECT_NE(r.out.find("| ↳ came with `" + shas[7].substr(0, 7) + " More work per item` (+10"),
            std::string::npos)
      << r.out;
}

// No search where there is nothing to find: a PR of two commits that changes nothing, and a PR
// of one commit that changes a benchmark. Each says why in one line and writes no `bisect`.
TEST_F(Bisect, NoSearchWithoutAChangeOrWithOneCommit) {
  {
    write_gbench_project(repo, work(20000), config());
    repo.commit_base_and_branch("pr");
    for (const char* notes : {"one\n", "two\n"}) {
      repo.write("README", notes);
      repo.commit("Notes");
    }
    const BenchprRun r = run_bisect(repo, "flat.json");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.err.find("bisect: no search: no benchmark is a regression or an improvement"),
              std::string::npos)
        << r.err;
    EXPECT_FALSE(results("flat.json").contains("bisect"));
  }
  {
    TempRepo one_commit;
    write_gbench_project(one_commit, work(20000), config());
    one_commit.commit_base_and_branch("pr");
    one_commit.write("bench.cpp", gbench_source(work(22000)));
    one_commit.commit("More work per item");
    const BenchprRun r = run_bisect(one_commit, "one.json");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.err.find("bisect: no search: the pull request has one commit on its first-parent "
                         "chain from the base"),
              std::string::npos)
        << r.err;
    const json doc = results("one.json");
    EXPECT_EQ(benchmark_named(doc, "BM_Work")["verdict"], "regression");
    EXPECT_FALSE(doc.contains("bisect"));
  }
}

}  // namespace
}  // namespace benchpr::testing
