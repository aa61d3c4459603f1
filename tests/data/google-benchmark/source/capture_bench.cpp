// Produces the Google Benchmark JSON captured in tests/data/google-benchmark/. Not built by CMake:
//   g++ -O2 capture_bench.cpp -lbenchmark -lpthread -o capture_bench
//   ./capture_bench --benchmark_format=json --benchmark_out=repetitions.json
//       --benchmark_out_format=json --benchmark_repetitions=3
// (see ../README.md for the exact command behind each file).
#include <benchmark/benchmark.h>

#include <cstring>
#include <limits>
#include <numeric>
#include <vector>

// A user counter plus SetBytesProcessed / SetItemsProcessed, so bytes_per_second,
// items_per_second and a custom counter all appear in the output.
static void BM_Checksum(benchmark::State& state) {
  std::vector<unsigned char> data(4096, 7);
  std::uint64_t checksums = 0;
  for (auto _ : state) {
    unsigned sum = std::accumulate(data.begin(), data.end(), 0u);
    benchmark::DoNotOptimize(sum);
    ++checksums;
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) * 4096);
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations()));
  state.counters["checksums"] =
      benchmark::Counter(static_cast<double>(checksums), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_Checksum);

// Arguments: BM_Copy/64 and BM_Copy/1024, reported in microseconds to exercise unit conversion.
static void BM_Copy(benchmark::State& state) {
  std::vector<char> src(static_cast<size_t>(state.range(0)), 'x');
  std::vector<char> dst(src.size());
  for (auto _ : state) {
    std::memcpy(dst.data(), src.data(), src.size());
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) * state.range(0));
}
BENCHMARK(BM_Copy)->Arg(64)->Arg(1024)->Unit(benchmark::kMicrosecond);

// Threads: names become BM_Spin/threads:2.
static void BM_Spin(benchmark::State& state) {
  for (auto _ : state) {
    int x = 0;
    for (int i = 0; i < 100; ++i) benchmark::DoNotOptimize(x += i);
  }
}
BENCHMARK(BM_Spin)->Threads(2);

// A benchmark that reports an error instead of a measurement.
static void BM_Broken(benchmark::State& state) {
  for (auto _ : state) {
    state.SkipWithError("could not open fixture file");
    break;
  }
}
BENCHMARK(BM_Broken);

// Counters that are not finite: the library writes them as bare NaN / Infinity, which is not
// valid JSON, so the parser has to cope with it.
static void BM_NonFinite(benchmark::State& state) {
  for (auto _ : state) benchmark::DoNotOptimize(state.iterations());
  state.counters["ratio"] = std::numeric_limits<double>::quiet_NaN();
  state.counters["peak"] = std::numeric_limits<double>::infinity();
  state.counters["floor"] = -std::numeric_limits<double>::infinity();
}
BENCHMARK(BM_NonFinite);

BENCHMARK_MAIN();
