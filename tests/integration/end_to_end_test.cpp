// The backbone, for real: a temporary git repository with a real Google Benchmark project at
// two commits, built and run by the real benchpr binary in interleaved rounds.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>

#include <nlohmann/json.hpp>

#include "support/benchpr_process.hpp"
#include "support/gbench_project.hpp"
#include "support/results_doc.hpp"
#include "support/temp_repo.hpp"

namespace benchpr::testing {
namespace {

using nlohmann::json;

TEST(EndToEnd, KnownLargeEffectIsFoundAndUnchangedBenchmarksRaiseNoAlarm) {
  TempRepo repo;
  GbenchConfig cfg;
  cfg.rounds = 6;
  // The work is chain()'s register operations, not spin()'s loop through memory: under load,
  // identical copies of spin(1000) ran at two speeds from one process to the next (about 420 and
  // 505 ns), and when the head drew the fast one in all three BA rounds and the base the slow one,
  // the crossover fit read a -9% (CI -11 ... -7%) "improvement" of BM_SameB with a +11% position
  // effect. chain()'s time does not depend on where a process's stack and code land.
  const std::vector<GbenchCase> base = {{"BM_Changed", chain(2000), ""},
                                        {"BM_SameA", chain(3000), ""},
                                        {"BM_SameB", chain(1000), "->Arg(64)"}};
  auto head = base;
  head[0].body = chain(8000);  // 4x the work: a large, certain regression
  commit_comparison(repo, base, head, cfg);

  TempDir out;
  const BenchprRun r =
      run_benchpr(BENCHPR_BINARY, {"run", "-C", repo.path(), "--base", "main", "--head", "feature",
                                   "--dry-run", "--seed", "42", "--rounds", "6", "--output",
                                   out / "results.json", "--markdown", out / "comment.md"});
  ASSERT_EQ(r.exit_code, 0) << r.err;

  // Progress on stderr: which round, which side first, elapsed time and the time left.
  // One numbering, the comment's: the warm-up apart, then analysed rounds 1 to 6.
  EXPECT_NE(r.err.find("warm-up round 1 of 1 ("), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("benchpr: round 3 of 6 ("), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find(" of 7"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("first), elapsed "), std::string::npos) << r.err;
  EXPECT_NE(r.err.find(" left"), std::string::npos) << r.err;

  // The comment on stdout, also written to --markdown.
  EXPECT_EQ(r.out, read_file(out / "comment.md"));
  EXPECT_EQ(r.out.rfind("<!-- benchpr:comment key=default -->", 0), 0u);
  EXPECT_NE(r.out.find("Don't merge"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("BM_Changed"), std::string::npos);

  const json doc = json::parse(read_file(out / "results.json"));
  EXPECT_EQ(doc["schema_version"], 2);
  EXPECT_EQ(doc["recommendation"]["verdict"], "do-not-merge");
  EXPECT_EQ(doc["base"]["sha"], repo.git("rev-parse main"));
  EXPECT_EQ(doc["head"]["sha"], repo.git("rev-parse feature"));

  const json* changed = find_benchmark(doc, "BM_Changed");
  ASSERT_NE(changed, nullptr);
  EXPECT_EQ((*changed)["verdict"], "regression");
  // 4x the work is about +300% (six runs under load: +280 ... +304%).
  EXPECT_GT((*changed)["change"].get<double>(), 2.0);
  EXPECT_LT((*changed)["change"].get<double>(), 4.0);
  for (const char* name : {"BM_SameA", "BM_SameB/64"}) {
    const json* same = find_benchmark(doc, name);
    ASSERT_NE(same, nullptr) << name;
    // Same code on both sides: compared in every round (not failed, added or removed), no
    // alarm, and no large change: under a tenth of the known effect measured in the same run
    // (the machine's noise decides the verdict among the others, not the size of the change).
    expect_compared_in_every_round(doc, name, 6);
    const std::string verdict = (*same)["verdict"];
    EXPECT_NE(verdict, "regression") << name << ": " << same->dump();
    EXPECT_NE(verdict, "improvement") << name << ": " << same->dump();
    EXPECT_LT(std::fabs((*same)["change"].get<double>()), 0.1 * (*changed)["change"].get<double>())
        << name << ": " << same->dump();
  }

  // Interleaving: analysed rounds ran in both orders, and each round's runs alternate sides.
  bool ab = false, ba = false;
  for (const json& p : doc["plan"]) {
    if (p["warmup"].get<bool>()) continue;
    ab |= p["order"] == "AB";
    ba |= p["order"] == "BA";
  }
  EXPECT_TRUE(ab && ba);
  int runs = 0;
  for (const json& run : doc["runs"]) {
    const int round = run["round"].get<int>();
    const std::string expected_first = doc["plan"][round]["first"].get<std::string>();
    const bool first = run["position"].get<int>() == 0;
    EXPECT_EQ(run["side"].get<std::string>() == expected_first, first);
    EXPECT_TRUE(run["ok"].get<bool>()) << run.dump();
    ++runs;
  }
  EXPECT_EQ(runs, 2 * 7);  // 6 analysed + 1 warm-up, two sides each
  EXPECT_TRUE(doc["complete"].get<bool>());
}

TEST(EndToEnd, SecondRunReusesWorktreesAndBuildsIncrementally) {
  TempRepo repo;
  GbenchConfig small;
  small.rounds = 2;
  small.warmup = 0;
  write_gbench_project(repo, {{"BM_A", spin(1000), ""}}, small);
  repo.commit("base");
  auto first = run_benchpr(BENCHPR_BINARY, {"run", "-C", repo.path(), "--base", "main", "--head",
                                            "main", "--rounds", "2", "--warmup", "0"});
  ASSERT_EQ(first.exit_code, 0) << first.err;
  const std::string wt = repo.path() + "/.git/benchpr/wt/base/bench.cpp";
  const auto mtime_before = std::filesystem::last_write_time(wt);
  const std::string before = repo.git("log -1 --format=%H");
  auto second = run_benchpr(BENCHPR_BINARY, {"run", "-C", repo.path(), "--base", "main", "--head",
                                             "main", "--rounds", "2", "--warmup", "0"});
  ASSERT_EQ(second.exit_code, 0) << second.err;
  // Unchanged sources keep their mtime, so make/ninja builds stay incremental.
  EXPECT_EQ(std::filesystem::last_write_time(wt), mtime_before);
  // The user's work tree is untouched: benchpr works inside .git/benchpr.
  EXPECT_EQ(repo.git("status --porcelain"), "");
  EXPECT_EQ(repo.git("log -1 --format=%H"), before);
}

TEST(EndToEnd, BadInputEndsInOneClearMessageAndExitCode2) {
  TempRepo repo;
  write_gbench_project(repo, {{"BM_A", spin(100), ""}});
  repo.commit("base");

  auto missing = run_benchpr(BENCHPR_BINARY, {"run", "-C", repo.path(), "--base", "nope"});
  EXPECT_EQ(missing.exit_code, 2);
  EXPECT_NE(missing.err.find("revision 'nope' not found"), std::string::npos) << missing.err;

  TempDir not_repo;
  auto no_repo = run_benchpr(BENCHPR_BINARY, {"run", "-C", not_repo.path(), "--base", "main"});
  EXPECT_EQ(no_repo.exit_code, 2);
  EXPECT_NE(no_repo.err.find("not a git repository"), std::string::npos) << no_repo.err;

  repo.write(".benchpr.yml", "rounds: ten\nsuites: []\n");
  repo.commit("break the config");
  auto bad = run_benchpr(BENCHPR_BINARY, {"run", "-C", repo.path(), "--base", "main"});
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.err.find(".benchpr.yml:1: rounds"), std::string::npos) << bad.err;

  repo.remove(".benchpr.yml");
  repo.commit("no config");
  auto none = run_benchpr(BENCHPR_BINARY, {"run", "-C", repo.path(), "--base", "main"});
  EXPECT_EQ(none.exit_code, 2);
  EXPECT_NE(none.err.find("no .benchpr.yml"), std::string::npos) << none.err;
}

TEST(EndToEnd, HelpAndVersion) {
  auto version = run_benchpr(BENCHPR_BINARY, {"--version"});
  EXPECT_EQ(version.exit_code, 0);
  EXPECT_NE(version.out.find("benchpr "), std::string::npos);
  auto help = run_benchpr(BENCHPR_BINARY, {"run", "--help"});
  EXPECT_EQ(help.exit_code, 0);
  EXPECT_NE(help.out.find("--base"), std::string::npos);
}

}  // namespace
}  // namespace benchpr::testing
