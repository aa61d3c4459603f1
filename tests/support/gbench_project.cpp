#include "support/gbench_project.hpp"

#include <fmt/format.h>

namespace benchpr::testing {

std::string spin(int n) {
  return fmt::format(
      "for (int i = 0; i < {}; ++i) {{ benchmark::DoNotOptimize(i); }} benchmark::ClobberMemory();",
      n);
}

std::string chain(int steps) {
  return fmt::format(
      "unsigned long long x = 88172645463325252ull; for (int i = 0; i < {}; ++i) {{ x ^= x << 13; "
      "x ^= x >> 7; x ^= x << 17; }} benchmark::DoNotOptimize(x);",
      steps);
}

std::string gbench_source(const std::vector<GbenchCase>& cases, const std::string& prelude) {
  std::string src =
      "#include <benchmark/benchmark.h>\n#include <cstdlib>\n#include <csignal>\n"
      "#include <thread>\n#include <chrono>\n" +
      prelude + "\n";
  for (const auto& c : cases) {
    src += fmt::format(
        "static void {0}(benchmark::State& state) {{\n  for (auto _ : state) {{\n    {1}\n  "
        "}}\n}}\n"
        "BENCHMARK({0}){2};\n",
        c.name, c.body, c.registration_suffix);
  }
  src += "BENCHMARK_MAIN();\n";
  return src;
}

std::string gbench_config(const GbenchConfig& c) {
  return fmt::format(
      "build: g++ -O2 -std=c++17 bench.cpp -o bench_bin -lbenchmark -lpthread\n"
      "build_timeout: 5m\n"
      "suites:\n"
      "  - name: micro\n"
      "    run: ./bench_bin --benchmark_min_time={}\n"
      "    format: google-benchmark\n"
      "    timeout: {}\n{}"
      "rounds: {}\n"
      "warmup_rounds: {}\n"
      "threshold: {}\n{}",
      c.min_time, c.timeout, c.metric.empty() ? "" : "    metric: " + c.metric + "\n", c.rounds,
      c.warmup, c.threshold, c.extra);
}

std::string command_line_reader() {
  return R"(#include <fstream>
#include <iterator>
#include <string>
static std::string benchmark_command_line() {
  std::ifstream in("/proc/self/cmdline");
  std::string args((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  for (char& c : args)
    if (c == '\0') c = ' ';
  return args;
}
)";
}

void write_gbench_project(TempRepo& repo, const std::vector<GbenchCase>& cases,
                          const GbenchConfig& config, const std::string& prelude) {
  repo.write("bench.cpp", gbench_source(cases, prelude));
  repo.write(".benchpr.yml", gbench_config(config));
}

void commit_comparison(TempRepo& repo, const std::vector<GbenchCase>& base,
                       const std::vector<GbenchCase>& head, const GbenchConfig& config,
                       const std::string& branch, const std::string& base_prelude,
                       const std::string& head_prelude) {
  write_gbench_project(repo, base, config, base_prelude);
  repo.commit_base_and_branch(branch);
  write_gbench_project(repo, head, config, head_prelude);
  repo.commit("the change");
}

}  // namespace benchpr::testing
