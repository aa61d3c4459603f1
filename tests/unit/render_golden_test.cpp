// The comment for typical and hostile sessions, compared byte for byte with tests/golden/*.md.
// BENCHPR_UPDATE_GOLDEN=1 rewrites the files instead (then read the diff before keeping it).
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

#include <gtest/gtest.h>

#include "benchpr/render/render.hpp"

namespace benchpr::render {
namespace {

// A session like the default configuration: 1 warm-up and 10 analysed rounds in ABBA blocks.
Results session() {
  Results r;
  r.tool_version = "0.1.0";
  r.base = {"main", "abc1234def5678abc1234def5678abc1234def56", "Merge pull request #41"};
  r.head = {"refs/pull/42/head", "def5678abc1234def5678abc1234def5678abc12", "Batch TLS input"};
  r.machine = {"AMD EPYC 7763 64-Core Processor", 2, "6.1.0-18-amd64", "g++ 12.2.0"};
  r.config.threshold = 0.02;
  r.plan.push_back({0, true, Side::Base});
  const Side firsts[] = {Side::Base, Side::Head, Side::Head, Side::Base, Side::Base,
                         Side::Head, Side::Head, Side::Base, Side::Base, Side::Head};
  for (int i = 0; i < 10; ++i) r.plan.push_back({i + 1, false, firsts[i]});
  r.rounds_done = 11;
  r.complete = true;
  r.stop_reason = "all rounds done";
  r.measuring_seconds = 754;
  r.workflow_run_url = "https://github.com/acme/widgets/actions/runs/8812345678";
  return r;
}

BenchmarkAnalysis bench(std::string name, Verdict verdict, double base, double head, double change,
                        double lo, double hi, std::string unit = "ns") {
  BenchmarkAnalysis b;
  b.suite = "core";
  b.name = std::move(name);
  b.unit = std::move(unit);
  b.verdict = verdict;
  b.base_value = base;
  b.head_value = head;
  b.change = change;
  b.ci_low = lo;
  b.ci_high = hi;
  // The 90% interval the "unchanged" rule tests: the 95% one narrowed by z(0.95)/z(0.975).
  b.eq_low = change - (change - lo) * 1.645 / 1.96;
  b.eq_high = change + (hi - change) * 1.645 / 1.96;
  b.rounds_used = 10;
  b.mde = 0.018;
  return b;
}

// Per-round changes; worse/better counts over the used rounds (a dropped round excluded).
void rounds(BenchmarkAnalysis& b, std::vector<double> changes) {
  b.round_changes = std::move(changes);
  b.worse_rounds = b.better_rounds = 0;
  for (std::size_t i = 0; i < b.round_changes.size(); ++i) {
    if (b.dropped_round && *b.dropped_round == static_cast<int>(i + 1)) continue;
    const double c = b.round_changes[i];
    if (c > 0) ++b.worse_rounds;
    if (c < 0) ++b.better_rounds;
  }
  if (b.better == Better::Higher) std::swap(b.worse_rounds, b.better_rounds);
}

Recommendation rec(RecommendationKind kind, std::string reason) {
  Recommendation r;
  r.kind = kind;
  r.reason = std::move(reason);
  return r;
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

void expect_golden(const std::string& name, const std::string& actual) {
  const std::string path = std::string(BENCHPR_GOLDEN_DIR) + "/" + name;
  const char* update = std::getenv("BENCHPR_UPDATE_GOLDEN");
  if (update && std::string(update) == "1") {
    std::ofstream(path, std::ios::binary) << actual;
    return;
  }
  const std::string expected = read_file(path);
  ASSERT_FALSE(expected.empty()) << path << " is missing; run with BENCHPR_UPDATE_GOLDEN=1";
  EXPECT_EQ(actual, expected) << "rendered comment differs from " << path;
}

TEST(RenderGolden, RegressionAndImprovement) {
  Results r = session();
  Analysis a;
  a.analysed_rounds = 10;
  a.run_mde = 0.018;
  auto tls = bench("BM_Tls/4096", Verdict::Regression, 45100, 48500, 0.075, 0.041, 0.108);
  rounds(tls, {0.071, 0.069, 0.082, 0.075, 0.064, 0.091, 0.078, 0.072, 0.069, 0.080});
  auto copy = bench("BM_Copy/65536", Verdict::Improvement, 1.63e6, 0.51e6, -0.687, -0.701, -0.672);
  rounds(copy, {-0.69, -0.68, -0.70, -0.69, -0.68, -0.69, -0.70, -0.68, -0.69, -0.68});
  auto parse = bench("BM_Parse/small", Verdict::Slower, 812, 822, 0.012, 0.006, 0.019);
  parse.dropped_round = 1;
  rounds(parse, {0.35, 0.011, 0.013, 0.010, 0.014, 0.012, 0.009, 0.013, 0.011, 0.012});
  parse.rounds_used = 9;
  parse.flags = {"cold-round"};
  auto hash = bench("BM_Hash/64", Verdict::Faster, 21.4, 21.1, -0.014, -0.019, -0.008);
  rounds(hash, {-0.01, -0.02, -0.012, -0.015, -0.016, -0.011, -0.013, -0.018, -0.014, -0.012});
  auto alloc = bench("BM_Alloc/1024", Verdict::Inconclusive, 3120, 3170, 0.016, -0.021, 0.054);
  alloc.reason = "no signal: the 95% CI −2.1% … +5.4% is wider than ±2.0%";
  alloc.rounds_needed = 24;
  rounds(alloc, {0.05, -0.03, 0.04, 0.01, -0.02, 0.06, 0.02, -0.01, 0.03, 0.01});
  a.benchmarks = {bench("BM_Sort/1024", Verdict::Unchanged, 9.87e3, 9.91e3, 0.004, -0.006, 0.014),
                  parse,
                  tls,
                  hash,
                  copy,
                  alloc,
                  bench("BM_Sort/65536", Verdict::Unchanged, 1.04e6, 1.03e6, -0.003, -0.011, 0.005),
                  bench("BM_Sort/8", Verdict::Unchanged, 38.2, 38.3, 0.002, -0.004, 0.009)};
  a.suites = {{"core", 8, 0.006, -0.004, 0.017}};
  a.notes = {"Round 1 looked cold for 1 benchmark and was left out for it."};
  a.recommendation.kind = RecommendationKind::DoNotMerge;
  a.recommendation.reason =
      "`BM_Tls/4096` is 7.5% slower (95% CI +4.1% … +10.8%), slower in 10 of 10 rounds, "
      "whichever side ran first.";
  a.recommendation.reason_parts = {
      {"BM_Tls/4096", true},
      {" is 7.5% slower (95% CI +4.1% … +10.8%), slower in 10 of 10 rounds, whichever side ran "
       "first.",
       false}};
  expect_golden("regression_and_improvement.md", render_comment(r, a));
}

TEST(RenderGolden, AllUnchanged) {
  Results r = session();
  r.workflow_run_url = "";
  Analysis a;
  a.analysed_rounds = 10;
  a.run_mde = 0.011;
  auto io = bench("read_file/4k", Verdict::Unchanged, 2.31e9, 2.33e9, 0.008, -0.002, 0.018, "B/s");
  io.suite = "io";
  io.better = Better::Higher;
  auto items =
      bench("decode_items", Verdict::Unchanged, 3.4e6, 3.39e6, -0.003, -0.009, 0.004, "items/s");
  items.suite = "io";
  items.better = Better::Higher;
  a.benchmarks = {bench("BM_Sort/8", Verdict::Unchanged, 38.2, 38.3, 0.002, -0.004, 0.009),
                  bench("BM_Sort/1024", Verdict::Unchanged, 9.87e3, 9.91e3, 0.004, -0.006, 0.014),
                  bench("BM_Sort/65536", Verdict::Unchanged, 1.04e6, 1.03e6, -0.003, -0.011, 0.005),
                  io, items};
  a.suites = {{"core", 3, 0.001, -0.005, 0.007}, {"io", 2, -0.002, -0.008, 0.004}};
  a.recommendation = rec(RecommendationKind::Merge,
                         "All 5 benchmarks are within ±2.0% of the base; nothing got slower.");
  expect_golden("all_unchanged.md", render_comment(r, a));
}

TEST(RenderGolden, BuildFailed) {
  Results r = session();
  r.plan.clear();
  r.rounds_done = 0;
  r.measuring_seconds = 0;
  BuildResult base_build{Side::Base, true, 83, "", ""};
  BuildResult head_build{Side::Head, false, 41.5, "exit code 2", ""};
  head_build.log_tail =
      "[ 97%] Building CXX object src/CMakeFiles/core.dir/tls.cpp.o\n"
      "\x1b[1m/src/tls.cpp:88:5:\x1b[0m \x1b[31merror:\x1b[0m 'batch' was not declared\n"
      "   88 |     batch(input);\n"
      "      |     ^~~~~\n"
      "```\n</details>\n@octocat see #12\n"
      "ninja: build stopped: subcommand failed.\r\n";
  r.builds = {base_build, head_build};
  Analysis a;
  a.recommendation =
      rec(RecommendationKind::Failed, "The PR revision did not build (exit code 2).");
  expect_golden("build_failed.md", render_comment(r, a));
}

TEST(RenderGolden, HostileNames) {
  Results r = session();
  r.machine.cpu = "<b>Evil</b> CPU @ 3.0GHz";
  r.workflow_run_url = "https://github.com/x/y/actions/runs/1) [click](javascript:alert(1)";
  Analysis a;
  a.analysed_rounds = 10;
  const char* names[] = {"<img src=x onerror=alert(1)>",
                         "</details>",
                         "a|b",
                         "@octocat",
                         "#123",
                         "```",
                         "[x](https://evil)",
                         "<!-- benchpr:comment key=default -->",
                         "line1\nline2\r\n| injected | row |",
                         "Ünïcødé/日本語/🚀",
                         "GH-1 and acme/widgets#1 via www.evil.com"};
  for (const char* n : names) {
    auto b = bench(n, Verdict::Inconclusive, 100, 101, 0.01, -0.02, 0.04);
    b.reason = "too few rounds with values on both sides (1)";
    a.benchmarks.push_back(b);
  }
  a.benchmarks[0].verdict = Verdict::Regression;
  a.benchmarks[1].verdict = Verdict::Unchanged;
  auto failed = bench(std::string(400, 'x') + "_very_long", Verdict::Failed, kMissing, kMissing,
                      kMissing, kMissing, kMissing);
  failed.reason = "PR: killed by signal 11 (SIGSEGV) <script>alert(1)</script> @admin | x";
  a.benchmarks.push_back(failed);
  a.notes = {"Note with <b>html</b> and @someone and #7"};
  a.recommendation = rec(RecommendationKind::DoNotMerge,
                         "<img src=x onerror=alert(1)> is 1.0% slower; ping @octocat, see #123.");
  RenderOptions opt;
  opt.key = "default -->\n<script>";
  expect_golden("hostile_names.md", render_comment(r, a, opt));
}

TEST(RenderGolden, PartialRun) {
  Results r = session();
  r.complete = false;
  r.rounds_done = 7;
  r.stop_reason = "interrupted by SIGTERM";
  r.config_changed_by_head = true;
  Analysis a;
  a.analysed_rounds = 6;
  a.run_mde = 0.034;
  auto tls = bench("BM_Tls/4096", Verdict::Slower, 45100, 45700, 0.013, 0.004, 0.022);
  rounds(tls, {0.012, 0.015, 0.011, 0.014, 0.013, 0.012});
  tls.rounds_used = 6;
  auto crash =
      bench("BM_Decode/corrupt", Verdict::Failed, 512, kMissing, kMissing, kMissing, kMissing);
  crash.reason = "PR: killed by signal 11 (SIGSEGV)";
  auto added = bench("BM_Batch/16", Verdict::Added, kMissing, 1210, kMissing, kMissing, kMissing);
  auto removed =
      bench("BM_Legacy/16", Verdict::Removed, 2050, kMissing, kMissing, kMissing, kMissing);
  a.benchmarks = {bench("BM_Sort/8", Verdict::Unchanged, 38.2, 38.3, 0.002, -0.004, 0.009), tls,
                  crash, added, removed};
  a.notes = {"Partial results: 6 of 10 analysed rounds ran (interrupted by SIGTERM).",
             "This pull request edits .benchpr.yml; the base revision's configuration was used."};
  a.recommendation =
      rec(RecommendationKind::Failed,
          "BM_Decode/corrupt crashed on the PR side (killed by signal 11 (SIGSEGV)).");
  expect_golden("partial_run.md", render_comment(r, a));
}

TEST(RenderGolden, InconclusiveOrder) {
  // The shape of the Pekko TLS reading: throughput in ops/ms, where the sign of each round's
  // difference follows which side ran second.
  Results r = session();
  r.workflow_run_url = "";
  Analysis a;
  a.analysed_rounds = 10;
  a.run_mde = 0.052;
  a.order_warning = true;
  const std::string sizes[] = {"256", "4096", "65536"};
  const double base[] = {126.0, 48.5, 4.84};
  for (int i = 0; i < 3; ++i) {
    auto b = bench("TlsBenchmark.warmRoundTrip/payload=" + sizes[i], Verdict::Inconclusive, base[i],
                   base[i] * (1 - 0.015 * (i + 1)), -0.015 * (i + 1), -0.09, 0.06, "ops/ms");
    b.better = Better::Higher;
    b.flags = {"order"};
    b.reason = "the sign follows run order: position effects dominate";
    b.rounds_needed = 40;
    // AB rounds (PR second) lose, BA rounds (PR first) win.
    rounds(b, {-0.24, 0.21, 0.19, -0.10, -0.12, 0.04, 0.08, -0.06, -0.09, 0.05});
    a.benchmarks.push_back(b);
  }
  a.benchmarks[2].verdict = Verdict::Unchanged;
  a.benchmarks[2].head_value = 4.85;
  a.benchmarks[2].change = 0.002;
  a.benchmarks[2].ci_low = -0.008;
  a.benchmarks[2].ci_high = 0.012;
  a.benchmarks[2].flags.clear();
  a.benchmarks[2].rounds_needed.reset();
  a.recommendation = rec(RecommendationKind::Inconclusive,
                         "2 of 3 benchmarks follow run order rather than the change; rerun on a "
                         "quieter machine or with more rounds.");
  expect_golden("inconclusive_order.md", render_comment(r, a));
}

}  // namespace
}  // namespace benchpr::render
