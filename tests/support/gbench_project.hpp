// Writes a tiny real Google Benchmark project into a TempRepo: each benchmark's body is C++ code
// given by the test, so two commits can differ by a known effect (or a crash, a hang, ...).
#pragma once

#include <string>
#include <vector>

#include "support/temp_repo.hpp"

namespace benchpr::testing {

struct GbenchCase {
  std::string name;                 // function name, e.g. "BM_Spin"
  std::string body;                 // statements run inside `for (auto _ : state) { ... }`
  std::string registration_suffix;  // e.g. "->Arg(64)"
};

// The project's single source file.
std::string gbench_source(const std::vector<GbenchCase>& cases, const std::string& prelude = "");

struct GbenchConfig {
  int rounds = 4;
  int warmup = 1;
  std::string min_time = "0.01";
  std::string timeout = "2m";
  std::string threshold = "2%";
  std::string metric;  // "" = the format's default (real_time)
  std::string extra;   // appended to .benchpr.yml verbatim
};

// `.benchpr.yml` that builds bench.cpp with g++ (no CMake: keeps integration tests fast) and runs
// the binary as suite "micro".
std::string gbench_config(const GbenchConfig& c = {});

// Writes bench.cpp and .benchpr.yml.
void write_gbench_project(TempRepo& repo, const std::vector<GbenchCase>& cases,
                          const GbenchConfig& config = {}, const std::string& prelude = "");

// `base` committed on main, then `head` committed on `branch`, which stays checked out: the two
// revisions of a comparison.
void commit_comparison(TempRepo& repo, const std::vector<GbenchCase>& base,
                       const std::vector<GbenchCase>& head, const GbenchConfig& config = {},
                       const std::string& branch = "feature", const std::string& base_prelude = "",
                       const std::string& head_prelude = "");

// C++ for a prelude: `static std::string benchmark_command_line()`, the program's own command
// line with its arguments joined by spaces (from /proc/self/cmdline), so a test's benchmark
// program can act in some of its runs only (its listing, its runs under Callgrind).
std::string command_line_reader();

// A busy loop of `n` iterations the optimiser cannot remove.
std::string spin(int n);

// A benchmark body of `steps` dependent xorshift steps: register work only (no loads or stores),
// so its CPU time moves far less with code layout and a neighbour's use of the caches than
// spin()'s loop through memory. For tests that need an effect measured true under load.
std::string chain(int steps);

}  // namespace benchpr::testing
