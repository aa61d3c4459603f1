// A real Google Benchmark project measured while CPU spinners hold every core for the whole
// comparison, with the defaults (metric: auto): the verdicts must still be right and the comment
// must say the machine was busy. And the waiting guard on a real sleep.
#include <gtest/gtest.h>

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <iostream>

#include <nlohmann/json.hpp>

#include "support/background_shell.hpp"
#include "support/benchpr_process.hpp"
#include "support/gbench_project.hpp"
#include "support/temp_repo.hpp"

namespace benchpr::testing {
namespace {

using nlohmann::json;

// CPU-bound neighbours, one per core (at least two, as on a 2-core runner with a parallel build
// beside the job), in their own process group so they all die at the end.
class Spinners : public BackgroundShell {
 public:
  Spinners() : BackgroundShell(script()) {}

 private:
  static std::string script() {
    const long cores = std::max(2L, sysconf(_SC_NPROCESSORS_ONLN));
    return "i=0; while [ $i -lt " + std::to_string(cores) +
           " ]; do sh -c 'while :; do :; done' & i=$((i+1)); done; wait";
  }
};

const json& benchmark_of(const json& doc, const std::string& name) {
  for (const json& b : doc["benchmarks"])
    if (b["name"] == name) return b;
  throw std::runtime_error("no benchmark " + name);
}

bool flagged(const json& b, const std::string& flag) {
  for (const json& f : b["flags"])
    if (f == flag) return true;
  return false;
}

TEST(BusyMachine, KnownEffectsFoundAndUnchangedNeverCalledWithDefaults) {
  TempRepo repo;
  GbenchConfig cfg;
  cfg.rounds = 10;
  cfg.warmup = 1;
  cfg.min_time = "0.01";
  const std::vector<GbenchCase> base = {
      {"BM_Plus10", spin(20000), ""}, {"BM_Minus20", spin(20000), ""},
      {"BM_Plus3", spin(20000), ""},  {"BM_SameA", spin(20000), ""},
      {"BM_SameB", spin(5000), ""},   {"BM_SameC", spin(50000), ""}};
  write_gbench_project(repo, base, cfg);
  repo.commit("base");
  repo.branch("pr");
  repo.checkout("pr");
  auto head = base;
  head[0].body = spin(22000);
  head[1].body = spin(16000);
  head[2].body = spin(20600);
  write_gbench_project(repo, head, cfg);
  repo.commit("known effects");

  TempDir out;
  BenchprRun r;
  {
    Spinners load;
    r = run_benchpr(BENCHPR_BINARY, {"run", "-C", repo.path(), "--base", "main", "--head", "pr",
                                     "--output", out / "results.json", "--seed", "11"});
  }
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json doc = json::parse(read_file(out / "results.json"));
  // The CPU share the benchmark processes got: about a third with the spinners alone on a
  // 2-core machine. Far below that, other load shares the cores too and even CPU time spreads
  // too much to decide 10 rounds (seen at 10% of a CPU); the invariants below still hold.
  double cpu = 0, wall = 0;
  for (const json& run : doc["runs"]) {
    if (run["cpu_seconds"].is_number()) {
      cpu += run["cpu_seconds"].get<double>();
      wall += run["seconds"].get<double>();
    }
  }
  ASSERT_GT(wall, 0);
  // The +10% and -20% verdicts are not required here: with the spinners on both cores,
  // identical 10 µs loops in one binary were seen 15% apart (code layout and the sibling
  // hyperthread), the +10% once measured +2.8% and the -20% once came out inconclusive. What is
  // required on any load: no effect is called in the wrong direction, the unchanged benchmarks
  // are never called, and the comment says the machine was busy.
  std::cerr << "the benchmarks got " << cpu / wall << " of a CPU\n";
  for (const char* name : {"BM_Plus10", "BM_Minus20"}) {
    const std::string v = benchmark_of(doc, name)["verdict"];
    EXPECT_TRUE(v == "regression" || v == "improvement" || v == "inconclusive" || v == "slower" ||
                v == "faster")
        << name << ": " << v;
  }
  EXPECT_NE(benchmark_of(doc, "BM_Plus10")["verdict"], "improvement");
  EXPECT_NE(benchmark_of(doc, "BM_Minus20")["verdict"], "regression");
  const std::string plus3 = benchmark_of(doc, "BM_Plus3")["verdict"];
  EXPECT_NE(plus3, "improvement") << r.out;
  EXPECT_NE(plus3, "faster") << r.out;
  for (const char* name : {"BM_SameA", "BM_SameB", "BM_SameC"}) {
    const std::string v = benchmark_of(doc, name)["verdict"];
    for (const char* wrong : {"regression", "improvement", "slower", "faster"})
      EXPECT_NE(v, wrong) << name << "\n" << r.out;
  }
  for (const json& s : doc["series"]) EXPECT_EQ(s["metric"], "cpu_time") << s["name"];
  EXPECT_NE(r.out.find("The machine was busy: the benchmark processes got about"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("compared CPU time"), std::string::npos) << r.out;
  // Contention must not read as waiting.
  for (const json& b : doc["benchmarks"]) EXPECT_FALSE(flagged(b, "waiting")) << b["name"];
}

TEST(WaitingGuard, AddedSleepIsNotReportedAsPlainUnchanged) {
  TempRepo repo;
  GbenchConfig cfg;
  cfg.rounds = 6;
  cfg.warmup = 1;
  cfg.min_time = "0.01";
  const std::vector<GbenchCase> base = {{"BM_Sleep", spin(200000), ""},
                                        {"BM_Same", spin(200000), ""}};
  write_gbench_project(repo, base, cfg);
  repo.commit("base");
  repo.branch("pr");
  repo.checkout("pr");
  auto head = base;
  head[0].body = spin(200000) + " std::this_thread::sleep_for(std::chrono::microseconds(100));";
  write_gbench_project(repo, head, cfg);
  repo.commit("sleep added");

  TempDir out;
  const BenchprRun r =
      run_benchpr(BENCHPR_BINARY, {"run", "-C", repo.path(), "--base", "main", "--head", "pr",
                                   "--output", out / "results.json", "--seed", "3"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json doc = json::parse(read_file(out / "results.json"));
  const json& sleep = benchmark_of(doc, "BM_Sleep");
  EXPECT_FALSE(flagged(benchmark_of(doc, "BM_Same"), "waiting")) << r.out;
  // Never a plain "unchanged" (CPU time flat) without the note.
  if (sleep["verdict"] == "unchanged") {
    EXPECT_TRUE(flagged(sleep, "waiting")) << r.out;
  }
  // On a machine that was not busy the guard must see the sleep. (Busy rounds are left out of
  // the check, as a neighbour's load would pass for waiting there.)
  if (r.out.find("The machine was busy") == std::string::npos) {
    EXPECT_TRUE(flagged(sleep, "waiting")) << r.out;
    bool noted = false;
    for (const json& n : doc["notes"])
      noted = noted || n.get<std::string>().rfind(
                           "Wall time moved while CPU time did not: `BM_Sleep`", 0) == 0;
    EXPECT_TRUE(noted) << doc["notes"];
    EXPECT_NE(r.out.find("Wall time moved while CPU time did not"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("⏳ wall time moved, CPU time did not"), std::string::npos) << r.out;
  }
}

}  // namespace
}  // namespace benchpr::testing
