// Where a change is, for real: a Google Benchmark project whose PR makes one of three helper
// functions slower, leaves another benchmark's code as it was, and slows code inlined into its
// caller; measured and profiled under Callgrind by the real benchpr binary.
#include <gtest/gtest.h>

#include <string>

#include <fmt/format.h>

#include "benchpr/core/evidence/profile_diff.hpp"
#include "benchpr/core/results_file/results_json.hpp"
#include "support/benchpr_process.hpp"
#include "support/gbench_project.hpp"
#include "support/markdown_check.hpp"
#include "support/temp_repo.hpp"

namespace benchpr::testing {
namespace {

// Three helpers called in turn (noinline: each is a function of its own in the binary), and a
// helper always inlined into its (noinline) caller. `hash_work` and `inner_work` are the loop
// counts the PR changes.
std::string prelude(int hash_work, int inner_work) {
  return fmt::format(R"(
static unsigned g_x = 1, g_y = 1;
__attribute__((noinline)) unsigned parse_digits(unsigned x) {{
  for (int i = 0; i < 300; ++i) {{ x = x * 31 + i; benchmark::DoNotOptimize(x); }}
  return x;
}}
__attribute__((noinline)) unsigned hash_key(unsigned x) {{
  for (int i = 0; i < {}; ++i) {{ x ^= x << 5; benchmark::DoNotOptimize(x); }}
  return x;
}}
__attribute__((noinline)) unsigned lookup(unsigned x) {{
  for (int i = 0; i < 300; ++i) {{ x += x >> 3; benchmark::DoNotOptimize(x); }}
  return x;
}}
__attribute__((always_inline)) inline unsigned inner_mix(unsigned x) {{
  for (int i = 0; i < {}; ++i) {{ x = x * 33 ^ i; benchmark::DoNotOptimize(x); }}
  return x;
}}
__attribute__((noinline)) unsigned outer_step(unsigned x) {{ return inner_mix(x) + 1; }}
)",
                     hash_work, inner_work);
}

std::vector<GbenchCase> cases() {
  return {
      {"BM_Three",
       "g_x = parse_digits(g_x); g_x = hash_key(g_x); g_x = lookup(g_x); "
       "benchmark::DoNotOptimize(g_x);",
       ""},
      {"BM_Same", "g_x = lookup(g_x); benchmark::DoNotOptimize(g_x);", ""},
      {"BM_Inlined", "g_y = outer_step(g_y); benchmark::DoNotOptimize(g_y);", ""},
  };
}

const BenchmarkProfile* find_profile(const Results& r, const std::string& name) {
  for (const BenchmarkProfile& p : r.profiles)
    if (p.name == name) return &p;
  return nullptr;
}

bool has_function(const FunctionProfile& p, const std::string& prefix) {
  for (const ProfiledFunction& f : p.functions)
    if (f.name.rfind(prefix, 0) == 0) return true;
  return false;
}

// Two suites of one binary: BM_Three and BM_Inlined by instruction count (exact: one run per
// side decides, and their profiles are read from those runs), BM_Same by time (so its profile,
// asked for with --why, is a Callgrind run of its own).
constexpr const char* kConfig =
    R"(build: g++ -O2 -std=c++17 bench.cpp -o bench_bin -lbenchmark -lpthread
build_timeout: 5m
suites:
  - name: counted
    run: ./bench_bin --benchmark_filter='BM_Three|BM_Inlined'
    format: google-benchmark
    metric: instructions
  - name: timed
    run: ./bench_bin --benchmark_filter=BM_Same --benchmark_min_time=0.005
    format: google-benchmark
rounds: 2
warmup_rounds: 1
)";

void write_project(TempRepo& repo, int hash_work, int inner_work) {
  repo.write("bench.cpp", gbench_source(cases(), prelude(hash_work, inner_work)));
  repo.write(".benchpr.yml", kConfig);
}

TEST(Why, TheSlowerHelperFirstIdenticalCodeNothingInlinedCodeItsCaller) {
  TempRepo repo;
  write_project(repo, 300, 100);
  repo.commit_base_and_branch();
  write_project(repo, 900, 400);
  repo.commit("hash_key and inner_mix do more work");

  TempDir out;
  const BenchprRun r = run_benchpr(
      BENCHPR_BINARY, {"run", "-C", repo.path(), "--base", "main", "--head", "feature", "--dry-run",
                       "--rounds", "2", "--why", "^BM_Same$", "--output", out / "results.json"});
  const Results results = results_from_string(read_file(out / "results.json"));
  ASSERT_EQ(results.profiles.size(), 3u) << r.err;
  EXPECT_NE(r.err.find("profiling 3 benchmark(s) under Callgrind"), std::string::npos) << r.err;

  // The helper the PR made slower is first, and the listed functions explain the change.
  const BenchmarkProfile* three = find_profile(results, "BM_Three");
  ASSERT_NE(three, nullptr);
  EXPECT_EQ(three->requested_by, "regression");
  ASSERT_TRUE(three->base && three->head) << three->skipped;
  EXPECT_TRUE(three->from_counts);  // read from the instruction counts' own Callgrind runs
  const ProfileDiff d = diff_profiles(*three->base, *three->head, 0.005);
  ASSERT_FALSE(d.functions.empty());
  EXPECT_EQ(d.functions[0].name, "hash_key(unsigned int)");
  EXPECT_GE(d.explained, 0.8);
  EXPECT_GE(d.functions[0].share, 0.8);
  EXPECT_EQ(d.functions[0].path.front(), "BM_Three(benchmark::State&)");

  // Identical code: the profile is there (asked for with --why), and no function moved.
  const BenchmarkProfile* same = find_profile(results, "BM_Same");
  ASSERT_NE(same, nullptr);
  EXPECT_EQ(same->requested_by, "--why");
  EXPECT_FALSE(same->from_counts);  // a time suite: profiled by a Callgrind run per side
  EXPECT_GT(same->seconds, 0);
  ASSERT_TRUE(same->base && same->head) << same->skipped;
  const ProfileDiff s = diff_profiles(*same->base, *same->head, 0.005);
  EXPECT_TRUE(s.functions.empty()) << s.functions[0].name << " " << s.functions[0].delta;
  EXPECT_TRUE(s.same_instructions);

  // Code inlined into its caller is counted as the caller's: the change is outer_step's own.
  const BenchmarkProfile* inlined = find_profile(results, "BM_Inlined");
  ASSERT_NE(inlined, nullptr);
  ASSERT_TRUE(inlined->base && inlined->head) << inlined->skipped;
  const ProfileDiff in = diff_profiles(*inlined->base, *inlined->head, 0.005);
  ASSERT_FALSE(in.functions.empty());
  EXPECT_EQ(in.functions[0].name, "outer_step(unsigned int)");
  EXPECT_GE(in.explained, 0.8);
  EXPECT_FALSE(has_function(*inlined->head, "inner_mix"));

  // The comment: the phrase in the row, a section per profiled benchmark, the cost.
  EXPECT_NE(r.out.find("❌ regression · mostly `hash_key(unsigned int)`"), std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("<details><summary>Where BM&#95;Same changed"), std::string::npos);
  EXPECT_NE(r.out.find("Function-level profiles: 3 benchmarks, one Callgrind job per side, "),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("(2 read from the instruction counts' runs)."), std::string::npos) << r.out;
  EXPECT_TRUE(markdown_problems(r.out).empty()) << r.out;
}

}  // namespace
}  // namespace benchpr::testing
