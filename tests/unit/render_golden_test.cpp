// The comment for typical and hostile sessions, compared byte for byte with tests/golden/*.md.
// Each is rendered from raw rounds through the real analysis, so the verdicts, intervals and
// sentences in a golden file are ones benchpr can produce; the verdicts a scenario is about are
// asserted first, so a change in the statistics names what moved before the diff does. Every
// golden also goes through the markdown injection checker.
// BENCHPR_UPDATE_GOLDEN=1 rewrites the files instead (then read the diff before keeping it).
#include <cmath>
#include <map>
#include <string>

#include <gtest/gtest.h>

#include "benchpr/core/adaptive/session_analysis.hpp"
#include "benchpr/core/evidence/instruction_analysis.hpp"
#include "benchpr/render/render.hpp"
#include "support/golden.hpp"

namespace benchpr::render {
namespace {

using testing::expect_golden_comment;
using testing::golden_session;
using testing::simulated_series;
using testing::SimulatedBenchmark;

Results session() {
  Results r = golden_session();
  r.measuring_seconds = 754;
  r.workflow_run_url = "https://github.com/acme/widgets/actions/runs/8812345678";
  return r;
}

void add(Results& r, const SimulatedBenchmark& b) { r.series.push_back(simulated_series(r, b)); }

std::map<std::string, Verdict> verdicts(const Analysis& a) {
  std::map<std::string, Verdict> out;
  for (const BenchmarkAnalysis& b : a.benchmarks) out[b.name] = b.verdict;
  return out;
}

// The verdict the scenario needs for `name`, with what the analysis said otherwise.
void expect_verdict(const Analysis& a, const std::string& name, Verdict wanted) {
  for (const BenchmarkAnalysis& b : a.benchmarks) {
    if (b.name != name) continue;
    EXPECT_EQ(to_string(b.verdict), to_string(wanted)) << name << ": " << b.reason;
    return;
  }
  ADD_FAILURE() << "no benchmark " << name;
}

TEST(RenderGolden, RegressionAndImprovement) {
  Results r = session();
  add(r, {.name = "BM_Sort/1024", .level = 9870, .effect = 0.001, .noise = 0.01, .seed = 1});
  SimulatedBenchmark parse{
      .name = "BM_Parse/small", .level = 812, .effect = 0.012, .noise = 0.003, .seed = 2};
  BenchmarkSeries cold = simulated_series(r, parse);
  cold.base[1] *= 1.35;  // the first analysed round ran cold on both sides
  cold.head[1] *= 1.35;
  r.series.push_back(cold);
  add(r, {.name = "BM_Tls/4096", .level = 45100, .effect = 0.075, .noise = 0.01, .seed = 3});
  add(r, {.name = "BM_Hash/64", .level = 21.4, .effect = -0.014, .noise = 0.003, .seed = 4});
  add(r, {.name = "BM_Copy/65536", .level = 1.63e6, .effect = -0.687, .noise = 0.01, .seed = 5});
  add(r, {.name = "BM_Alloc/1024", .level = 3120, .effect = 0.016, .noise = 0.05, .seed = 6});
  add(r, {.name = "BM_Sort/65536", .level = 1.04e6, .effect = -0.001, .noise = 0.01, .seed = 7});
  add(r, {.name = "BM_Sort/8", .level = 38.2, .effect = 0.001, .noise = 0.01, .seed = 8});
  const Analysis a = analyse_session(r);
  expect_verdict(a, "BM_Tls/4096", Verdict::Regression);
  expect_verdict(a, "BM_Copy/65536", Verdict::Improvement);
  expect_verdict(a, "BM_Parse/small", Verdict::Slower);
  expect_verdict(a, "BM_Hash/64", Verdict::Faster);
  expect_verdict(a, "BM_Alloc/1024", Verdict::Inconclusive);
  for (const char* name : {"BM_Sort/8", "BM_Sort/1024", "BM_Sort/65536"})
    expect_verdict(a, name, Verdict::Unchanged);
  EXPECT_EQ(a.recommendation.kind, RecommendationKind::DoNotMerge);
  expect_golden_comment("regression_and_improvement.md", render_comment(r, a));
}

// Under the placement control the footer says how the rounds ran the programs: each side's code at
// four placements in turn, read over whole cycles of them.
TEST(RenderGolden, PlacementControl) {
  Results r = golden_session(16);
  r.measuring_seconds = 754;
  r.placement_shifts = {0, 16, 32, 48};
  add(r, {.name = "BM_Tls/4096", .level = 45100, .effect = 0.075, .noise = 0.01, .seed = 3});
  add(r, {.name = "BM_Sort/1024", .level = 9870, .effect = 0.001, .noise = 0.01, .seed = 1});
  add(r, {.name = "BM_Copy/65536", .level = 1.63e6, .effect = -0.687, .noise = 0.01, .seed = 5});
  const Analysis a = analyse_session(r);
  expect_verdict(a, "BM_Tls/4096", Verdict::Regression);
  expect_verdict(a, "BM_Copy/65536", Verdict::Improvement);
  const std::string comment = render_comment(r, a);
  EXPECT_NE(comment.find("16 rounds + 1 warm-up, interleaved AB/BA, each side's code at 4 "
                         "placements in turn (relinked +0/16/32/48 bytes)"),
            std::string::npos)
      << comment;
  expect_golden_comment("placement_control.md", comment);
}

TEST(RenderGolden, AllUnchanged) {
  Results r = session();
  r.workflow_run_url = "";
  add(r, {.name = "BM_Sort/8", .level = 38.2, .effect = 0.001, .noise = 0.01, .seed = 11});
  add(r, {.name = "BM_Sort/1024", .level = 9870, .effect = 0.002, .noise = 0.01, .seed = 12});
  add(r, {.name = "BM_Sort/65536", .level = 1.04e6, .effect = -0.001, .noise = 0.01, .seed = 13});
  add(r, {.name = "read_file/4k",
          .level = 2.31e9,
          .effect = 0.001,
          .noise = 0.01,
          .seed = 14,
          .suite = "io",
          .unit = "B/s",
          .better = Better::Higher});
  add(r, {.name = "decode_items",
          .level = 3.4e6,
          .effect = -0.002,
          .noise = 0.01,
          .seed = 15,
          .suite = "io",
          .unit = "items/s",
          .better = Better::Higher});
  const Analysis a = analyse_session(r);
  for (const auto& [name, verdict] : verdicts(a)) expect_verdict(a, name, Verdict::Unchanged);
  EXPECT_EQ(a.recommendation.kind, RecommendationKind::Merge);
  expect_golden_comment("all_unchanged.md", render_comment(r, a));
}

// A series of a suite whose programs are identical on both sides: listed, never timed.
BenchmarkSeries untimed(const std::string& suite, const std::string& name) {
  BenchmarkSeries s;
  s.suite = suite;
  s.name = name;
  s.unit = "ns";
  return s;
}

TEST(RenderGolden, IdenticalPrograms) {
  // The default adaptive session, whose one suite ran identical programs: no round at all.
  Results r = session();
  r.workflow_run_url = "";
  r.config.budget_seconds = 900;
  r.plan.clear();
  r.rounds_done = 0;
  r.measuring_seconds = 0;
  r.stop = {StopKind::IdenticalPrograms, 0, {}};
  for (const char* name : {"BM_Sort/8", "BM_Sort/1024", "BM_Hash/64"})
    r.series.push_back(untimed("", name));
  r.identical_suites = {""};
  const Analysis a = analyse_session(r);
  for (const auto& [name, verdict] : verdicts(a)) expect_verdict(a, name, Verdict::Unchanged);
  EXPECT_EQ(a.recommendation.kind, RecommendationKind::Merge);
  const std::string comment = render_comment(r, a);
  // No interval of a change nobody measured, and no look "after 0 rounds".
  EXPECT_EQ(comment.find("0.0 … 0.0"), std::string::npos) << comment;
  EXPECT_EQ(comment.find("after 0"), std::string::npos) << comment;
  expect_golden_comment("identical_programs.md", comment);
}

TEST(RenderGolden, IdenticalProgramsBesideATimedSuite) {
  // Suite `io` runs a command (never identical) and was timed; `micro` ran identical programs.
  Results r = session();
  r.workflow_run_url = "";
  add(r, {.name = "read_file/4k",
          .level = 2.31e9,
          .effect = 0.001,
          .noise = 0.01,
          .seed = 14,
          .suite = "io",
          .unit = "B/s",
          .better = Better::Higher});
  add(r, {.name = "write_file/4k",
          .level = 41200,
          .effect = 0.09,
          .noise = 0.01,
          .seed = 16,
          .suite = "io"});
  for (const char* name : {"BM_Sort/8", "BM_Hash/64"}) r.series.push_back(untimed("micro", name));
  r.identical_suites = {"micro"};
  const Analysis a = analyse_session(r);
  expect_verdict(a, "read_file/4k", Verdict::Unchanged);
  expect_verdict(a, "write_file/4k", Verdict::Regression);
  expect_verdict(a, "BM_Sort/8", Verdict::Unchanged);
  expect_verdict(a, "BM_Hash/64", Verdict::Unchanged);
  expect_golden_comment("identical_programs_beside_a_timed_suite.md", render_comment(r, a));
}

TEST(RenderGolden, BuildFailed) {
  Results r = session();
  r.plan.clear();
  r.rounds_done = 0;
  r.measuring_seconds = 0;
  r.stop = {StopKind::BuildFailed, 0, {}};
  BuildResult base_build{Side::Base, true, 83, "", ""};
  BuildResult head_build{Side::Head, false, 41.5, "exit code 2", "", FailureKind::ExitCode};
  head_build.log_tail =
      "[ 97%] Building CXX object src/CMakeFiles/core.dir/tls.cpp.o\n"
      "\x1b[1m/src/tls.cpp:88:5:\x1b[0m \x1b[31merror:\x1b[0m 'batch' was not declared\n"
      "   88 |     batch(input);\n"
      "      |     ^~~~~\n"
      "```\n</details>\n@octocat see #12\n"
      "ninja: build stopped: subcommand failed.\r\n";
  r.builds = {base_build, head_build};
  const Analysis a = analyse_session(r);
  EXPECT_EQ(a.recommendation.kind, RecommendationKind::Failed);
  expect_golden_comment("build_failed.md", render_comment(r, a));
}

TEST(RenderGolden, HostileNames) {
  // Everything that reaches the comment from the pull request or an untrusted results file:
  // names, a failure message, the machine's name, the stop reason, the workflow URL, the key.
  Results r = session();
  r.machine.cpu = "<b>Evil</b> CPU @ 3.0GHz";
  r.workflow_run_url = "https://github.com/x/y/actions/runs/1) [click](javascript:alert(1)";
  r.complete = false;
  r.stop = {StopKind::Unknown, 0, "stopped by <b>html</b> for @someone in #7"};
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
  std::uint64_t seed = 21;
  for (const char* n : names) add(r, {.name = n, .level = 100, .noise = 0.03, .seed = seed++});
  r.series[0] = simulated_series(
      r, {.name = names[0], .level = 100, .effect = 0.10, .noise = 0.005, .seed = 20});
  r.series[1] = simulated_series(r, {.name = names[1], .level = 100, .noise = 0.002, .seed = 19});
  BenchmarkSeries crashed = simulated_series(r, {.name = std::string(400, 'x') + "_very_long"});
  for (double& v : crashed.head) v = kMissing;
  crashed.head_failure = "killed by signal 11 (SIGSEGV) <script>alert(1)</script> @admin | x";
  crashed.head_failure_kind = FailureKind::Signal;
  r.series.push_back(crashed);
  r.rounds_done = 9;  // stopped after 8 of the 10 rounds: a series grows with the rounds that ran
  for (BenchmarkSeries& s : r.series) {
    s.base.resize(9);
    s.head.resize(9);
  }
  const Analysis a = analyse_session(r);
  expect_verdict(a, names[0], Verdict::Regression);
  expect_verdict(a, names[1], Verdict::Unchanged);
  expect_verdict(a, crashed.name, Verdict::Failed);
  RenderOptions opt;
  opt.key = "default -->\n<script>";
  const std::string md = render_comment(r, a, opt);
  // Shown as text, not dropped.
  EXPECT_NE(md.find("onerror=alert(1)"), std::string::npos);
  expect_golden_comment("hostile_names.md", md);
}

TEST(RenderGolden, PartialRun) {
  Results r = session();
  r.complete = false;
  r.rounds_done = 7;  // the warm-up and 6 of the 10 planned rounds
  r.stop = {StopKind::Interrupted, 0, "by SIGTERM"};
  r.config_changed_by_head = true;
  add(r, {.name = "BM_Sort/8", .level = 38.2, .effect = 0.002, .noise = 0.003, .seed = 31});
  add(r, {.name = "BM_Tls/4096", .level = 45100, .effect = 0.013, .noise = 0.002, .seed = 32});
  BenchmarkSeries crash = simulated_series(r, {.name = "BM_Decode/corrupt", .level = 512});
  for (double& v : crash.head) v = kMissing;
  crash.head_failure = "killed by signal 11 (SIGSEGV)";
  crash.head_failure_kind = FailureKind::Signal;
  r.series.push_back(crash);
  BenchmarkSeries added = simulated_series(r, {.name = "BM_Batch/16", .level = 1210, .seed = 33});
  for (double& v : added.base) v = kMissing;
  r.series.push_back(added);
  BenchmarkSeries removed =
      simulated_series(r, {.name = "BM_Legacy/16", .level = 2050, .seed = 34});
  for (double& v : removed.head) v = kMissing;
  r.series.push_back(removed);
  for (BenchmarkSeries& s : r.series) {  // a series grows with the rounds that ran
    s.base.resize(7);
    s.head.resize(7);
  }
  const Analysis a = analyse_session(r);
  EXPECT_EQ(a.analysed_rounds, 6);
  expect_verdict(a, "BM_Sort/8", Verdict::Unchanged);
  expect_verdict(a, "BM_Tls/4096", Verdict::Slower);
  expect_verdict(a, "BM_Decode/corrupt", Verdict::Failed);
  expect_verdict(a, "BM_Batch/16", Verdict::Added);
  expect_verdict(a, "BM_Legacy/16", Verdict::Removed);
  // The crash leaves a hole, not "Could not compare.": the others' reading (no regression), the
  // crash named; failed, not a merge, with the title saying the comparison is incomplete.
  EXPECT_EQ(a.recommendation.kind, RecommendationKind::Failed);
  EXPECT_TRUE(a.recommendation.incomplete);
  expect_golden_comment("partial_run.md", render_comment(r, a));
}

// Every benchmark failed (the PR's binary crashes at start-up, on every one): nothing compared,
// the one case besides a failed build where the headline is "Could not compare.".
TEST(RenderGolden, EveryBenchmarkFailed) {
  Results r = session();
  for (const char* name : {"BM_Parse/64", "BM_Parse/4096"}) {
    BenchmarkSeries crash = simulated_series(r, {.name = name, .level = 812});
    for (double& v : crash.head) v = kMissing;
    crash.head_failure = "killed by signal 6 (SIGABRT)";
    crash.head_failure_kind = FailureKind::Signal;
    r.series.push_back(crash);
  }
  const Analysis a = analyse_session(r);
  expect_verdict(a, "BM_Parse/64", Verdict::Failed);
  expect_verdict(a, "BM_Parse/4096", Verdict::Failed);
  EXPECT_EQ(a.recommendation.kind, RecommendationKind::Failed);
  expect_golden_comment("every_benchmark_failed.md", render_comment(r, a));
}

TEST(RenderGolden, InconclusiveOrder) {
  // The shape of the Pekko TLS reading: throughput in ops/ms, where the PR loses whenever it
  // runs second and wins when it runs first.
  Results r = session();
  r.workflow_run_url = "";
  const std::string sizes[] = {"256", "4096", "65536"};
  const double levels[] = {126.0, 48.5, 4.84};
  // The PR gains 1/sqrt(1 + order) when it runs first and loses as much when it runs second:
  // no effect over both orders, a large one in each round.
  const double order[] = {-0.20, -0.18, 0};
  for (int i = 0; i < 3; ++i)
    add(r, {.name = "TlsBenchmark.warmRoundTrip/payload=" + sizes[i],
            .level = levels[i],
            .effect = 1 / std::sqrt(1 + order[i]) - 1,
            .noise = i < 2 ? 0.05 : 0.01,
            .seed = 41 + static_cast<std::uint64_t>(i),
            .order_effect = order[i],
            .unit = "ops/ms",
            .better = Better::Higher});
  const Analysis a = analyse_session(r);
  for (int i = 0; i < 2; ++i) {
    const std::string name = "TlsBenchmark.warmRoundTrip/payload=" + sizes[i];
    expect_verdict(a, name, Verdict::Inconclusive);
    for (const BenchmarkAnalysis& b : a.benchmarks) {
      if (b.name != name) continue;
      EXPECT_EQ(b.flags, std::vector<BenchmarkFlag>{BenchmarkFlag::Order}) << b.name;
    }
  }
  expect_verdict(a, "TlsBenchmark.warmRoundTrip/payload=65536", Verdict::Unchanged);
  EXPECT_EQ(a.recommendation.kind, RecommendationKind::Inconclusive);
  expect_golden_comment("inconclusive_order.md", render_comment(r, a));
}

// One benchmark too noisy to settle in 10 rounds whose estimate reads beyond the threshold: no
// "Looks good to merge" while it may be a regression; the headline states the estimate, why it
// is open and the rounds that would settle it.
TEST(RenderGolden, InconclusiveSlowdownAtTheThreshold) {
  Results r = session();
  r.workflow_run_url = "";
  add(r, {.name = "BM_Sort/8", .level = 38.2, .effect = 0.001, .noise = 0.01, .seed = 51});
  add(r, {.name = "BM_Sort/1024", .level = 9870, .effect = -0.002, .noise = 0.01, .seed = 52});
  add(r, {.name = "BM_Sort/65536", .level = 1.04e6, .effect = 0.001, .noise = 0.01, .seed = 53});
  add(r, {.name = "BM_Hash/64", .level = 21.4, .effect = 0, .noise = 0.01, .seed = 54});
  add(r, {.name = "BM_Copy/65536", .level = 1.63e6, .effect = 0.002, .noise = 0.01, .seed = 55});
  add(r, {.name = "BM_Alloc/1024", .level = 3120, .effect = 0.03, .noise = 0.05, .seed = 56});
  const Analysis a = analyse_session(r);
  expect_verdict(a, "BM_Alloc/1024", Verdict::Inconclusive);
  for (const char* name :
       {"BM_Sort/8", "BM_Sort/1024", "BM_Sort/65536", "BM_Hash/64", "BM_Copy/65536"})
    expect_verdict(a, name, Verdict::Unchanged);
  for (const BenchmarkAnalysis& b : a.benchmarks) {
    if (b.name == "BM_Alloc/1024") {
      EXPECT_GE(b.change, 0.02) << b.change;
    }
  }
  EXPECT_EQ(a.recommendation.kind, RecommendationKind::Inconclusive) << a.recommendation.reason;
  expect_golden_comment("inconclusive_at_threshold.md", render_comment(r, a));
}

// Instruction counts beside time, with the hot code of each benchmark compared in both builds
// (docs/placement.md): +10% time on the same 478,887 instructions of byte-identical code moved
// by 16 bytes is code placement, not a regression; an undecided time on the same 23 instructions
// is "unchanged: same work"; an undecided time that shows no slowdown to the threshold on the
// same 2,644 instructions of changed code is "unchanged: same count"; counts up by 36.5% decide
// an undecided time; +8% time on the same count of changed code stays a regression.
TEST(RenderGolden, CodePlacement) {
  Results r = session();
  r.workflow_run_url = "";
  SuiteConfig suite;
  suite.name = "core";
  suite.format = FormatKind::GoogleBenchmark;
  suite.instructions = true;
  r.config.suites = {suite};
  const auto counts = [&](const std::string& name, double base, double head) {
    BenchmarkSeries s;
    s.suite = instruction_suite_name("core");
    s.name = name;
    s.unit = "instructions";
    s.metric = std::string(kInstructionsMetric);
    s.base = {base, base};
    s.head = {head, head};
    r.series.push_back(s);
  };
  const auto hot = [](const std::string& name, std::uint64_t base, std::uint64_t head,
                      bool identical) {
    HotFunction f;
    f.name = name;
    f.share = 0.93;
    f.base_address = base;
    f.head_address = head;
    f.base_size = f.head_size = 412;
    f.identical = identical;
    return f;
  };
  add(r, {.name = "ContainsWarmHigh", .level = 1520, .effect = 0.10, .noise = 0.01, .seed = 61});
  counts("ContainsWarmHigh", 478887, 478887);
  add(r, {.name = "BM_Zone_UTCTimeZone", .level = 6.1, .effect = 0.01, .noise = 0.08, .seed = 62});
  counts("BM_Zone_UTCTimeZone", 23, 23);
  add(r, {.name = "BM_Lcg/1024", .level = 310, .effect = 0.02, .noise = 0.08, .seed = 63});
  counts("BM_Lcg/1024", 822, 1122);
  add(r, {.name = "BM_Parse", .level = 812, .effect = 0.08, .noise = 0.01, .seed = 64});
  counts("BM_Parse", 10240, 10240);
  add(r, {.name = "BM_Sort/8", .level = 38.2, .effect = 0.001, .noise = 0.01, .seed = 65});
  counts("BM_Sort/8", 212, 212);
  add(r, {.name = "BM_Format/2", .level = 642, .effect = -0.02, .noise = 0.05, .seed = 66});
  counts("BM_Format/2", 2644, 2644);
  CodeEvidence placed{"core",
                      "ContainsWarmHigh",
                      {hot("roaring_bitmap_contains", 0x1b2e0, 0x1b2f0, true),
                       hot("ContainsWarmHigh(benchmark::State&)", 0x9a40, 0x9a50, true)},
                      0.97,
                      "",
                      ""};
  placed.functions[1].share = 0.05;
  placed.functions[1].base_size = placed.functions[1].head_size = 180;
  CodeEvidence zone{"core",
                    "BM_Zone_UTCTimeZone",
                    {hot("cctz::time_zone::lookup(long) const", 0x5120, 0x5160, true)},
                    0.95,
                    "",
                    ""};
  CodeEvidence parse{"core", "BM_Parse", {hot("parse(char const*)", 0x3000, 0x3010, false)},
                     0.99,   "",         ""};
  CodeEvidence sort{"core", "BM_Sort/8", {hot("sort8(int*)", 0x2000, 0x2000, true)}, 0.98, "", ""};
  CodeEvidence format{
      "core",
      "BM_Format/2",
      {hot("cctz::detail::format(std::string const&, long, int)", 0x7000, 0x7040, false)},
      0.96,
      "",
      ""};
  r.hot_code = {placed, zone, parse, sort, format};
  const Analysis a = analyse_session(r);
  for (const BenchmarkAnalysis& b : a.benchmarks) {
    if (b.metric == kInstructionsMetric) continue;
    SCOPED_TRACE(b.name);
    if (b.name == "ContainsWarmHigh") {
      EXPECT_EQ(b.verdict, Verdict::Placement);
      EXPECT_EQ(b.time_verdict, Verdict::Regression);
    } else if (b.name == "BM_Zone_UTCTimeZone") {
      EXPECT_EQ(b.verdict, Verdict::Unchanged);
      EXPECT_EQ(b.code_reading, CodeReading::SameWork);
    } else if (b.name == "BM_Lcg/1024") {
      EXPECT_EQ(b.verdict, Verdict::Inconclusive);
      EXPECT_EQ(b.code_reading, CodeReading::CountsDecided);
    } else if (b.name == "BM_Format/2") {
      EXPECT_EQ(b.verdict, Verdict::Unchanged);
      EXPECT_EQ(b.code_reading, CodeReading::SameCount);
    } else if (b.name == "BM_Parse") {
      EXPECT_EQ(b.verdict, Verdict::Regression);
      EXPECT_EQ(b.code_reading, CodeReading::None);
    }
  }
  EXPECT_EQ(a.recommendation.kind, RecommendationKind::DoNotMerge) << a.recommendation.reason;
  expect_golden_comment("code_placement.md", render_comment(r, a));
}

// Instruction counts with Callgrind's cache simulation: each count's row shows its estimated
// cycles; a stride walk whose instructions stayed (byte-identical code at another address) but
// whose D1 misses grew is not called code placement, and a note names the misses.
TEST(RenderGolden, CycleEstimate) {
  Results r = session();
  r.workflow_run_url = "";
  SuiteConfig suite;
  suite.name = "core";
  suite.format = FormatKind::GoogleBenchmark;
  suite.instructions = true;
  r.config.suites = {suite};
  // Callgrind's miss events per iteration: I1mr, D1mr, D1mw, ILmr, DLmr, DLmw.
  const auto events = [](std::vector<double> v) {
    std::map<std::string, std::vector<double>> e;
    const char* names[] = {"I1mr", "D1mr", "D1mw", "ILmr", "DLmr", "DLmw"};
    for (std::size_t i = 0; i < v.size(); ++i) e[names[i]] = {v[i], v[i]};
    return e;
  };
  const auto counts = [&](const std::string& name, double base, double head,
                          std::vector<double> base_misses, std::vector<double> head_misses) {
    BenchmarkSeries s;
    s.suite = instruction_suite_name("core");
    s.name = name;
    s.unit = "instructions";
    s.metric = std::string(kInstructionsMetric);
    s.base = {base, base};
    s.head = {head, head};
    s.base_events = events(std::move(base_misses));
    s.head_events = events(std::move(head_misses));
    r.series.push_back(s);
  };
  add(r, {.name = "BM_Walk", .level = 2100, .effect = 0.40, .noise = 0.01, .seed = 71});
  counts("BM_Walk", 28686, 28686, {2, 16, 1, 0, 0, 0}, {2, 4097, 1, 0, 256, 0});
  add(r, {.name = "BM_Lcg/1024", .level = 310, .effect = 0.30, .noise = 0.01, .seed = 72});
  counts("BM_Lcg/1024", 822, 1122, {0, 0, 0, 0, 0, 0}, {0, 0, 0, 0, 0, 0});
  add(r, {.name = "BM_Sort/8", .level = 38.2, .effect = 0.001, .noise = 0.01, .seed = 73});
  counts("BM_Sort/8", 212, 212, {0, 0.5, 0, 0, 0, 0}, {0, 0.5, 0, 0, 0, 0});
  HotFunction walk;
  walk.name = "walk(std::vector<int> const&, unsigned int)";
  walk.share = 0.97;
  walk.base_address = 0x1200;
  walk.head_address = 0x1210;
  walk.base_size = walk.head_size = 96;
  walk.identical = true;
  r.hot_code = {{"core", "BM_Walk", {walk}, 0.97, "", ""}};
  const Analysis a = analyse_session(r);
  for (const BenchmarkAnalysis& b : a.benchmarks) {
    SCOPED_TRACE(b.suite + "/" + b.name);
    if (b.name == "BM_Walk" && b.metric != kInstructionsMetric) {
      // Without the estimate this would be code placement.
      EXPECT_EQ(b.verdict, Verdict::Regression);
      EXPECT_EQ(b.code_reading, CodeReading::None);
    }
    if (b.name == "BM_Walk" && b.metric == kInstructionsMetric) {
      EXPECT_EQ(b.verdict, Verdict::Unchanged);
      EXPECT_TRUE(b.cycles_moved);
    }
  }
  expect_golden_comment("cycle_estimate.md", render_comment(r, a));
}

}  // namespace
}  // namespace benchpr::render
