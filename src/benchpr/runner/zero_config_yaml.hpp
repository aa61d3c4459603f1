// The text zero-config writes from a scanned project: the build line, the commented
// .benchpr.yml of `benchpr init` (CMake + Google Benchmark, Maven + JMH), and the message saying
// what to add when the project is neither.
#pragma once

#include <string>
#include <string_view>

#include "benchpr/runner/zero_config_scan.hpp"

namespace benchpr::runner::zero_config_detail {

// The Release build into kZeroConfigBuildDir, with the options that gate the benchmarks turned on.
std::string cmake_build_command(const Project& project);
// A commented .benchpr.yml: the build and one suite per benchmark target (commented out, saying
// why, for a main() that needs arguments of its own).
std::string cmake_yaml(const Project& project);
// A commented .benchpr.yml for the project's JMH module (project.jmh_module set).
std::string jmh_yaml(const Project& project);
// The message for a project zero-config does not recognise, with a .benchpr.yml to start from.
std::string what_to_add(const std::string& project_dir, const Project& project);

}  // namespace benchpr::runner::zero_config_detail
