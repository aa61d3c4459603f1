// A PR that moves a benchmark's work to a helper thread: Google Benchmark's CPU time counts the
// calling thread only, so `metric: auto` read "49.8% faster" where the wall time did not move
// (or got worse). On a real Google Benchmark binary, such a benchmark must be compared on wall
// time, flagged, and named in a note; the benchmarks it did not touch stay on CPU time.
#include <gtest/gtest.h>

#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "support/benchpr_process.hpp"
#include "support/gbench_project.hpp"
#include "support/results_doc.hpp"
#include "support/temp_repo.hpp"

namespace benchpr::testing {
namespace {

using nlohmann::json;

bool flagged(const json& b, const std::string& flag) {
  for (const json& f : b["flags"])
    if (f == flag) return true;
  return false;
}

// `helper` steps on a thread the benchmark starts and waits for, then `own` steps on the calling
// thread: the wall time counts both, Google Benchmark's CPU time only `own`.
std::string with_helper_thread(int helper, int own) {
  return "std::thread t([] { " + chain(helper) + " }); t.join(); " + chain(own);
}

TEST(HelperThread, WorkMovedOffTheCallingThreadIsComparedOnWallTime) {
  constexpr int kHalf = 200000;
  TempRepo repo;
  GbenchConfig cfg;
  cfg.min_time = "0.01";
  const std::vector<GbenchCase> base = {{"BM_Half", chain(2 * kHalf), ""},
                                        {"BM_Worse", chain(2 * kHalf), ""},
                                        {"BM_SameA", chain(20000), ""},
                                        {"BM_SameB", chain(10000), ""},
                                        {"BM_SameC", chain(40000), ""}};
  auto head = base;
  // Half the work on a helper thread: the calling thread's CPU time halves, the wall time stays.
  head[0].body = with_helper_thread(kHalf, kHalf);
  // Half on a helper and 50% more on the calling thread: CPU time -25%, wall time +25%.
  head[1].body = with_helper_thread(kHalf, 3 * kHalf / 2);
  commit_comparison(repo, base, head, cfg, "pr");

  TempDir out;
  const BenchprRun r =
      run_benchpr(BENCHPR_BINARY, {"run", "-C", repo.path(), "--base", "main", "--head", "pr",
                                   "--rounds", "10", "--output", out / "results.json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json doc = json::parse(read_file(out / "results.json"));
  if (std::getenv("SHOW_OUTPUT")) std::cerr << r.out;
  for (const json& b : doc["benchmarks"])
    std::cerr << b["name"] << ": " << b["verdict"] << " " << b["change"] << " " << b["flags"]
              << "\n";
  // The results file keeps what was measured: both series are still CPU time there.
  for (const json& s : doc["series"]) EXPECT_EQ(s["metric"], "cpu_time") << s["name"];

  // Both compared on wall time: on a quiet machine the gap between wall and CPU time shows it;
  // on a loaded one, where the wall time scatters by tens of percent per round, the processes'
  // CPU time (the helper threads count there) does.
  const json& half = benchmark_named(doc, "BM_Half");
  const json& worse = benchmark_named(doc, "BM_Worse");
  for (const json* b : {&half, &worse}) {
    EXPECT_TRUE(flagged(*b, "wall-time")) << (*b)["name"] << "\n" << r.out;
    EXPECT_EQ((*b)["metric"], "real_time") << (*b)["name"];
    // Never the calling thread's -50% or -25% as a win. What the wall time says is the
    // machine's to decide: a loaded machine may leave it open.
    for (const char* wrong : {"improvement", "faster"})
      EXPECT_NE((*b)["verdict"], wrong) << (*b)["name"] << "\n" << r.out;
  }
  // A wall time 25% longer is never shown unchanged.
  EXPECT_NE(worse["verdict"], "unchanged") << r.out;
  // The headline claims no win for either: what it says each one is (up to its interval) is
  // never "faster". (An inconclusive row may still explain that, within the modes a busy
  // machine makes, the PR's runs read faster while it moved them into the slower mode.)
  const std::string headline = doc["recommendation"]["reason"];
  for (const char* name : {"`BM_Half` is ", "`BM_Worse` is "}) {
    const std::size_t at = headline.find(name);
    if (at == std::string::npos) continue;
    const std::string claim = headline.substr(at, headline.find('(', at) - at);
    EXPECT_EQ(claim.find("faster"), std::string::npos) << headline;
  }
  EXPECT_EQ(headline.find("Against that"), std::string::npos) << headline;

  for (const char* name : {"BM_SameA", "BM_SameB", "BM_SameC"}) {
    const json& b = benchmark_named(doc, name);
    EXPECT_FALSE(flagged(b, "wall-time")) << name << "\n" << r.out;
    EXPECT_FALSE(b.contains("metric")) << name;  // compared as the series holds it: CPU time
  }
  bool noted = false;
  for (const json& n : doc["notes"]) {
    const std::string text = n;
    noted = noted || (text.rfind("CPU time missed work: ", 0) == 0 &&
                      text.find("`BM_Half` (CPU time −4") != std::string::npos &&
                      text.find("`BM_Worse` (CPU time −") != std::string::npos);
  }
  EXPECT_TRUE(noted) << doc["notes"];
  EXPECT_NE(r.out.find("wall time compared: CPU time missed work"), std::string::npos) << r.out;
}

}  // namespace
}  // namespace benchpr::testing
