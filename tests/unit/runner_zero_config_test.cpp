// Zero-config on small project trees written into temporary directories: which projects are
// recognised, which executables count as Google Benchmark binaries, and that every suggested
// .benchpr.yml is accepted by the configuration parser.
#include <filesystem>
#include <stdexcept>
#include <string>

#include <gtest/gtest.h>

#include "benchpr/config/config_parser.hpp"
#include "benchpr/runner/zero_config.hpp"
#include "support/temp_dir.hpp"

namespace benchpr::runner {
namespace {

namespace fs = std::filesystem;
using benchpr::testing::TempDir;
using benchpr::testing::write_file;

const std::string kCmakeBuild =
    "cmake -S . -B build-benchpr -DCMAKE_BUILD_TYPE=Release -DBENCHMARK_ENABLE_TESTING=OFF && "
    "cmake --build build-benchpr -j2";

void write_cmake_project(const TempDir& dir) {
  write_file(dir / "CMakeLists.txt",
             "cmake_minimum_required(VERSION 3.16)\nproject(demo CXX)\n"
             "find_package(benchmark REQUIRED)\nadd_subdirectory(src)\nadd_subdirectory(bench)\n");
  write_file(dir / "src/CMakeLists.txt",
             "add_library(core core.cpp)\nadd_executable(tool main.cpp)\n"
             "target_link_libraries(tool PRIVATE core)\n");
  write_file(dir / "bench/CMakeLists.txt",
             "add_executable(core_bench core_bench.cpp)\n"
             "target_link_libraries(core_bench PRIVATE core benchmark::benchmark)\n"
             "add_executable(io_bench io_bench.cpp)  # the I/O suite\n"
             "target_link_libraries(io_bench\n  PRIVATE core\n  benchmark::benchmark_main)\n"
             "# add_executable(old_bench old.cpp)\n"
             "# target_link_libraries(old_bench benchmark::benchmark)\n");
}

std::string message_of(const std::string& dir) {
  try {
    zero_config(dir);
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  ADD_FAILURE() << "zero_config(" << dir << ") did not throw";
  return "";
}

TEST(ZeroConfig, CmakeProjectWithGoogleBenchmarkBuildsInReleaseWithoutSuitesYet) {
  TempDir dir;
  write_cmake_project(dir);
  const Config config = zero_config(dir.path());
  EXPECT_EQ(config.build, kCmakeBuild);
  EXPECT_TRUE(config.suites.empty());
  EXPECT_EQ(config.rounds, Config{}.rounds);
}

// Shaped like spdlog: the benchmarks are a subdirectory added only when an OFF option is on.
void write_gated_project(const TempDir& dir) {
  write_file(dir / "CMakeLists.txt",
             "cmake_minimum_required(VERSION 3.16)\nproject(demo CXX)\n"
             "option(DEMO_BUILD_ALL \"Build everything\" OFF)\n"
             "option(DEMO_BUILD_TESTS \"Build tests\" OFF)\n"
             "# bench options\n"
             "option(DEMO_BUILD_BENCH \"Build benchmarks (needs google benchmark)\" OFF)\n"
             "option(DEMO_INSTALL \"Install\" ON)\n"
             "add_library(core core.cpp)\n"
             "if(DEMO_BUILD_TESTS OR DEMO_BUILD_ALL)\n  add_subdirectory(tests)\nendif()\n"
             "if(DEMO_BUILD_BENCH OR DEMO_BUILD_ALL)\n"
             "    message(STATUS \"Generating benchmarks\")\n"
             "    add_subdirectory(bench)\nendif()\n");
  write_file(dir / "bench/CMakeLists.txt",
             "find_package(benchmark CONFIG)\n"
             "add_executable(latency latency.cpp)\n"
             "target_link_libraries(latency PRIVATE benchmark::benchmark core)\n");
}

TEST(ZeroConfig, TurnsOnTheOptionThatGatesTheBenchmarkDirectory) {
  TempDir dir;
  write_gated_project(dir);
  const std::string expected =
      "cmake -S . -B build-benchpr -DCMAKE_BUILD_TYPE=Release -DBENCHMARK_ENABLE_TESTING=OFF "
      "-DDEMO_BUILD_BENCH=ON && cmake --build build-benchpr -j2";
  EXPECT_EQ(zero_config(dir.path()).build, expected);
  const std::vector<std::string> notes = build_option_notes(dir.path());
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_EQ(notes[0],
            "turned on the CMake option DEMO_BUILD_BENCH (-DDEMO_BUILD_BENCH=ON): bench/ is built "
            "only if(DEMO_BUILD_BENCH OR DEMO_BUILD_ALL)");
  const std::string yaml = suggest_config_yaml(dir.path());
  EXPECT_NE(yaml.find("# turned on the CMake option DEMO_BUILD_BENCH"), std::string::npos) << yaml;
  const Config config = config::parse_config(yaml);
  EXPECT_EQ(config.build, expected);
  ASSERT_EQ(config.suites.size(), 1u) << yaml;
  EXPECT_EQ(config.suites[0].run, "build-benchpr/bench/latency");
}

TEST(ZeroConfig, GuardAroundABenchmarkTargetTurnsOnItsOption) {
  TempDir dir;
  write_file(dir / "CMakeLists.txt",
             "project(x)\noption(WITH_PERF \"perf programs\")\nfind_package(benchmark)\n"
             "if (WITH_PERF)\n  add_executable(perf perf.cpp)\n"
             "  target_link_libraries(perf benchmark::benchmark)\nendif ()\n");
  EXPECT_NE(zero_config(dir.path()).build.find(" -DWITH_PERF=ON "), std::string::npos);
}

TEST(ZeroConfig, AGuardItCannotSatisfySaysWhatToSet) {
  TempDir dir;
  write_file(dir / "CMakeLists.txt",
             "project(x)\nfind_package(benchmark)\n"
             "if(CMAKE_PROJECT_NAME STREQUAL PROJECT_NAME AND NOT NO_EXTRAS)\n"
             "  add_subdirectory(benchmarks)\nendif()\n");
  write_file(dir / "benchmarks/CMakeLists.txt",
             "add_executable(b b.cpp)\ntarget_link_libraries(b benchmark::benchmark)\n");
  EXPECT_EQ(zero_config(dir.path()).build, kCmakeBuild);
  const std::vector<std::string> notes = build_option_notes(dir.path());
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_NE(notes[0].find("benchmarks/ is built only if(CMAKE_PROJECT_NAME STREQUAL PROJECT_NAME "
                          "AND NOT NO_EXTRAS)"),
            std::string::npos)
      << notes[0];
  EXPECT_NE(notes[0].find("add the -D option"), std::string::npos) << notes[0];
}

// Shaped like CRoaring: an ON option guards CPM.cmake, which downloads while CMake configures.
// Without a network the configure step fails on both sides; the note names the downloads and the
// option that turns them off, in init's output and in the .benchpr.yml it writes.
TEST(ZeroConfig, ConfigureTimeDownloadsAreNamedWithTheOptionThatTurnsThemOff) {
  TempDir dir;
  write_file(dir / "CMakeLists.txt",
             "project(roaring C CXX)\n"
             "option(ROARING_USE_CPM \"Use CPM to fetch dependencies\" ON)\n"
             "if(ROARING_USE_CPM)\n  include(cmake/CPM.cmake)\n"
             "  CPMAddPackage(NAME benchmark GITHUB_REPOSITORY google/benchmark)\nendif()\n"
             "find_package(benchmark)\n"
             "add_executable(bench b.cpp)\ntarget_link_libraries(bench benchmark::benchmark)\n");
  const std::vector<std::string> notes = build_option_notes(dir.path());
  ASSERT_EQ(notes.size(), 1u) << ::testing::PrintToString(notes);
  EXPECT_EQ(notes[0],
            "the project downloads while CMake configures (CPM.cmake (include(cmake/CPM.cmake)) in "
            "CMakeLists.txt, CPM.cmake (CPMAddPackage) in CMakeLists.txt): a build without network "
            "access fails at configure time; -DROARING_USE_CPM=OFF turns them off (the option "
            "guarding them): add it to the cmake command in `build:` with the dependencies "
            "installed instead");
  EXPECT_NE(suggest_config_yaml(dir.path()).find("# the project downloads while CMake configures"),
            std::string::npos);
}

TEST(ZeroConfig, UnguardedDownloadsSayNoOptionGuardsThem) {
  TempDir dir;
  write_file(dir / "CMakeLists.txt",
             "project(x)\ninclude(FetchContent)\n"
             "FetchContent_Declare(fmt URL https://example.com/fmt.tar.gz)\n"
             "FetchContent_MakeAvailable(fmt)\n"
             "ExternalProject_Add(zlib GIT_REPOSITORY https://example.com/zlib.git)\n"
             "ExternalProject_Add(local SOURCE_DIR ${CMAKE_SOURCE_DIR}/local)\n"
             "find_package(benchmark)\n"
             "add_executable(b b.cpp)\ntarget_link_libraries(b benchmark::benchmark)\n");
  const std::vector<std::string> notes = build_option_notes(dir.path());
  ASSERT_EQ(notes.size(), 1u) << ::testing::PrintToString(notes);
  EXPECT_NE(notes[0].find("(FetchContent_Declare in CMakeLists.txt, FetchContent_MakeAvailable in "
                          "CMakeLists.txt, ExternalProject_Add with GIT_REPOSITORY in "
                          "CMakeLists.txt)"),
            std::string::npos)
      << notes[0];
  EXPECT_NE(notes[0].find("no option guards them"), std::string::npos) << notes[0];
}

// A gated directory named bench* whose programs are not among the suites found is not named: the
// notes speak of the gates of the suites benchpr will run.
TEST(ZeroConfig, OnlyGatesOfTheSuitesFoundAreNamed) {
  TempDir dir;
  write_file(dir / "CMakeLists.txt",
             "project(x)\noption(ENABLE_MICROBENCHMARKS \"other programs\" OFF)\n"
             "find_package(benchmark)\nadd_subdirectory(bench)\n"
             "if(ENABLE_MICROBENCHMARKS)\n  add_subdirectory(microbenchmarks)\nendif()\n");
  write_file(dir / "bench/CMakeLists.txt",
             "add_executable(b b.cpp)\ntarget_link_libraries(b benchmark::benchmark)\n");
  write_file(dir / "microbenchmarks/CMakeLists.txt",
             "add_executable(m m.cpp)\ntarget_link_libraries(m PRIVATE some_timer)\n");
  EXPECT_TRUE(build_option_notes(dir.path()).empty())
      << ::testing::PrintToString(build_option_notes(dir.path()));
  EXPECT_EQ(zero_config(dir.path()).build, kCmakeBuild);
}

TEST(ZeroConfig, UngatedBenchmarksNeedNoOption) {
  TempDir dir;
  write_cmake_project(dir);
  EXPECT_TRUE(build_option_notes(dir.path()).empty());
}

TEST(ZeroConfig, FetchContentOfGoogleBenchmarkCountsToo) {
  TempDir dir;
  write_file(dir / "CMakeLists.txt",
             "include(FetchContent)\nFetchContent_Declare(googlebenchmark\n"
             "  GIT_REPOSITORY https://github.com/google/benchmark.git)\n");
  EXPECT_EQ(zero_config(dir.path()).build, kCmakeBuild);
}

TEST(ZeroConfig, CmakeProjectWithoutBenchmarkSaysWhatToAdd) {
  TempDir dir;
  write_file(dir / "CMakeLists.txt", "project(x)\nadd_executable(x main.cpp)\n");
  const std::string msg = message_of(dir.path());
  EXPECT_NE(msg.find("no .benchpr.yml in " + dir.path()), std::string::npos) << msg;
  EXPECT_NE(msg.find("it has a CMakeLists.txt, but no CMake file uses Google Benchmark"),
            std::string::npos)
      << msg;
  EXPECT_NE(msg.find("Add a .benchpr.yml"), std::string::npos) << msg;
}

TEST(ZeroConfig, UnknownProjectSaysWhatToAdd) {
  TempDir dir;
  write_file(dir / "Cargo.toml", "[package]\nname = \"proxy\"\n");
  const std::string msg = message_of(dir.path());
  EXPECT_NE(msg.find("neither a CMake project using Google Benchmark nor a Maven project with JMH"),
            std::string::npos)
      << msg;
  EXPECT_NE(msg.find("format: custom"), std::string::npos) << msg;
  try {
    suggest_config_yaml(dir.path());
    ADD_FAILURE() << "suggest_config_yaml did not throw";
  } catch (const config::ConfigError& e) {
    EXPECT_EQ(e.what(), msg);
  }
}

TEST(ZeroConfig, MavenProjectWithJmhShowsTheConfigToAdd) {
  TempDir dir;
  write_file(dir / "pom.xml",
             "<project><modules><module>core</module><module>bench</module></modules>"
             "<dependencyManagement><dependency><groupId>org.openjdk.jmh</groupId>"
             "</dependency></dependencyManagement></project>\n");
  write_file(dir / "core/pom.xml", "<project><artifactId>core</artifactId></project>\n");
  write_file(dir / "bench/pom.xml",
             "<project><dependencies><dependency><groupId>org.openjdk.jmh</groupId>"
             "<artifactId>jmh-core</artifactId></dependency></dependencies></project>\n");
  const std::string msg = message_of(dir.path());
  EXPECT_NE(msg.find("Maven project with JMH"), std::string::npos) << msg;
  const std::string expected_suite =
      "  - name: jmh\n"
      "    run: java -jar bench/target/benchmarks.jar -f 1 -wi 3 -i 5 -rf json -rff {out}\n"
      "    format: jmh\n";
  EXPECT_NE(msg.find(expected_suite), std::string::npos) << msg;
  EXPECT_NE(msg.find("build: mvn -B -q -DskipTests -pl bench -am package\n"), std::string::npos)
      << msg;

  // The same text from `benchpr init`, and it is a valid configuration.
  const std::string yaml = suggest_config_yaml(dir.path());
  EXPECT_NE(msg.find(yaml), std::string::npos);
  const Config config = config::parse_config(yaml);
  ASSERT_EQ(config.suites.size(), 1u);
  EXPECT_EQ(config.suites[0].format, FormatKind::Jmh);
  EXPECT_EQ(config.suites[0].run,
            "java -jar bench/target/benchmarks.jar -f 1 -wi 3 -i 5 -rf json -rff {out}");
  EXPECT_EQ(config.build, "mvn -B -q -DskipTests -pl bench -am package");
}

TEST(ZeroConfig, SingleModuleMavenWithFinalName) {
  TempDir dir;
  write_file(dir / "pom.xml",
             "<project><artifactId>jmh-bench</artifactId><build>"
             "<finalName>perf</finalName></build></project>\n");
  const std::string yaml = suggest_config_yaml(dir.path());
  const Config config = config::parse_config(yaml);
  EXPECT_EQ(config.build, "mvn -B -q -DskipTests package");
  EXPECT_EQ(config.suites.at(0).run,
            "java -jar target/perf.jar -f 1 -wi 3 -i 5 -rf json -rff {out}");
}

TEST(SuggestConfig, CmakeSuitesComeFromExecutablesThatLinkBenchmark) {
  TempDir dir;
  write_cmake_project(dir);
  const std::string yaml = suggest_config_yaml(dir.path());
  EXPECT_NE(yaml.find("# "), std::string::npos);  // commented for the reader
  const Config config = config::parse_config(yaml);
  EXPECT_EQ(config.build, kCmakeBuild);
  ASSERT_EQ(config.suites.size(), 2u) << yaml;  // not `tool`, not the commented-out old_bench
  EXPECT_EQ(config.suites[0].name, "core_bench");
  EXPECT_EQ(config.suites[0].run, "build-benchpr/bench/core_bench");
  EXPECT_EQ(config.suites[0].format, FormatKind::GoogleBenchmark);
  EXPECT_EQ(config.suites[1].name, "io_bench");
  EXPECT_EQ(config.suites[1].run, "build-benchpr/bench/io_bench");
  EXPECT_EQ(config.rounds, 10);
  EXPECT_DOUBLE_EQ(config.threshold, 0.02);
}

TEST(SuggestConfig, CmakeWithoutVisibleTargetsGetsATemplateSuite) {
  TempDir dir;
  // Targets made by a helper function cannot be read from the CMake files.
  write_file(dir / "CMakeLists.txt",
             "find_package(benchmark REQUIRED)\nadd_bench(core)\nadd_bench(io)\n");
  const std::string yaml = suggest_config_yaml(dir.path());
  EXPECT_NE(yaml.find("name yours here"), std::string::npos) << yaml;
  const Config config = config::parse_config(yaml);
  ASSERT_EQ(config.suites.size(), 1u);
  EXPECT_EQ(config.suites[0].run, "build-benchpr/bench/my_bench");
}

TEST(SuggestConfig, BuildOutputAndDependenciesAreNotTheProject) {
  TempDir dir;
  write_file(dir / "CMakeLists.txt", "project(x)\nadd_subdirectory(bench)\n");
  write_file(dir / "bench/CMakeLists.txt", "add_executable(x x.cpp)\n");
  // A fetched copy of Google Benchmark in a build tree must not make this a benchmark project.
  write_file(dir / "build/_deps/benchmark-src/CMakeLists.txt",
             "add_executable(benchmark_test t.cc)\n"
             "target_link_libraries(benchmark_test benchmark::benchmark)\n");
  try {
    suggest_config_yaml(dir.path());
    ADD_FAILURE() << "suggest_config_yaml did not throw";
  } catch (const config::ConfigError& e) {
    // Refused for the reason under test: no CMake file of the project itself uses the library.
    EXPECT_NE(std::string(e.what()).find(
                  "it has a CMakeLists.txt, but no CMake file uses Google Benchmark"),
              std::string::npos)
        << e.what();
  }
}

// A program whose main() wants arguments of its own (spdlog's formatter-bench: `if (argc != 2)`)
// fails as it is: init writes its suite commented out, saying why and what to add.
TEST(SuggestConfig, AProgramThatNeedsArgumentsIsWrittenCommentedOut) {
  TempDir dir;
  write_file(dir / "CMakeLists.txt",
             "project(x)\nfind_package(benchmark)\n"
             "add_executable(latency latency.cpp)\n"
             "target_link_libraries(latency benchmark::benchmark)\n"
             "add_executable(formatter-bench formatter-bench.cpp)\n"
             "target_link_libraries(formatter-bench benchmark::benchmark)\n");
  write_file(dir / "latency.cpp",
             "int main(int argc, char* argv[]) { bool full = argc > 1; (void)full; }\n");
  write_file(dir / "formatter-bench.cpp",
             "int main(int argc, char *argv[]) {\n  if (argc != 2) {\n    exit(1);\n  }\n}\n");
  const std::string yaml = suggest_config_yaml(dir.path());
  EXPECT_NE(yaml.find("  # formatter-bench's main() checks `argc != 2`: it needs arguments of its "
                      "own, which benchpr cannot\n  # guess. Add them to `run` and uncomment:\n"
                      "  # - name: formatter-bench\n"
                      "  #   run: build-benchpr/formatter-bench\n"),
            std::string::npos)
      << yaml;
  const Config config = config::parse_config(yaml);
  ASSERT_EQ(config.suites.size(), 1u) << yaml;
  EXPECT_EQ(config.suites[0].name, "latency");
  // Deleting "# " from its lines gives a suite the parser accepts.
  std::string uncommented = yaml;
  for (auto at = uncommented.find("  # - name: formatter-bench"); at != std::string::npos;) {
    uncommented.erase(at + 2, 2);
    at = uncommented.find("\n  # ", at);
    if (at == std::string::npos || uncommented.compare(at + 1, 6, "  #   ") != 0) break;
    ++at;
  }
  EXPECT_EQ(config::parse_config(uncommented).suites.size(), 2u) << uncommented;
  EXPECT_EQ(argument_notes(dir.path()),
            (std::vector<std::string>{"formatter-bench's main() checks `argc != 2`: it needs "
                                      "arguments of its own; its suite in .benchpr.yml says what "
                                      "to do"}));

  // The only program: its suite stays, with the comment, so the file is still a configuration.
  write_file(dir / "latency.cpp", "int main(int argc, char** argv) { if (argc < 3) return 1; }\n");
  const Config only = config::parse_config(suggest_config_yaml(dir.path()));
  ASSERT_EQ(only.suites.size(), 2u);
}

// A fake executable: ELF magic, padding, then `marker` (as the library's strings or symbols
// appear in a real binary).
void write_binary(const std::string& path, const std::string& marker, bool executable = true,
                  std::size_t padding = 100) {
  write_file(path, std::string("\x7f"
                               "ELF",
                               4) +
                       std::string(padding, '\0') + marker + std::string(50, '\0'));
  fs::permissions(
      path, executable ? fs::perms::owner_all : fs::perms::owner_read | fs::perms::owner_write);
}

TEST(DiscoverBenchmarks, FindsGoogleBenchmarkExecutablesOnly) {
  TempDir root;
  const std::string build = root / "build-benchpr";
  write_binary(build + "/bench/core_bench", "_ZN9benchmark22RunSpecifiedBenchmarksEv");
  write_binary(build + "/io_bench", "libbenchmark.so.1debian");
  write_binary(build + "/static_bench", "  [--benchmark_filter=<regex>]");
  write_binary(build + "/tool", "main");                              // not a benchmark
  write_binary(build + "/CMakeFiles/3.25/a.out", "libbenchmark.so");  // CMake's probes
  write_binary(build + "/_deps/benchmark-build/bm", "libbenchmark.so");
  write_binary(build + "/tests/unit_tests", "libbenchmark.so");
  write_binary(build + "/lib/libcore.so", "libbenchmark.so");
  write_binary(build + "/lib/libcore.so.1.2", "libbenchmark.so");
  write_binary(build + "/not_executable", "libbenchmark.so", false);
  write_file(build + "/run.sh", "#!/bin/sh\nexec ./core_bench --benchmark_filter=x\n");
  fs::permissions(build + "/run.sh", fs::perms::owner_all);

  const auto suites = discover_benchmark_suites(build);
  ASSERT_EQ(suites.size(), 3u);
  EXPECT_EQ(suites[0].name, "core_bench");
  EXPECT_EQ(suites[0].run, "build-benchpr/bench/core_bench");
  EXPECT_EQ(suites[0].format, FormatKind::GoogleBenchmark);
  EXPECT_EQ(suites[1].name, "io_bench");
  EXPECT_EQ(suites[1].run, "build-benchpr/io_bench");
  EXPECT_EQ(suites[2].name, "static_bench");
  EXPECT_EQ(suites[2].run, "build-benchpr/static_bench");

  // Same answer with a trailing slash or an explicit worktree root.
  const auto again = discover_benchmark_suites(build + "/");
  ASSERT_EQ(again.size(), 3u);
  EXPECT_EQ(again[0].run, "build-benchpr/bench/core_bench");
  const auto from_build = discover_benchmark_suites(build, build);
  EXPECT_EQ(from_build.at(0).run, "bench/core_bench");
}

TEST(DiscoverBenchmarks, MarkerAcrossAReadChunkIsFound) {
  TempDir root;
  const std::string build = root / "b";
  // The reader works in 1 MiB chunks: put the marker across the first boundary.
  write_binary(build + "/edge", "libbenchmark.so", true, (1u << 20) - 4 - 6);
  EXPECT_EQ(discover_benchmark_suites(build).size(), 1u);
}

TEST(DiscoverBenchmarks, SameFileNameInTwoDirectoriesGetsDistinctNames) {
  TempDir root;
  const std::string build = root / "build-benchpr";
  write_binary(build + "/core/bench", "libbenchmark.so");
  write_binary(build + "/net/bench", "libbenchmark.so");
  write_binary(build + "/odd name/x bench", "libbenchmark.so");
  const auto suites = discover_benchmark_suites(build);
  ASSERT_EQ(suites.size(), 3u);
  EXPECT_EQ(suites[0].name, "core.bench");
  EXPECT_EQ(suites[1].name, "net.bench");
  EXPECT_EQ(suites[2].name, "x-bench");
  EXPECT_EQ(suites[2].run, "'build-benchpr/odd name/x bench'");  // quoted for the shell
}

TEST(DiscoverBenchmarks, MissingDirectoryIsEmpty) {
  TempDir root;
  EXPECT_TRUE(discover_benchmark_suites(root / "nope").empty());
}

}  // namespace
}  // namespace benchpr::runner
