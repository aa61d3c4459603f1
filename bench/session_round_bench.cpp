// benchpr's own time per round of a session with very many benchmarks: what the runner does
// between the benchmark processes. Per round and side it reads the suite's Google Benchmark
// results file, parses it and records every value in its series; after the round it writes the
// results file (raw values, no analysis). Measured here at N benchmarks in the 11th round (the
// 10 analysed rounds of the default configuration, after the warm-up), when the results file is
// at its largest. Target: at most 2 s per round at N = 100,000 (docs/performance.md).
//
// Usage: session_round_bench [--benchmarks N] [google benchmark flags]
#include <charconv>
#include <cstdlib>
#include <filesystem>
#include <iterator>
#include <string>
#include <string_view>
#include <vector>

#include <benchmark/benchmark.h>
#include <fmt/format.h>

#include "benchpr/core/model/model.hpp"
#include "benchpr/core/plan/schedule.hpp"
#include "benchpr/core/results_file/results_json.hpp"
#include "benchpr/formats/format.hpp"
#include "benchpr/runner/results_store.hpp"
#include "benchpr/runner/series_index.hpp"

namespace {

using namespace benchpr;

constexpr int kRounds = 10;
constexpr int kWarmup = 1;

// A Google Benchmark results file of `n` benchmarks, as a real binary writes it (one repetition,
// long parameterised names), with times that differ by side and round.
std::string gbench_file(int n, int salt) {
  std::string out = R"({"context":{"date":"2026-01-01","host_name":"h","executable":"b",)"
                    R"("num_cpus":2,"mhz_per_cpu":2300,"library_build_type":"release"},)"
                    R"("benchmarks":[)";
  out.reserve(static_cast<std::size_t>(n) * 260);
  for (int i = 0; i < n; ++i) {
    const std::string name = fmt::format("BM_Module{}/Operation{}/{}/threads:{}", i % 97,
                                         (i / 97) % 31, 8 << (i % 13), 1 + i % 4);
    const double t = 100.0 + (i % 1000) + 0.37 * salt;
    out += fmt::format(
        R"({}{{"name":"{}","family_index":{},"per_family_instance_index":0,"run_name":"{}",)"
        R"("run_type":"iteration","repetitions":1,"repetition_index":0,"threads":1,)"
        R"("iterations":100000,"real_time":{},"cpu_time":{},"time_unit":"ns"}})",
        i == 0 ? "" : ",", name, i, name, t, t * 0.99);
  }
  out += "]}\n";
  return out;
}

int g_only_n = 0;  // --benchmarks N: this N only

struct RoundFixture {
  Results results;
  SuiteConfig suite;
  std::unique_ptr<formats::Format> format;
  runner::SeriesIndex index;
  std::string base_file, head_file, out_path;
  std::string buffer;  // the results file's text, reused from round to round as Session does

  explicit RoundFixture(int n) {
    suite.name = "micro";
    suite.run = "build/bench --benchmark_out={out}";
    suite.format = FormatKind::GoogleBenchmark;
    results.config.suites = {suite};
    results.config.rounds = kRounds;
    results.config.warmup_rounds = kWarmup;
    results.seed = 7;
    results.plan = make_schedule(kRounds, kWarmup, results.seed);
    format = formats::make_format(suite);
    const auto dir = std::filesystem::temp_directory_path() / fmt::format("benchpr-round-{}", n);
    std::filesystem::create_directories(dir);
    base_file = (dir / "base.json").string();
    head_file = (dir / "head.json").string();
    out_path = (dir / "results.json").string();
    runner::write_file_atomically(base_file, gbench_file(n, 0));
    runner::write_file_atomically(head_file, gbench_file(n, 1));
    // The rounds before the measured one, as a real session has them.
    for (int r = 0; r < kRounds; ++r) record_round(r);
    results.rounds_done = kRounds;
  }

  void record_side(int round, Side side) {
    const std::string text =
        runner::read_text_file(side == Side::Base ? base_file : head_file, formats::kMaxInputBytes);
    const ParsedRun parsed = format->parse(text);
    for (const Measurement& m : parsed.measurements)
      runner::record_measurement(results, index, suite.name, side, round, m);
  }

  void record_round(int round) {
    record_side(round, Side::Base);
    record_side(round, Side::Head);
  }
};

// The whole of benchpr's work for one round: both sides read, parsed and recorded, and the
// results file rewritten.
void BM_SessionRound(benchmark::State& state) {
  const int n = static_cast<int>(state.range(0));
  if (g_only_n > 0 && n != g_only_n) {
    state.SkipWithError("left out by --benchmarks");
    return;
  }
  RoundFixture f(n);
  for (auto _ : state) {
    f.record_round(kRounds);
    write_results(f.buffer, f.results, nullptr);
    runner::write_file_atomically(f.out_path, f.buffer);
  }
  state.SetItemsProcessed(state.iterations() * n);
}
BENCHMARK(BM_SessionRound)->Arg(1000)->Arg(10000)->Arg(100000)->Unit(benchmark::kMillisecond);

// Parsing and recording alone (both sides), without the results file.
void BM_ParseAndRecord(benchmark::State& state) {
  const int n = static_cast<int>(state.range(0));
  if (g_only_n > 0 && n != g_only_n) {
    state.SkipWithError("left out by --benchmarks");
    return;
  }
  RoundFixture f(n);
  for (auto _ : state) f.record_round(kRounds);
  state.SetItemsProcessed(state.iterations() * n);
}
BENCHMARK(BM_ParseAndRecord)->Arg(1000)->Arg(10000)->Arg(100000)->Unit(benchmark::kMillisecond);

// The results file alone: serialised and written, as after every round.
void BM_WriteResults(benchmark::State& state) {
  const int n = static_cast<int>(state.range(0));
  if (g_only_n > 0 && n != g_only_n) {
    state.SkipWithError("left out by --benchmarks");
    return;
  }
  RoundFixture f(n);
  f.record_round(kRounds);
  for (auto _ : state) {
    write_results(f.buffer, f.results, nullptr);
    runner::write_file_atomically(f.out_path, f.buffer);
  }
  state.SetItemsProcessed(state.iterations() * n);
}
BENCHMARK(BM_WriteResults)->Arg(1000)->Arg(10000)->Arg(100000)->Unit(benchmark::kMillisecond);

// One measured value written as the results file writes it (ten significant digits), by the two
// ways considered: fmt's "{:.10g}" (exact big-number formatting when a precision is given) and
// std::to_chars, which the writer uses. Per value: the time divided by 1,000,000 values.
void BM_FormatValues(benchmark::State& state) {
  const bool with_fmt = state.range(0) == 0;
  std::vector<double> values(1000000);
  double v = 100.0;
  for (double& x : values) x = v = v * 1.000037 + 0.731;  // times of 100 ns and up, all digits
  std::string out;
  out.reserve(values.size() * 20);
  for (auto _ : state) {
    out.clear();
    for (const double x : values) {
      if (with_fmt) {
        fmt::format_to(std::back_inserter(out), "{:.10g}", x);
      } else {
        char buf[32];
        const auto end = std::to_chars(buf, buf + sizeof buf, x, std::chars_format::general, 10);
        out.append(buf, end.ptr);
      }
      out += ',';
    }
    benchmark::DoNotOptimize(out.data());
  }
  state.SetLabel(with_fmt ? "fmt {:.10g}" : "std::to_chars");
  state.SetItemsProcessed(state.iterations() * static_cast<long long>(values.size()));
}
BENCHMARK(BM_FormatValues)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);

}  // namespace

int main(int argc, char** argv) {
  std::vector<char*> args;
  for (int i = 0; i < argc; ++i) {
    const std::string_view a = argv[i];
    if (a == "--benchmarks" && i + 1 < argc) {
      g_only_n = std::atoi(argv[++i]);
      continue;
    }
    args.push_back(argv[i]);
  }
  int n = static_cast<int>(args.size());
  benchmark::Initialize(&n, args.data());
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
