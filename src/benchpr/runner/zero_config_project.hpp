// What zero-config learns of a project from its build files: the benchmark executables, the
// option()s and if()s that gate them, the steps that download while configuring, JMH. The scan
// (zero_config_scan) fills it, the gates' reading (zero_config_gates) adds to it and reads it.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace benchpr::runner {

// The build directory zero-config uses, relative to the worktree root. Its own name, so it never
// collides with a `build/` the project or its developers already use.
inline constexpr std::string_view kZeroConfigBuildDir = "build-benchpr";

}  // namespace benchpr::runner

namespace benchpr::runner::zero_config_detail {

struct BenchTarget {
  std::string name;  // CMake target = executable name
  std::string dir;   // directory of its CMakeLists.txt relative to the project ("" at the root)
  // The check by which its main() refuses to run without arguments of its own ("argc != 2"),
  // found in its sources; "" when none was seen.
  std::string needs_arguments = "";
};

// An `if(...)` around an add_subdirectory() of benchmarks or a benchmark target.
struct BuildGate {
  std::string
      condition;     // as written, in the project's case: "SPDLOG_BUILD_BENCH OR SPDLOG_BUILD_ALL"
  std::string what;  // "bench/" or "target latency"
  std::string subdir;  // for add_subdirectory: the directory added, relative to the project
};

// A step that downloads while CMake configures (CPM.cmake, FetchContent, ExternalProject with a
// URL or a repository, file(DOWNLOAD)): a build without network access fails there.
struct ConfigureDownload {
  std::string what;       // "CPMAddPackage", "FetchContent_Declare", "file(DOWNLOAD)", ...
  std::string file;       // the CMake file, relative to the project
  std::string condition;  // the if() around it, as written; "" when none
};

struct Project {
  bool cmake = false;           // CMakeLists.txt at the root
  bool uses_benchmark = false;  // some CMake file uses Google Benchmark
  std::vector<BenchTarget> targets;
  std::map<std::string, bool> options;  // option(NAME "..." ON|OFF): NAME -> default
  std::vector<BuildGate> gates;
  std::vector<ConfigureDownload> downloads;
  std::optional<std::string> jmh_module;  // directory of the pom.xml that uses JMH ("" = root)
  std::string jmh_jar = "benchmarks.jar";
};

}  // namespace benchpr::runner::zero_config_detail
