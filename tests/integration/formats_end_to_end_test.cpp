// Formats end to end: temporary git repositories whose suites use the `custom` and `command`
// formats, with a known effect between base and PR, compared by the real benchpr binary.
#include <gtest/gtest.h>
#include <cmath>

#include <string>

#include <nlohmann/json.hpp>

#include "support/benchpr_process.hpp"
#include "support/results_doc.hpp"
#include "support/temp_repo.hpp"

namespace benchpr::testing {
namespace {

using nlohmann::json;

// A script that writes github-action-benchmark custom JSON to $1: one entry per name=value
// pair, each value with +-0.5% uniform noise (awk seeded with the process id, since /bin/sh
// has no $RANDOM).
std::string custom_script(const std::string& unit, const std::string& pairs) {
  return "#!/bin/sh\n"
         "awk -v pid=$$ -v pairs='" +
         pairs + "' -v unit='" + unit +
         "' 'BEGIN {\n"
         "  srand(pid); n = split(pairs, p, \" \"); printf \"[\";\n"
         "  for (i = 1; i <= n; i++) { split(p[i], kv, \"=\");\n"
         "    printf \"%s{\\\"name\\\": \\\"%s\\\", \\\"unit\\\": \\\"%s\\\", \\\"value\\\": %.4f, "
         "\\\"range\\\": \\\"± 0.5%%\\\"}\", (i > 1 ? \",\" : \"\"), kv[1], unit, "
         "kv[2] * (1 + (rand() - 0.5) * 0.01) }\n"
         "  print \"]\" }' > \"$1\"\n";
}

json run_and_read(TempRepo& repo, const TempDir& out) {
  const BenchprRun r =
      run_benchpr(BENCHPR_BINARY, {"run", "-C", repo.path(), "--base", "main", "--head", "feature",
                                   "--dry-run", "--seed", "7", "--output", out / "results.json"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return json::parse(read_file(out / "results.json"));
}

TEST(FormatsEndToEnd, CustomSuitesWithKnownTenPercentEffects) {
  TempRepo repo;
  repo.write(".benchpr.yml",
             "suites:\n"
             "  - name: latency\n"
             "    run: sh latency.sh {out}\n"
             "    format: custom\n"
             "  - name: throughput\n"
             "    run: sh throughput.sh {out}\n"
             "    format: custom\n"
             "    better: higher\n"
             "rounds: 10\n"
             "warmup_rounds: 0\n"
             "threshold: 2%\n"
             "timeout: 1m\n");
  repo.write("latency.sh", custom_script("ns", "parse=1000 lookup=500"));
  repo.write("throughput.sh", custom_script("MB/s", "upload=800 download=950"));
  repo.commit_base_and_branch();
  // parse takes 10% longer; upload moves 10% fewer bytes per second; the rest is untouched.
  repo.write("latency.sh", custom_script("ns", "parse=1100 lookup=500"));
  repo.write("throughput.sh", custom_script("MB/s", "upload=720 download=950"));
  repo.commit("slower parse, slower upload");

  TempDir out;
  const json doc = run_and_read(repo, out);
  EXPECT_EQ(doc["recommendation"]["verdict"], "do-not-merge");

  const json* parse = find_benchmark(doc, "latency", "parse");
  ASSERT_NE(parse, nullptr) << doc.dump(1);
  EXPECT_EQ((*parse)["verdict"], "regression");
  EXPECT_NEAR((*parse)["change"].get<double>(), 0.10, 0.02);
  EXPECT_EQ((*parse)["unit"], "ns");

  // A throughput that drops is a regression, even though its number went down.
  const json* upload = find_benchmark(doc, "throughput", "upload");
  ASSERT_NE(upload, nullptr);
  EXPECT_EQ((*upload)["verdict"], "regression");
  EXPECT_NEAR((*upload)["change"].get<double>(), -0.10, 0.02);
  EXPECT_EQ((*upload)["better"], "higher");
  EXPECT_EQ((*upload)["unit"], "MB/s");

  for (const auto& [suite, name] : {std::pair{"latency", "lookup"}, {"throughput", "download"}}) {
    const json* same = find_benchmark(doc, suite, name);
    ASSERT_NE(same, nullptr) << name;
    // The scripts' noise is seeded by their pid, so each run differs: an untouched benchmark may
    // come out significant below the threshold (about 4% per benchmark at this false discovery
    // rate), but never beyond it, and its change stays inside the noise.
    const std::string verdict = (*same)["verdict"];
    EXPECT_TRUE(verdict == "unchanged" || verdict == "faster" || verdict == "slower")
        << name << ": " << verdict;
    EXPECT_LT(std::abs((*same)["change"].get<double>()), 0.01) << name;
  }
}

TEST(FormatsEndToEnd, ThroughputThatRisesIsAnImprovement) {
  TempRepo repo;
  repo.write(".benchpr.yml",
             "suites:\n"
             "  - name: net\n"
             "    run: sh net.sh {out}\n"
             "    format: custom\n"
             "    better: higher\n"
             "rounds: 4\nwarmup_rounds: 0\n");
  repo.write("net.sh", custom_script("Gbit/s", "tcp=9.0"));
  repo.commit_base_and_branch();
  repo.write("net.sh", custom_script("Gbit/s", "tcp=9.9"));
  repo.commit("faster tcp");
  TempDir out;
  const json doc = run_and_read(repo, out);
  const json* tcp = find_benchmark(doc, "net", "tcp");
  ASSERT_NE(tcp, nullptr);
  EXPECT_EQ((*tcp)["verdict"], "improvement");
  EXPECT_EQ(doc["recommendation"]["verdict"], "merge");
}

// Per-benchmark settings of a custom suite: one rule makes `tput` a throughput (its 15% drop is
// a regression), another gives `rate` a threshold of its own; `rate` is in req/s with no
// direction set anywhere, and the comment says so.
TEST(FormatsEndToEnd, PerBenchmarkBetterAndThresholdAndThePerSecondNote) {
  const auto script = [](const std::string& tput) {
    return "#!/bin/sh\n"
           "awk -v pid=$$ 'BEGIN { srand(pid);\n"
           "  printf \"[{\\\"name\\\": \\\"tput\\\", \\\"unit\\\": \\\"MB/s\\\", "
           "\\\"value\\\": %.4f},\", " +
           tput +
           " * (1 + (rand() - 0.5) * 0.01);\n"
           "  printf \"{\\\"name\\\": \\\"rate\\\", \\\"unit\\\": \\\"req/s\\\", "
           "\\\"value\\\": %.4f}]\\n\", 50 * (1 + (rand() - 0.5) * 0.01) }' > \"$1\"\n";
  };
  TempRepo repo;
  repo.write(".benchpr.yml",
             "suites:\n"
             "  - name: net\n"
             "    run: sh net.sh {out}\n"
             "    format: custom\n"
             "    benchmarks:\n"
             "      - {match: \"tput*\", better: higher}\n"
             "      - {match: \"rate\", threshold: 10%}\n"
             "rounds: 6\nwarmup_rounds: 0\n");
  repo.write("net.sh", script("100"));
  repo.commit_base_and_branch();
  repo.write("net.sh", script("85"));
  repo.commit("15% less throughput");
  TempDir out;
  const json doc = run_and_read(repo, out);

  const json* tput = find_benchmark(doc, "net", "tput");
  ASSERT_NE(tput, nullptr) << doc.dump(1);
  EXPECT_EQ((*tput)["better"], "higher");
  EXPECT_EQ((*tput)["verdict"], "regression");
  EXPECT_NEAR((*tput)["change"].get<double>(), -0.15, 0.02);
  EXPECT_DOUBLE_EQ((*tput)["threshold"].get<double>(), 0.02);
  const json* rate = find_benchmark(doc, "net", "rate");
  ASSERT_NE(rate, nullptr);
  EXPECT_EQ((*rate)["better"], "lower");
  EXPECT_DOUBLE_EQ((*rate)["threshold"].get<double>(), 0.10);
  // Untouched, with pid-seeded noise: significant below its own 10% threshold now and then, never
  // beyond it.
  const std::string rate_verdict = (*rate)["verdict"];
  EXPECT_TRUE(rate_verdict == "unchanged" || rate_verdict == "faster" || rate_verdict == "slower")
      << rate_verdict;
  EXPECT_LT(std::abs((*rate)["change"].get<double>()), 0.01);
  bool noted = false;
  for (const json& note : doc["notes"])
    noted |=
        note.get<std::string>().find("Suite `net` reports `rate` in req/s") != std::string::npos;
  EXPECT_TRUE(noted) << doc["notes"].dump();
  EXPECT_EQ(doc["recommendation"]["verdict"], "do-not-merge");
}

// The `command` format: benchpr times the suite's command itself. The PR's loop does three times
// the work: wall time of a ~0.1 s process on a busy shared machine varies by tens of percent from
// round to round, so the effect is large on purpose (twice the work measured +39%, CI −5.9 …
// +105.6%, with 6 rounds beside another test on a loaded machine: inconclusive).
TEST(FormatsEndToEnd, CommandSuiteWithAThreeTimesLongerLoop) {
  TempRepo repo;
  repo.write(".benchpr.yml",
             "suites:\n"
             "  - name: loop\n"
             "    run: sh loop.sh\n"
             "    format: command\n"
             "  - name: loop-cpu\n"
             "    run: sh loop.sh\n"
             "    format: command\n"
             "    metric: cpu_time\n"
             "rounds: 10\n"
             "warmup_rounds: 0\n"
             "timeout: 1m\n");
  const auto loop = [](int n) {
    return "i=0; while [ $i -lt " + std::to_string(n) + " ]; do i=$((i+1)); done\n";
  };
  repo.write("loop.sh", loop(40000));
  repo.commit_base_and_branch();
  repo.write("loop.sh", loop(120000));
  repo.commit("three times the iterations");

  TempDir out;
  const json doc = run_and_read(repo, out);
  for (const json& run : doc["runs"]) EXPECT_TRUE(run["ok"].get<bool>()) << run.dump();
  for (const char* suite : {"loop", "loop-cpu"}) {
    const json* b = find_benchmark(doc, suite, suite);
    ASSERT_NE(b, nullptr) << suite << "\n" << doc.dump(1);
    EXPECT_EQ((*b)["verdict"], "regression") << suite << ": " << b->dump();
    EXPECT_EQ((*b)["unit"], "ns");
    EXPECT_GT((*b)["change"].get<double>(), 0.3) << suite;  // about +200%
  }
  EXPECT_EQ(doc["recommendation"]["verdict"], "do-not-merge");
}

}  // namespace
}  // namespace benchpr::testing
