// How long benchpr itself takes to read, analyse, render and write a large session: synthetic
// results of N benchmarks x 30 analysed rounds (+1 warm-up), shaped like a real run (AB/BA plan,
// ~1% lognormal noise, a few real changes, failures, added and removed benchmarks, long
// parameterised names). The promise to users: 10,000 benchmarks x 30 rounds in well under a
// second. Figures and how to reproduce them: docs/performance.md.
//
// Usage: analysis_render_bench [--benchmarks N] [google benchmark flags]
//        analysis_render_bench --write-results FILE [--benchmarks N] [--budget]
//        analysis_render_bench --write-shards DIR [--benchmarks N] [--shards K]
// --benchmarks N runs every benchmark at N benchmarks only (the ctest smoke run uses a small N).
// The second form writes one synthetic results file of N benchmarks (default 10,000), as
// `benchpr run --output` would, so that `benchpr publish FILE --dry-run` can be timed on it.
// The third writes the K shard files (default 10) of one comparison of N benchmarks, as
// `benchpr run --shard I/K` would, so that `benchpr merge` can be timed and its memory measured.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include <benchmark/benchmark.h>
#include <fmt/format.h>

#include "benchpr/core/adaptive/adaptive.hpp"
#include "benchpr/core/adaptive/session_analysis.hpp"
#include "benchpr/core/model/model.hpp"
#include "benchpr/core/plan/schedule.hpp"
#include "benchpr/core/results_file/results_json.hpp"
#include "benchpr/core/results_file/shard_merge.hpp"
#include "benchpr/core/verdicts/analysis.hpp"
#include "benchpr/render/render.hpp"

namespace {

using namespace benchpr;

constexpr int kRounds = 30;
constexpr int kWarmup = 1;
constexpr double kNoiseSd = 0.01;

struct Shape {
  int benchmarks = 0;
  int rounds = kRounds;
  bool budget = false;  // adaptive session: looks at 10, 20, 30 rounds
};

// "BM_Codec/Encode/65536/threads:2": mixed-radix over modules, operations, sizes and threads,
// so every index gets a distinct, realistically long name.
std::string benchmark_name(int i) {
  static const char* const kModules[] = {"BM_Codec",  "BM_HashMap", "BM_Tls",   "BM_Parser",
                                         "BM_Router", "BM_Arena",   "BM_Regex", "BM_Compress",
                                         "BM_Queue",  "BM_Sort"};
  static const char* const kOps[] = {"Encode", "Decode", "Insert",    "Lookup",
                                     "Erase",  "Scan",   "RoundTrip", "Handshake"};
  constexpr int kModuleCount = 10, kOpCount = 8, kSizes = 18;
  const int module = i % kModuleCount;
  const int op = (i / kModuleCount) % kOpCount;
  const int size = 8 << ((i / (kModuleCount * kOpCount)) % kSizes);
  const int threads = 1 + i / (kModuleCount * kOpCount * kSizes);
  return fmt::format("{}/{}/{}/threads:{}", kModules[module], kOps[op], size, threads);
}

std::string fake_sha(std::mt19937_64& rng) {
  return fmt::format("{:016x}{:016x}{:08x}", rng(), rng(), static_cast<std::uint32_t>(rng()));
}

// The runner stops running a benchmark once a look decided it: blank its later rounds so the
// adaptive replay sees what a real budgeted session leaves behind.
void blank_after_decisions(Results& r) {
  const AdaptivePlan plan = adaptive_plan_for(r.config);
  for (int k = 0; k + 1 < static_cast<int>(plan.looks.size()); ++k) {
    const LookReadings looks = read_looks(r, plan, k);
    const std::size_t from = static_cast<std::size_t>(r.config.warmup_rounds + looks.rounds);
    for (std::size_t i = 0; i < r.series.size(); ++i) {
      if (looks.decided_at[i] != k) continue;
      for (std::size_t j = from; j < r.series[i].base.size(); ++j) {
        r.series[i].base[j] = kMissing;
        r.series[i].head[j] = kMissing;
      }
    }
  }
}

Results make_results(const Shape& shape, std::uint64_t seed = 42) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> noise(0, kNoiseSd);
  std::uniform_real_distribution<double> unit(0, 1);

  Results r;
  r.tool_version = "0.1.0";
  r.base = {"main", fake_sha(rng), "Merge pull request #4711 from perf/arena-reuse"};
  r.head = {"refs/pull/4712/head", fake_sha(rng), "codec: vectorise the encode loop"};
  r.config.build = "cmake -S . -B build -DCMAKE_BUILD_TYPE=Release && cmake --build build -j2";
  static const char* const kSuites[] = {"core", "codec", "net"};
  for (const char* s : kSuites) {
    SuiteConfig suite;
    suite.name = s;
    suite.run = fmt::format("build/bench/{}_bench --benchmark_min_time=0.2", s);
    r.config.suites.push_back(std::move(suite));
  }
  r.config.rounds = shape.budget ? shape.rounds / 3 : shape.rounds;
  r.config.warmup_rounds = kWarmup;
  if (shape.budget) r.config.budget_seconds = 3600;
  r.machine = {"AMD EPYC 7B13", 2, "Linux 6.1.0-18-amd64", "g++ 12.2.0"};
  r.pull_request = PullRequestInfo{4712,
                                   "example/project",
                                   "codec: vectorise the encode loop",
                                   {"performance"},
                                   "https://github.com/example/project/pull/4712",
                                   ""};
  r.seed = seed;
  r.plan = make_schedule(shape.rounds, kWarmup, seed);
  const int total = static_cast<int>(r.plan.size());
  r.builds = {{Side::Base, true, 312.4, "", ""}, {Side::Head, true, 298.7, "", ""}};
  double clock = 0;
  for (const RoundPlan& p : r.plan) {
    for (int pos = 0; pos < 2; ++pos) {
      const Side side = (pos == 0) == (p.first == Side::Base) ? Side::Base : Side::Head;
      for (const char* s : kSuites) {
        const double secs = 4 + unit(rng);
        r.runs.push_back({p.index, s, side, pos, clock, secs, true, "", ""});
        clock += secs;
      }
    }
  }

  for (int i = 0; i < shape.benchmarks; ++i) {
    BenchmarkSeries s;
    s.suite = kSuites[i % 3];
    s.name = benchmark_name(i);
    const bool throughput = i % 20 == 7;
    s.unit = throughput ? "items/s" : "ns";
    s.better = throughput ? Better::Higher : Better::Lower;
    const double level = std::exp(std::log(20.0) + unit(rng) * std::log(5e6));  // 20 ns .. 100 ms
    // About 2% carry a real change (0.5% .. 25%, either way, a few 3x); the rest are A/A.
    double effect = 0;
    const double draw = unit(rng);
    if (draw < 0.02)
      effect = (unit(rng) < 0.5 ? -1 : 1) * std::exp(std::log(0.005) + unit(rng) * std::log(50.0));
    if (draw < 0.002) effect = -2.0 / 3;
    const double head_factor = throughput ? 1 / (1 + effect) : 1 + effect;
    const int kind = i % 200;  // 0: added, 1: removed, 2: head fails, else compared
    s.base.resize(static_cast<std::size_t>(total), kMissing);
    s.head.resize(static_cast<std::size_t>(total), kMissing);
    for (int j = 0; j < total; ++j) {
      const double warm = r.plan[static_cast<std::size_t>(j)].warmup ? 1.05 : 1.0;
      const auto idx = static_cast<std::size_t>(j);
      if (kind != 0) s.base[idx] = level * warm * std::exp(noise(rng));
      if (kind != 1) s.head[idx] = level * head_factor * warm * std::exp(noise(rng));
    }
    if (kind == 2) {
      for (int j = total / 2; j < total; ++j) s.head[static_cast<std::size_t>(j)] = kMissing;
      s.head_failure = "error_occurred: std::bad_alloc thrown in the benchmark";
    }
    r.series.push_back(std::move(s));
  }
  r.rounds_done = total;
  r.complete = true;
  r.stop = {StopKind::PlanDone, 10, {}};
  r.measuring_seconds = clock;
  r.overhead_seconds = 0.8;
  if (shape.budget) blank_after_decisions(r);
  return r;
}

// Fixtures are built once per shape: building 10,000 series is not what is being measured.
const Results& fixture(int benchmarks, bool budget) {
  static std::map<std::pair<int, bool>, Results> cache;  // a map: references stay valid
  auto it = cache.find({benchmarks, budget});
  if (it == cache.end()) {
    it = cache.emplace(std::pair{benchmarks, budget}, make_results({benchmarks, kRounds, budget}))
             .first;
  }
  return it->second;
}

int size_of(const benchmark::State& state) { return static_cast<int>(state.range(0)); }

void BM_Analyse(benchmark::State& state) {
  const Results& r = fixture(size_of(state), false);
  for (auto _ : state) benchmark::DoNotOptimize(analyse(r));
  state.SetItemsProcessed(state.iterations() * state.range(0));
}

// With a budget: the adaptive replay of the looks at 10, 20 and 30 rounds, as `publish` does it.
void BM_AnalyseSessionAdaptive(benchmark::State& state) {
  const Results& r = fixture(size_of(state), true);
  for (auto _ : state) benchmark::DoNotOptimize(analyse_session(r));
  state.SetItemsProcessed(state.iterations() * state.range(0));
}

void BM_RenderComment(benchmark::State& state) {
  const Results& r = fixture(size_of(state), false);
  const Analysis a = analyse(r);
  std::size_t bytes = 0;
  for (auto _ : state) {
    const std::string body = render::render_comment(r, a);  // 65,536-byte budget applied
    bytes = body.size();
    benchmark::DoNotOptimize(body.data());
  }
  state.SetItemsProcessed(state.iterations() * state.range(0));
  state.counters["comment_bytes"] = static_cast<double>(bytes);
}

void BM_ResultsToString(benchmark::State& state) {
  const Results& r = fixture(size_of(state), false);
  const Analysis a = analyse(r);
  std::size_t bytes = 0;
  for (auto _ : state) {
    const std::string text = results_to_string(r, &a);  // as the runner writes it every round
    bytes = text.size();
    benchmark::DoNotOptimize(text.data());
  }
  state.SetItemsProcessed(state.iterations() * state.range(0));
  state.SetBytesProcessed(state.iterations() * static_cast<std::int64_t>(bytes));
}

void BM_ResultsFromString(benchmark::State& state) {
  const Results& r = fixture(size_of(state), false);
  const Analysis a = analyse(r);
  const std::string text = results_to_string(r, &a);
  for (auto _ : state) benchmark::DoNotOptimize(results_from_string(text));
  state.SetItemsProcessed(state.iterations() * state.range(0));
  state.SetBytesProcessed(state.iterations() * static_cast<std::int64_t>(text.size()));
}

// What `benchpr publish FILE --dry-run` computes: read, analyse, render.
void BM_PublishPipeline(benchmark::State& state) {
  const Results& r = fixture(size_of(state), false);
  const Analysis a = analyse(r);
  const std::string text = results_to_string(r, &a);
  for (auto _ : state) {
    const Results read = results_from_string(text);
    const Analysis analysis = analyse_session(read);
    benchmark::DoNotOptimize(render::render_comment(read, analysis));
  }
  state.SetItemsProcessed(state.iterations() * state.range(0));
}

// `publish` of a file with `runs` run records (a long session, or a hostile file): 10 benchmarks
// over 1,000 rounds, the run records spread over the rounds, each of its own suite (a file may
// name as many), some with leftover processes and a busy machine. What is measured is the
// analysis and the comment, whose per-run notes (leftover processes, the machine's load per
// round) once searched the runs for every run or round.
void BM_PublishManyRunRecords(benchmark::State& state) {
  static std::map<int, Results> cache;
  Results& r = cache[size_of(state)];
  if (r.runs.empty()) {
    r = make_results({10, 1000, false});
    r.runs.clear();
    const auto rounds = static_cast<int>(r.plan.size());
    for (int i = 0; i < size_of(state); ++i) {
      RunRecord run;
      run.round = i % rounds;
      run.suite = fmt::format("suite_{}", i);
      run.side = i % 2 == 0 ? Side::Base : Side::Head;
      run.seconds = 1;
      run.cpu_seconds = i % 3 == 0 ? 0.5 : 0.95;
      run.others_cpus = 1.5;
      run.leftover_processes = i % 7 == 0 ? 1 : 0;
      r.runs.push_back(std::move(run));
    }
  }
  for (auto _ : state) {
    const Analysis analysis = analyse_session(r);
    benchmark::DoNotOptimize(render::render_comment(r, analysis));
  }
  state.SetItemsProcessed(state.iterations() * state.range(0));
}

// The K shards of one comparison of `benchmarks`: benchmark i on shard i % K + 1, every shard
// with the whole partition, its own series and machine, as `run --shard` writes them.
std::vector<Results> make_shards(int benchmarks, int shards) {
  const Results whole = make_results({benchmarks, kRounds, false});
  ShardInfo info;
  info.count = shards;
  info.balance = "by the benchmark listing";
  for (std::size_t i = 0; i < whole.series.size(); ++i)
    info.partition.push_back({whole.series[i].suite, whole.series[i].name,
                              static_cast<int>(i % static_cast<std::size_t>(shards)) + 1});
  std::vector<Results> out;
  for (int k = 1; k <= shards; ++k) {
    Results r = whole;
    r.series.clear();
    for (std::size_t i = 0; i < whole.series.size(); ++i)
      if (info.partition[i].shard == k) r.series.push_back(whole.series[i]);
    r.machine.cpu = fmt::format("runner {}", k);
    r.shard = info;
    r.shard->index = k;
    out.push_back(std::move(r));
  }
  return out;
}

// `benchpr merge` of 10 shards of range(0) benchmarks each: read the 10 files' text, check and
// join them, write the merged file (the analysis is publish's, measured above).
void BM_MergeShards(benchmark::State& state) {
  constexpr int kShards = 10;
  static std::map<int, std::vector<std::string>> cache;
  std::vector<std::string>& texts = cache[size_of(state)];
  if (texts.empty())
    for (const Results& r : make_shards(size_of(state) * kShards, kShards))
      texts.push_back(results_to_string(r));
  for (auto _ : state) {
    std::vector<ShardFile> files;
    for (std::size_t k = 0; k < texts.size(); ++k)
      files.push_back({fmt::format("shard-{}.json", k + 1), results_from_string(texts[k])});
    const MergeOutcome merged = merge_shards(std::move(files));
    benchmark::DoNotOptimize(results_to_string(merged.merged));
  }
  state.SetItemsProcessed(state.iterations() * state.range(0) * kShards);
}

// The published sizes, or every benchmark at one size (`--benchmarks N`: a quick smoke run).
void register_benchmarks(int only_size) {
  using Fn = void (*)(benchmark::State&);
  struct Entry {
    const char* name;
    Fn fn;
    std::vector<int> sizes;
  };
  const Entry entries[] = {
      {"BM_Analyse", BM_Analyse, {100, 1000, 10000}},
      {"BM_AnalyseSessionAdaptive", BM_AnalyseSessionAdaptive, {10000}},
      {"BM_RenderComment", BM_RenderComment, {1000, 10000}},
      {"BM_ResultsToString", BM_ResultsToString, {10000}},
      {"BM_ResultsFromString", BM_ResultsFromString, {10000}},
      {"BM_PublishPipeline", BM_PublishPipeline, {10000}},
      {"BM_MergeShards", BM_MergeShards, {1000}},  // 10 shards of 1,000
      {"BM_PublishManyRunRecords", BM_PublishManyRunRecords, {10000, 100000}},
  };
  for (const Entry& e : entries) {
    auto* b = benchmark::RegisterBenchmark(e.name, e.fn)->Unit(benchmark::kMillisecond);
    if (only_size > 0) {
      b->Arg(only_size);
    } else {
      for (int n : e.sizes) b->Arg(n);
    }
  }
}

int write_results(const std::string& path, int benchmarks, bool budget) {
  const Results r = make_results({benchmarks, kRounds, budget});
  const Analysis a = analyse_session(r);
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << results_to_string(r, &a);
  out.close();
  if (!out) {
    std::fprintf(stderr, "cannot write %s\n", path.c_str());
    return 1;
  }
  std::printf("wrote %s: %d benchmarks x %d rounds + %d warm-up%s\n", path.c_str(), benchmarks,
              kRounds, kWarmup, budget ? " (budgeted)" : "");
  return 0;
}

int write_shards(const std::string& dir, int benchmarks, int shards) {
  const std::vector<Results> all = make_shards(benchmarks, shards);
  for (const Results& r : all) {
    const std::string path = fmt::format("{}/shard-{}.json", dir, r.shard->index);
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out << results_to_string(r);
    out.close();
    if (!out) {
      std::fprintf(stderr, "cannot write %s\n", path.c_str());
      return 1;
    }
  }
  std::printf("wrote %d shard files of %d benchmarks in all to %s\n", shards, benchmarks,
              dir.c_str());
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  std::string write_path;
  int benchmarks = 0;
  bool budget = false;
  std::string shards_dir;
  int shards = 10;
  std::vector<char*> rest{argv[0]};
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (arg == "--write-results" && i + 1 < argc) {
      write_path = argv[++i];
    } else if (arg == "--benchmarks" && i + 1 < argc) {
      benchmarks = std::atoi(argv[++i]);
      if (benchmarks < 1 || benchmarks > 200000) {
        std::fprintf(stderr, "--benchmarks must be in [1, 200000]\n");
        return 2;
      }
    } else if (arg == "--budget") {
      budget = true;
    } else if (arg == "--write-shards" && i + 1 < argc) {
      shards_dir = argv[++i];
    } else if (arg == "--shards" && i + 1 < argc) {
      shards = std::atoi(argv[++i]);
      if (shards < 1 || shards > 256) {
        std::fprintf(stderr, "--shards must be in [1, 256]\n");
        return 2;
      }
    } else {
      rest.push_back(argv[i]);
    }
  }
  if (!write_path.empty())
    return write_results(write_path, benchmarks > 0 ? benchmarks : 10000, budget);
  if (!shards_dir.empty())
    return write_shards(shards_dir, benchmarks > 0 ? benchmarks : 10000, shards);
  register_benchmarks(benchmarks);
  int rest_argc = static_cast<int>(rest.size());
  benchmark::Initialize(&rest_argc, rest.data());
  if (benchmark::ReportUnrecognizedArguments(rest_argc, rest.data())) return 2;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
