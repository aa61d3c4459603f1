#include <benchmark/benchmark.h>

#include <algorithm>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "hash.hpp"
#include "lookup.hpp"
#include "text.hpp"

static void BM_Lookup(benchmark::State& state) {
  const int n = static_cast<int>(state.range(0));
  std::vector<int> ids(n);
  std::iota(ids.begin(), ids.end(), 0);
  std::shuffle(ids.begin(), ids.end(), std::mt19937(42));
  IdSet set(ids);
  std::mt19937 rng(7);
  std::uniform_int_distribution<int> pick(0, 2 * n);
  for (auto _ : state) benchmark::DoNotOptimize(set.contains(pick(rng)));
}
BENCHMARK(BM_Lookup)->Arg(4096);

static void BM_Join(benchmark::State& state) {
  std::vector<std::string> parts(static_cast<std::size_t>(state.range(0)), "segment");
  for (auto _ : state) benchmark::DoNotOptimize(join(parts, ", "));
}
BENCHMARK(BM_Join)->Arg(512);

static void BM_Hash(benchmark::State& state) {
  std::string s(static_cast<std::size_t>(state.range(0)), 'x');
  for (auto _ : state) benchmark::DoNotOptimize(fnv1a(s));
  state.SetBytesProcessed(state.iterations() * state.range(0));
}
BENCHMARK(BM_Hash)->Arg(1024);

static void BM_Sort(benchmark::State& state) {
  std::vector<int> v(static_cast<std::size_t>(state.range(0)));
  std::mt19937 rng(1);
  for (auto _ : state) {
    state.PauseTiming();
    for (auto& x : v) x = static_cast<int>(rng());
    state.ResumeTiming();
    std::sort(v.begin(), v.end());
  }
}
BENCHMARK(BM_Sort)->Arg(4096);

BENCHMARK_MAIN();
