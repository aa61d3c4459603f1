// `benchpr compare`'s reading of result files, on captured real outputs (tests/data/) and on
// files written for the purpose: which tool wrote a file, that a file is one process (one round,
// its value the reader's summary of its repetitions) while each of hyperfine's runs is a process
// of its own, what is refused (unequal summaries, names two benchmarks share), and that reading
// is linear in the files' size.
#include "benchpr/app/compare_results.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include <fmt/format.h>

#include "benchpr/app/report_output.hpp"
#include "benchpr/app/user_error.hpp"
#include "benchpr/core/adaptive/session_analysis.hpp"
#include "support/temp_dir.hpp"

namespace benchpr::app {
namespace {

ResultFile data(const std::string& name) {
  const std::string path = std::string(BENCHPR_TEST_DATA_DIR) + "/" + name;
  return {path, testing::read_file(path)};
}

bool contains(const std::string& haystack, const std::string& needle) {
  return haystack.find(needle) != std::string::npos;
}

// The message of the UserError `f` throws; "" when it throws none.
template <typename F>
std::string refusal(F f) {
  try {
    f();
  } catch (const UserError& e) {
    return e.what();
  }
  return "";
}

// One benchmark of a Google Benchmark file: its name and the times of its repetitions (ns).
struct GbBenchmark {
  std::string name;
  std::vector<double> times;
};

// A Google Benchmark file as the library writes it with --benchmark_repetitions: an iteration
// entry per repetition, then (with `aggregates`) the mean and median; `aggregates_only` leaves
// the repetitions out (--benchmark_report_aggregates_only). `context` pads the context object.
std::string gb_file(const std::vector<GbBenchmark>& benchmarks, bool aggregates = false,
                    bool aggregates_only = false, const std::string& context = "") {
  std::string out = "{\"context\": {\"date\": \"2026-01-01\", \"library_build_type\": \"release\"";
  if (!context.empty()) out += ", \"padding\": \"" + context + "\"";
  out += "}, \"benchmarks\": [";
  bool first = true;
  const auto entry = [&](const std::string& body) {
    out += (first ? "\n" : ",\n") + body;
    first = false;
  };
  for (std::size_t family = 0; family < benchmarks.size(); ++family) {
    const GbBenchmark& b = benchmarks[family];
    const std::size_t n = b.times.size();
    if (!aggregates_only) {
      for (std::size_t k = 0; k < n; ++k)
        entry(fmt::format(
            R"({{"name": "{0}", "family_index": {1}, "per_family_instance_index": 0, )"
            R"("run_name": "{0}", "run_type": "iteration", "repetitions": {2}, )"
            R"("repetition_index": {3}, "threads": 1, "iterations": 1000, "real_time": {4}, )"
            R"("cpu_time": {4}, "time_unit": "ns"}})",
            b.name, family, n, k, b.times[k]));
    }
    if (aggregates || aggregates_only) {
      std::vector<double> sorted = b.times;
      std::sort(sorted.begin(), sorted.end());
      double mean = 0;
      for (double t : sorted) mean += t / static_cast<double>(n);
      const double median = n % 2 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
      for (const auto& [aggregate, value] : {std::pair{"mean", mean}, std::pair{"median", median}})
        entry(fmt::format(
            R"({{"name": "{0}_{2}", "family_index": {1}, "per_family_instance_index": 0, )"
            R"("run_name": "{0}", "run_type": "aggregate", "repetitions": {3}, "threads": 1, )"
            R"("aggregate_name": "{2}", "aggregate_unit": "time", "iterations": {3}, )"
            R"("real_time": {4}, "cpu_time": {4}, "time_unit": "ns"}})",
            b.name, family, aggregate, n, value));
    }
  }
  return out + "\n]}\n";
}

ResultFile file(const std::string& path, std::string content) { return {path, std::move(content)}; }

// The comment's reading of `in`, as `compare` makes it.
Analysis analyse(const CompareInput& in) {
  const Results r = results_from_files(in);
  Analysis a = analyse_session(r);
  withhold_verdicts_below_minimum(r, a);
  return a;
}

bool decided(Verdict v) {
  return v == Verdict::Regression || v == Verdict::Improvement || v == Verdict::Slower ||
         v == Verdict::Faster;
}

TEST(CompareResults, TheFormatComesFromTheFilesShape) {
  EXPECT_EQ(detect_result_format(data("google-benchmark/single_run.json")), "google-benchmark");
  EXPECT_EQ(detect_result_format(data("jmh/tls_benchmark.json")), "jmh");
  EXPECT_EQ(detect_result_format(data("hyperfine/command_names.json")), "hyperfine");
  EXPECT_THROW(detect_result_format({"x.json", "{\"results\": 3}"}), UserError);
  EXPECT_THROW(detect_result_format({"x.json", "not json"}), UserError);
}

// repetitions.json: 3 repetitions of each benchmark, with mean/median/stddev aggregates. The
// repetitions ran in one process: they are that process's value, not 3 rounds.
TEST(CompareResults, AGoogleBenchmarkFileIsOneProcessOneRound) {
  CompareInput in;
  in.base = {data("google-benchmark/repetitions.json")};
  in.head = {data("google-benchmark/repetitions.json")};
  const Results r = results_from_files(in);
  ASSERT_EQ(r.plan.size(), 1u);
  int compared = 0;
  for (const BenchmarkSeries& s : r.series) {
    ASSERT_EQ(s.base.size(), 1u) << s.name;
    if (is_missing(s.base[0])) continue;  // a benchmark the file reports as failed
    ++compared;
    EXPECT_EQ(s.base[0], s.head[0]) << s.name;
  }
  EXPECT_GT(compared, 0);
  EXPECT_EQ(describe(r.stop), "read 1 base and 1 PR run from files");
}

// command_names.json: two commands run 3 times each. hyperfine starts a command afresh for
// every time it keeps: run k holds each command's k-th process.
TEST(CompareResults, AHyperfineFileGivesARoundPerProcessWhenTimeIsCompared) {
  const ResultFile f = data("hyperfine/command_names.json");
  CompareInput in;
  in.base = {f};
  in.head = {f};
  const Results r = results_from_files(in);
  ASSERT_EQ(r.plan.size(), 3u);
  int found = 0;
  for (const BenchmarkSeries& s : r.series) {
    if (s.name != "short-sleep") continue;
    ++found;
    ASSERT_EQ(s.base.size(), 3u);
    EXPECT_NEAR(s.base[1], 0.011824688180000001e9, 1);  // nanoseconds
    EXPECT_NEAR(s.head[2], 0.011902841180000002e9, 1);
  }
  EXPECT_EQ(found, 1);
  // Another metric (user, mean, ...) has one value per command: one run.
  in.metric = "user";
  EXPECT_EQ(results_from_files(in).plan.size(), 1u);
}

TEST(CompareResults, FilesOfBothSidesArePairedIntoRoundsInOrder) {
  CompareInput in;
  in.base = {data("google-benchmark/single_run.json"), data("google-benchmark/single_run.json")};
  in.head = {data("google-benchmark/single_run.json"), data("google-benchmark/single_run.json"),
             data("google-benchmark/single_run.json")};
  const Results r = results_from_files(in);
  EXPECT_EQ(r.origin, Origin::ResultFiles);
  EXPECT_EQ(r.base.sha, "");
  ASSERT_EQ(r.plan.size(), 3u);
  for (const RoundPlan& p : r.plan) {
    EXPECT_FALSE(p.warmup);
    EXPECT_EQ(p.first, Side::Base);
  }
  ASSERT_EQ(r.config.suites.size(), 1u);
  EXPECT_EQ(r.config.suites[0].name, "google-benchmark");
  for (const BenchmarkSeries& s : r.series) {
    EXPECT_EQ(s.base.size(), 3u) << s.name;
    EXPECT_EQ(s.head.size(), 3u) << s.name;
    EXPECT_TRUE(is_missing(s.base[2])) << s.name;  // the base has no third run
  }
  EXPECT_EQ(describe(r.stop), "read 2 base and 3 PR runs from files");
}

TEST(CompareResults, OneToolPerComparison) {
  CompareInput in;
  in.base = {data("google-benchmark/single_run.json")};
  in.head = {data("jmh/tls_benchmark.json")};
  EXPECT_TRUE(
      contains(refusal([&] { results_from_files(in); }), "tls_benchmark.json is jmh JSON but"));
}

// Identical code, each process 2% faster or slower as a whole (where it landed in memory, the
// clock it got), 10 repetitions per process with 0.5% noise: the repetitions of one process are
// not independent rounds, and 20 benchmarks over 8 files a side show no change. Read as rounds
// they showed regressions and improvements in every PR.
TEST(CompareResults, AnOffsetPerProcessIsNoChange) {
  std::mt19937_64 rng(38);
  std::normal_distribution<double> offset(0, 0.02), noise(0, 0.005);
  const auto side = [&](const std::string& prefix, double grows) {
    std::vector<ResultFile> files;
    for (int f = 0; f < 8; ++f) {
      std::vector<GbBenchmark> benchmarks;
      const double process = std::exp(offset(rng));
      for (int b = 0; b < 20; ++b) {
        GbBenchmark bm{fmt::format("BM_Same/{}", b), {}};
        if (b == 0) bm.name = "BM_Grows";
        for (int k = 0; k < 10; ++k)
          bm.times.push_back(1000.0 * (b + 1) * process * std::exp(noise(rng)) *
                             (b == 0 ? grows : 1.0));
        benchmarks.push_back(std::move(bm));
      }
      files.push_back(file(fmt::format("{}{}.json", prefix, f + 1), gb_file(benchmarks, true)));
    }
    return files;
  };
  CompareInput in;
  in.base = side("a", 1.0);
  in.head = side("b", 1.15);
  const Analysis a = analyse(in);
  ASSERT_EQ(a.benchmarks.size(), 20u);
  for (const BenchmarkAnalysis& b : a.benchmarks) {
    EXPECT_EQ(b.rounds_used, 8) << b.name;
    if (b.name == "BM_Grows") {
      EXPECT_EQ(b.verdict, Verdict::Regression) << b.reason;  // a real change still shows
    } else {
      EXPECT_FALSE(decided(b.verdict)) << b.name << ": " << to_string(b.verdict) << " " << b.reason;
    }
  }
}

TEST(CompareResults, UnequalRepetitionCountsAreRefusedNamingBothFiles) {
  const std::vector<double> ten(10, 100.0), three(3, 100.0);
  CompareInput in;
  in.base = {file("base.json", gb_file({{"BM_A", ten}}))};
  in.head = {file("head.json", gb_file({{"BM_A", three}}))};
  const std::string why = refusal([&] { results_from_files(in); });
  EXPECT_TRUE(contains(why, "BM_A: 10 repetitions in base.json but 3 repetitions in head.json"))
      << why;
  EXPECT_TRUE(contains(why, "--benchmark_repetitions")) << why;
  // Within a side too: each file's value must be the same summary.
  in.head = {file("h1.json", gb_file({{"BM_A", ten}})),
             file("h2.json", gb_file({{"BM_A", three}}))};
  EXPECT_TRUE(contains(refusal([&] { results_from_files(in); }),
                       "in base.json but 3 repetitions in h2.json"));
}

TEST(CompareResults, AggregatesAgainstRepetitionsAreRefused) {
  const std::vector<double> ten(10, 100.0);
  CompareInput in;
  in.base = {file("base.json", gb_file({{"BM_A", ten}}, true, true))};
  in.head = {file("head.json", gb_file({{"BM_A", ten}}, true))};
  const std::string why = refusal([&] { results_from_files(in); });
  EXPECT_TRUE(contains(why,
                       "BM_A: only the median aggregate in base.json but 10 repetitions in "
                       "head.json"))
      << why;
  EXPECT_TRUE(contains(why, "--benchmark_report_aggregates_only")) << why;
  // The same summary on both sides is compared.
  in.head = {file("head.json", gb_file({{"BM_A", ten}}, true, true))};
  EXPECT_EQ(refusal([&] { results_from_files(in); }), "");
}

// Two files a side are two processes: however clear the difference looks, no verdict, and the
// row says why. Four files decide.
TEST(CompareResults, TwoFilesASideGiveNoVerdict) {
  const auto side = [](const std::string& prefix, double value, int files) {
    std::vector<ResultFile> out;
    for (int f = 0; f < files; ++f) {
      std::vector<double> times;
      for (int k = 0; k < 10; ++k) times.push_back(value * (1 + 0.001 * ((k + f) % 3)));
      out.push_back(file(fmt::format("{}{}.json", prefix, f), gb_file({{"BM_Doubles", times}})));
    }
    return out;
  };
  CompareInput in;
  in.base = side("a", 100, 2);
  in.head = side("b", 200, 2);
  Analysis a = analyse(in);
  ASSERT_EQ(a.benchmarks.size(), 1u);
  EXPECT_EQ(a.benchmarks[0].verdict, Verdict::Inconclusive);
  EXPECT_TRUE(contains(a.benchmarks[0].reason, "only 2 runs paired")) << a.benchmarks[0].reason;
  EXPECT_TRUE(contains(a.benchmarks[0].reason, "at least 4 processes per side"))
      << a.benchmarks[0].reason;
  EXPECT_NE(a.recommendation.kind, RecommendationKind::DoNotMerge);
  in.base = side("a", 100, 4);
  in.head = side("b", 200, 4);
  a = analyse(in);
  EXPECT_EQ(a.benchmarks[0].verdict, Verdict::Regression) << a.benchmarks[0].reason;
}

// BM_dup registered twice: per repetition one entry of 200 ns and one of 50 ns. Read as one
// benchmark's repetitions, the faster one stood for both ("2.0x faster").
TEST(CompareResults, ANameTwoBenchmarksShareIsRefusedNamingFileAndBenchmark) {
  std::string twice = gb_file({{"BM_dup", {200, 200, 200, 200}}, {"BM_dup", {50, 50, 50, 50}}});
  CompareInput in;
  in.base = {file("base.json", gb_file({{"BM_dup", {100, 100, 100, 100}}}))};
  in.head = {file("head.json", twice)};
  std::string why = refusal([&] { results_from_files(in); });
  EXPECT_TRUE(contains(why, "head.json: BM_dup: the name is reported twice in one results file"))
      << why;
  EXPECT_TRUE(contains(why, "give each benchmark a name of its own")) << why;
  // Without family_index (older libraries): the same repetition twice.
  std::string old = twice;
  for (std::size_t p; (p = old.find("\"family_index\": ")) != std::string::npos;)
    old.erase(p, old.find(',', p) - p + 2);
  in.head = {file("head.json", old)};
  why = refusal([&] { results_from_files(in); });
  EXPECT_TRUE(contains(why, "two results for repetition 0")) << why;
  // hyperfine: one command twice.
  const std::string command = R"({"command": "sleep", "times": [0.1, 0.1], "exit_codes": [0, 0]})";
  in.base = {file("h.json", "{\"results\": [" + command + "]}")};
  in.head = {file("h2.json", "{\"results\": [" + command + ", " + command + "]}")};
  why = refusal([&] { results_from_files(in); });
  EXPECT_TRUE(contains(why, "h2.json: sleep is reported twice in one results file")) << why;
}

// Issue figures: a 1.4 MB file (1 MB context, 2,000 repetitions) ran out of memory when each
// repetition became a copy of the file; a hyperfine file of 20,000 times took minutes, and a
// 1 MB command run 2,000 times gigabytes. Read in one pass now: this only has to finish (the
// test's timeout bounds it).
TEST(CompareResults, LargeFilesAreReadInOnePass) {
  std::vector<double> times(2000);
  for (std::size_t k = 0; k < times.size(); ++k) times[k] = 100 + static_cast<double>(k % 7);
  const std::string big = gb_file({{"BM_A", times}}, false, false, std::string(1 << 20, 'x'));
  ASSERT_GT(big.size(), 1'300'000u);
  CompareInput in;
  in.base = {file("base.json", big)};
  in.head = {file("head.json", big)};
  Results r = results_from_files(in);
  ASSERT_EQ(r.plan.size(), 1u);
  // The reader's summary of 2,000 repetitions of 100 to 106 ns.
  EXPECT_GE(r.series.at(0).base.at(0), 100);
  EXPECT_LE(r.series.at(0).base.at(0), 106);

  // 20,000 processes are more rounds than a results file holds: refused, after one pass.
  const auto times_file = [](int n) {
    std::string many;
    for (int k = 0; k < n; ++k) many += (k ? "," : "") + fmt::format("0.0{}", 1 + k % 9);
    return file("base.json", "{\"results\": [{\"command\": \"c\", \"times\": [" + many + "]}]}");
  };
  in.base = {times_file(20000)};
  in.head = in.base;
  EXPECT_TRUE(contains(refusal([&] { results_from_files(in); }),
                       "20000 runs, more than the 10000 rounds one comparison holds"));
  in.base = {times_file(10000)};
  in.head = in.base;
  r = results_from_files(in);
  EXPECT_EQ(r.plan.size(), 10000u);
  EXPECT_EQ(r.series.at(0).head.size(), 10000u);

  const std::string name(1 << 20, 'n');
  std::string two_thousand;
  for (int k = 0; k < 2000; ++k) two_thousand += k ? ",0.5" : "0.5";
  in.base = {file("base.json", "{\"results\": [{\"command\": \"" + name + "\", \"times\": [" +
                                   two_thousand + "]}]}")};
  in.head = in.base;
  r = results_from_files(in);
  EXPECT_EQ(r.plan.size(), 2000u);
  ASSERT_EQ(r.series.size(), 1u);
  EXPECT_EQ(r.series[0].name.size(), name.size());
}

// A failed process of hyperfine's leaves its round without a value and says which it was.
TEST(CompareResults, AFailedHyperfineRunIsNamed) {
  CompareInput in;
  in.base = {file("a.json", R"({"results": [{"command": "c", "times": [0.1, 0.2, 0.3],
                                             "exit_codes": [0, 3, 0]}]})")};
  in.head = in.base;
  const Results r = results_from_files(in);
  ASSERT_EQ(r.series.size(), 1u);
  EXPECT_TRUE(is_missing(r.series[0].base[1]));
  EXPECT_EQ(r.series[0].base[2], 0.3e9);
  EXPECT_EQ(r.series[0].base_failure, "exit code 3 (run 2 of a.json)");
}

}  // namespace
}  // namespace benchpr::app
