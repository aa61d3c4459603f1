// Starting without a .benchpr.yml: recognise the project (CMake with Google Benchmark, Maven with
// JMH), build it in Release, find its benchmark executables, and write a commented configuration
// for `benchpr init`. Everything here is a best effort on the files the project has; what cannot
// be recognised ends in a message that shows the configuration to add.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "benchpr/core/model/model.hpp"
#include "benchpr/runner/zero_config_project.hpp"  // kZeroConfigBuildDir

namespace benchpr::runner {

// The configuration for a project without a .benchpr.yml in `project_dir` (a worktree root):
//  - a CMake project (CMakeLists.txt at the root) whose CMake files use Google Benchmark gets
//    a Release build into kZeroConfigBuildDir, with -DNAME=ON for each option() that gates the
//    benchmarks (build_option_notes), and no suites: those are known only after the
//    build (discover_benchmark_suites, from SessionSetup::after_build);
//  - a Maven project with a JMH module: throws config::ConfigError whose message shows the
//    .benchpr.yml to add (JMH needs its own flags and jar, benchpr does not guess them);
//  - anything else: throws config::ConfigError saying what to add.
Config zero_config(const std::string& project_dir);

// What the zero-config build line does about the CMake options that gate the benchmarks (an
// `if(...)` around add_subdirectory(bench) or a benchmark target), one sentence each: "turned on
// the CMake option SPDLOG_BUILD_BENCH (-DSPDLOG_BUILD_BENCH=ON): bench/ is built only
// if(SPDLOG_BUILD_BENCH OR SPDLOG_BUILD_ALL)", or, for a condition it cannot satisfy, which one
// the user must make true. Empty for anything but a CMake project using Google Benchmark.
std::vector<std::string> build_option_notes(const std::string& project_dir);

// One sentence per benchmark program whose main() refuses to run without arguments of its own
// (`if (argc != 2)` in its sources): suggest_config_yaml writes its suite commented out, saying
// so, since benchpr cannot guess the arguments. Empty when there is none.
std::vector<std::string> argument_notes(const std::string& project_dir);

// One google-benchmark suite per Google Benchmark executable under `build_dir` (found by the
// library's symbols and strings in the file; CMakeFiles, _deps, test and tests directories are
// skipped), sorted by path. `name` is the file name (made unique with its directory when two
// executables share it) and `run` the path relative to `worktree_root`, which defaults to the
// parent of build_dir: "build-benchpr/bench/core_bench". Empty when there are none or build_dir
// does not exist.
std::vector<SuiteConfig> discover_benchmark_suites(const std::string& build_dir,
                                                   const std::string& worktree_root = "");

// A commented .benchpr.yml for `benchpr init`: for CMake + Google Benchmark, the zero-config
// build and one suite per executable target that links benchmark (read from the CMake files,
// best effort; a commented template suite when none is found); for Maven + JMH, the build and a
// jmh suite. For anything else, a ConfigError saying what to add, as zero_config() says it.
std::string suggest_config_yaml(const std::string& project_dir);

}  // namespace benchpr::runner
