#include "support/gated_cmake_project.hpp"

#include <fmt/format.h>

namespace benchpr::testing {

void write_gated_cmake_project(TempRepo& repo, int work_steps) {
  repo.write("CMakeLists.txt",
             "cmake_minimum_required(VERSION 3.16)\n"
             "project(gated CXX)\n"
             "option(GATED_BUILD_ALL \"Build everything\" OFF)\n"
             "# bench options\n"
             "option(GATED_BUILD_BENCH \"Build benchmarks (needs Google Benchmark)\" OFF)\n"
             "add_library(gated STATIC work.cpp)\n"
             "target_include_directories(gated PUBLIC ${CMAKE_CURRENT_SOURCE_DIR})\n"
             "if(GATED_BUILD_BENCH OR GATED_BUILD_ALL)\n"
             "    message(STATUS \"Generating benchmarks\")\n"
             "    add_subdirectory(bench)\n"
             "endif()\n");
  repo.write("work.hpp", "unsigned long long gated_work(int steps);\n");
  repo.write("work.cpp",
             "#include \"work.hpp\"\n"
             "unsigned long long gated_work(int steps) {\n"
             "  unsigned long long x = 88172645463325252ull;\n"
             "  for (int i = 0; i < steps; ++i) { x ^= x << 13; x ^= x >> 7; x ^= x << 17; }\n"
             "  return x;\n}\n");
  repo.write("bench/CMakeLists.txt",
             "find_package(benchmark CONFIG REQUIRED)\n"
             "add_executable(latency latency.cpp)\n"
             "target_link_libraries(latency PRIVATE gated benchmark::benchmark)\n"
             "add_executable(formatter-bench formatter-bench.cpp)\n"
             "target_link_libraries(formatter-bench PRIVATE gated benchmark::benchmark)\n");
  repo.write(
      "bench/latency.cpp",
      fmt::format("#include <benchmark/benchmark.h>\n#include <cstdio>\n"
                  "#include \"work.hpp\"\n"
                  "static void BM_Work(benchmark::State& state) {{\n"
                  "  for (auto _ : state) benchmark::DoNotOptimize(gated_work({}));\n}}\n"
                  "BENCHMARK(BM_Work);\n"
                  "int main(int argc, char** argv) {{\n"
                  "  if (argc != 1) {{\n"
                  "    std::fprintf(stderr, \"usage: %s (takes no arguments)\\n\", argv[0]);\n"
                  "    return 2;\n  }}\n"
                  "  benchmark::Initialize(&argc, argv);\n"
                  "  benchmark::RunSpecifiedBenchmarks();\n}}\n",
                  work_steps));
  repo.write("bench/formatter-bench.cpp",
             "#include <benchmark/benchmark.h>\n#include <cstdio>\n#include <cstdlib>\n"
             "#include \"work.hpp\"\n"
             "static void BM_Format(benchmark::State& state) {\n"
             "  for (auto _ : state) benchmark::DoNotOptimize(gated_work(100));\n}\n"
             "int main(int argc, char** argv) {\n"
             "  if (argc != 2) {\n"
             "    std::fprintf(stderr, \"Usage: %s <pattern> (or \\\"all\\\" to bench all)\\n\", "
             "argv[0]);\n"
             "    std::exit(1);\n  }\n"
             "  benchmark::RegisterBenchmark(argv[1], BM_Format);\n"
             "  benchmark::Initialize(&argc, argv);\n"
             "  benchmark::RunSpecifiedBenchmarks();\n}\n");
}

}  // namespace benchpr::testing
