// benchpr's own time to read `benchpr compare`'s result files into Results (the format readers
// and the recording; no analysis), on files that took quadratic time or memory when each
// repetition or run became a copy of its file (docs/performance.md has the figures).
//   BM_GoogleBenchmarkFile/R   two files (one a side) of one benchmark with R repetitions and a
//                              1 MB context: 1.4 MB at R = 2,000 (was: out of memory at 6 GB)
//   BM_HyperfineTimes/T        two hyperfine files of one command run T times (130 KB at T =
//                              10,000; 20,000 took 126 s, now refused: over the 10,000 rounds a
//                              results file holds)
//   BM_HyperfineLongCommand/T  a 1 MB command name run T times (was: 3.9 GB and 113 s at 2,000)
// Linear in the files' size: the time per byte stays flat as the files grow.
//
// Usage: compare_files_bench [google benchmark flags]
#include <string>

#include <benchmark/benchmark.h>
#include <fmt/format.h>

#include "benchpr/app/compare_results.hpp"

namespace {

using namespace benchpr;

std::string gbench_file(int repetitions, std::size_t context_bytes) {
  std::string out = R"({"context":{"date":"2026-01-01","padding":")" +
                    std::string(context_bytes, 'x') + R"("},"benchmarks":[)";
  for (int k = 0; k < repetitions; ++k) {
    out += fmt::format(
        R"({}{{"name":"BM_A","family_index":0,"per_family_instance_index":0,"run_name":"BM_A",)"
        R"("run_type":"iteration","repetitions":{},"repetition_index":{},"threads":1,)"
        R"("iterations":1000,"real_time":{},"cpu_time":{},"time_unit":"ns"}})",
        k == 0 ? "" : ",", repetitions, k, 100 + k % 7, 100 + k % 5);
  }
  return out + "]}\n";
}

std::string hyperfine_file(const std::string& command, int times) {
  std::string out = R"({"results":[{"command":")" + command + R"(","times":[)";
  for (int k = 0; k < times; ++k) out += fmt::format("{}0.0{}", k == 0 ? "" : ",", 1 + k % 9);
  out += R"(],"exit_codes":[)";
  for (int k = 0; k < times; ++k) out += k == 0 ? "0" : ",0";
  return out + "]}]}\n";
}

void read_both(benchmark::State& state, const std::string& content) {
  app::CompareInput in;
  in.base = {{"base.json", content}};
  in.head = {{"head.json", content}};
  for (auto _ : state) {
    Results r = app::results_from_files(in);
    benchmark::DoNotOptimize(r.series.data());
  }
  state.SetBytesProcessed(state.iterations() * static_cast<std::int64_t>(2 * content.size()));
}

void BM_GoogleBenchmarkFile(benchmark::State& state) {
  read_both(state, gbench_file(static_cast<int>(state.range(0)), 1 << 20));
}
BENCHMARK(BM_GoogleBenchmarkFile)->Arg(200)->Arg(2000)->Unit(benchmark::kMillisecond);

void BM_HyperfineTimes(benchmark::State& state) {
  read_both(state, hyperfine_file("./tool --input big", static_cast<int>(state.range(0))));
}
BENCHMARK(BM_HyperfineTimes)->Arg(1000)->Arg(10000)->Unit(benchmark::kMillisecond);

void BM_HyperfineLongCommand(benchmark::State& state) {
  read_both(state, hyperfine_file(std::string(1 << 20, 'c'), static_cast<int>(state.range(0))));
}
BENCHMARK(BM_HyperfineLongCommand)->Arg(200)->Arg(2000)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
