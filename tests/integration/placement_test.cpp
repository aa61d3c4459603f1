// Code placement, for real: a Google Benchmark project whose PR only grows a function placed in
// front of the benchmarked one, so the benchmarked code is byte-identical at another address;
// one whose PR swaps an xor for an add in the benchmarked loop, the same instruction count of
// other code; and one whose PR rewrites only a branch its benchmark never takes. Measured by the
// real benchpr binary with instruction counts. Time on a shared machine may or may not move: the
// test judges the evidence and the decision path, never a time.
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

// `pad` statements in a function emitted before the hot ones: the PR's larger one moves them.
// `changed_op` is the second step of hot_changed's xorshift ("^=" or "+=": one instruction each).
// `untaken` is what hot_branch does when its mode is set, which BM_Branch never sets: the PR
// changes code its benchmark never runs.
std::string prelude(int pad, const std::string& changed_op,
                    const std::string& untaken = "x = x * 3 + 1;") {
  std::string pad_body;
  for (int i = 1; i <= pad; ++i) pad_body += "g_sink = g_sink * " + std::to_string(i) + " + 1; ";
  return "volatile int g_sink;\n"
         "__attribute__((noinline, used)) void pad_code() { " +
         pad_body +
         "}\n"
         "__attribute__((noinline)) unsigned long long hot_work(unsigned long long x) {\n"
         "  for (int i = 0; i < 2000; ++i) { x ^= x << 13; x ^= x >> 7; x ^= x << 17; }\n"
         "  return x;\n}\n"
         "__attribute__((noinline)) unsigned long long hot_changed(unsigned long long x) {\n"
         "  for (int i = 0; i < 2000; ++i) { x ^= x << 13; x " +
         changed_op +
         " x >> 7; x ^= x << 17; }\n"
         "  return x;\n}\n"
         "__attribute__((noinline)) unsigned long long hot_branch(unsigned long long x, int m) "
         "{\n"
         "  if (m) { " +
         untaken +
         " }\n"
         "  for (int i = 0; i < 2000; ++i) { x ^= x << 13; x ^= x >> 7; x ^= x << 17; }\n"
         "  return x;\n}\n"
         "volatile int g_mode = 0;\n"
         "static unsigned long long g_x = 88172645463325252ull;\n";
}

std::vector<GbenchCase> cases() {
  return {
      {"BM_Placed", "g_x = hot_work(g_x); benchmark::DoNotOptimize(g_x);", ""},
      {"BM_Changed", "g_x = hot_changed(g_x); benchmark::DoNotOptimize(g_x);", ""},
      {"BM_Branch", "g_x = hot_branch(g_x, g_mode); benchmark::DoNotOptimize(g_x);", ""},
  };
}

const json* hot_code(const json& doc, const std::string& name) {
  if (!doc.contains("hot_code")) return nullptr;
  for (const json& e : doc["hot_code"])
    if (e["suite"] == "micro" && e["name"] == name) return &e;
  return nullptr;
}

const json* hot_function(const json& evidence, const std::string& prefix) {
  for (const json& f : evidence["functions"])
    if (f["name"].get<std::string>().rfind(prefix, 0) == 0) return &f;
  return nullptr;
}

TEST(Placement, MovedIdenticalCodeIsNeverThePRsRegressionAndChangedCodeIsNotPlacement) {
  TempRepo repo;
  GbenchConfig cfg;
  cfg.rounds = 4;
  cfg.min_time = "0.005";
  cfg.metric = "cpu_time";
  cfg.extra = "instructions: true\n";
  write_gbench_project(repo, cases(), cfg, prelude(1, "^="));
  repo.commit_base_and_branch();
  // The PR's untaken branch is long enough (about 0x300 bytes) that the jump over it no longer
  // fits a short `je` (74 rel8): the compiler encodes the same jump near (0F 84 rel32), as
  // cctz's n_sec after its PR.
  std::string long_untaken;
  for (int i = 1; i <= 30; ++i)
    long_untaken += "x = x * " + std::to_string(2 * i + 1) + " + (x >> " +
                    std::to_string(i % 7 + 1) + ") + g_sink; ";
  write_gbench_project(repo, cases(), cfg, prelude(60, "+=", long_untaken));
  repo.commit(
      "a larger function in front of the hot one; an add for an xor in another; another branch "
      "nobody takes in a third");

  TempDir out;
  const BenchprRun r = run_benchpr_as_given(
      BENCHPR_BINARY, {"run", "-C", repo.path(), "--base", "main", "--head", "feature", "--dry-run",
                       "--seed", "3", "--output", out / "results.json"});
  const json doc = json::parse(read_file(out / "results.json"));
  ASSERT_TRUE(doc.contains("benchmarks")) << r.err;

  // The counts: the same on both sides for both benchmarks (one instruction for one).
  for (const char* name : {"BM_Placed", "BM_Changed", "BM_Branch"}) {
    const json* ins = find_benchmark(doc, "micro (instructions)", name);
    ASSERT_NE(ins, nullptr) << name << "\n" << r.err;
    EXPECT_EQ((*ins)["verdict"], "unchanged") << ins->dump();
  }

  // BM_Placed: its hot function is byte-identical code at another address.
  const json* placed = hot_code(doc, "BM_Placed");
  ASSERT_NE(placed, nullptr) << r.err;
  EXPECT_FALSE(placed->contains("missing")) << placed->dump();
  EXPECT_GE((*placed)["covered"].get<double>(), 0.9) << placed->dump();
  const json* work = hot_function(*placed, "hot_work");
  ASSERT_NE(work, nullptr) << placed->dump();
  EXPECT_TRUE((*work)["identical"].get<bool>()) << placed->dump();
  EXPECT_NE((*work)["base_address"], (*work)["head_address"]) << placed->dump();
  EXPECT_EQ((*work)["base_size"], (*work)["head_size"]);
  // Whatever time read, the row is never the PR's regression, improvement or change: a time
  // change is placement, an undecided time the same work, a flat one unchanged.
  const json* timed = find_benchmark(doc, "micro", "BM_Placed");
  ASSERT_NE(timed, nullptr);
  const std::string verdict = (*timed)["verdict"];
  // What this machine's time read, for the test's report (not judged).
  RecordProperty("BM_Placed", verdict + " " + timed->value("time_verdict", std::string()));
  EXPECT_TRUE(verdict == "placement" || verdict == "unchanged") << timed->dump();
  if (timed->contains("code_reading")) {
    const std::string reading = (*timed)["code_reading"];
    const std::string by_time = (*timed)["time_verdict"];
    if (reading == "placement") {
      EXPECT_TRUE(by_time == "regression" || by_time == "improvement" || by_time == "slower" ||
                  by_time == "faster")
          << timed->dump();
      EXPECT_NE(r.out.find("📐 code placement: same instructions"), std::string::npos) << r.out;
      EXPECT_NE(r.out.find("may flip with the next commit"), std::string::npos) << r.out;
    } else {
      EXPECT_EQ(reading, "same-work") << timed->dump();
      EXPECT_EQ(by_time, "inconclusive");
      EXPECT_NE(r.out.find("unchanged: same work"), std::string::npos) << r.out;
    }
  }

  // BM_Changed: the same count of other code is not the same code, and never placement.
  const json* changed = hot_code(doc, "BM_Changed");
  ASSERT_NE(changed, nullptr) << r.err;
  const json* other = hot_function(*changed, "hot_changed");
  ASSERT_NE(other, nullptr) << changed->dump();
  EXPECT_FALSE((*other)["identical"].get<bool>()) << changed->dump();
  const json* changed_time = find_benchmark(doc, "micro", "BM_Changed");
  ASSERT_NE(changed_time, nullptr);
  EXPECT_NE((*changed_time)["verdict"], "placement") << changed_time->dump();
  // Time stands, or, undecided but short of the threshold on the worse side, the same count
  // of changed code reads unchanged (docs/placement.md, "same count").
  if (changed_time->contains("code_reading")) {
    EXPECT_EQ((*changed_time)["code_reading"], "same-count") << changed_time->dump();
    EXPECT_EQ((*changed_time)["verdict"], "unchanged") << changed_time->dump();
    EXPECT_EQ((*changed_time)["time_verdict"], "inconclusive") << changed_time->dump();
    EXPECT_NE(r.out.find("unchanged: same count"), std::string::npos) << r.out;
  }

  // BM_Branch: hot_branch changed, but only in the branch the benchmark never takes: the code
  // it runs is the same, moved (the jump over the branch reaches further, encoded near where the
  // base's was short, and the loop needs other padding). The base's path through the PR's bytes,
  // from the entry: the same code where it runs, so its time is placement or the same work, as
  // for BM_Placed, and the row names the function that changed where it does not run.
  const json* branch = hot_code(doc, "BM_Branch");
  ASSERT_NE(branch, nullptr) << r.err;
  const json* branchy = hot_function(*branch, "hot_branch");
  ASSERT_NE(branchy, nullptr) << branch->dump();
  EXPECT_FALSE((*branchy)["identical"].get<bool>()) << branch->dump();
  EXPECT_TRUE(branchy->value("executed_same", false)) << branch->dump();
  // Grown by more than a short jump reaches (127 bytes): the jump over it cannot stay short.
  EXPECT_GT((*branchy)["head_size"].get<int>(), (*branchy)["base_size"].get<int>() + 127)
      << branch->dump();
  const json* branch_time = find_benchmark(doc, "micro", "BM_Branch");
  ASSERT_NE(branch_time, nullptr);
  const std::string branch_verdict = (*branch_time)["verdict"];
  RecordProperty("BM_Branch", branch_verdict);
  EXPECT_TRUE(branch_verdict == "placement" || branch_verdict == "unchanged")
      << branch_time->dump();
  if (branch_time->contains("code_reading")) {
    const std::string reading = (*branch_time)["code_reading"];
    EXPECT_TRUE(reading == "placement" || reading == "same-work") << branch_time->dump();
    EXPECT_NE(r.out.find("changed only where it does not run"), std::string::npos) << r.out;
  }

  // `publish` reads the same evidence from the file and says the same.
  const BenchprRun p = run_benchpr(BENCHPR_BINARY, {"publish", out / "results.json", "--dry-run"});
  EXPECT_EQ(p.exit_code, r.exit_code) << p.err;
  EXPECT_EQ(p.out, r.out);
}

}  // namespace
}  // namespace benchpr::testing
