// The option()s and if()s of a project's CMake files that decide whether its benchmarks are
// built, and what zero-config turns on for them (-DNAME=ON), with a note for a person saying what
// and why, or what it could not tell.
#pragma once

#include <string>
#include <vector>

#include "benchpr/runner/zero_config_project.hpp"

namespace benchpr::runner::zero_config_detail {

// option()s, and if() guards around benchmark directories and executables, of one CMake file
// (`dir` relative to the project, "" at the root).
void scan_cmake_gates(const std::string& text, const std::string& dir, Project& project);

struct BuildOptions {
  std::vector<std::string> on;     // -DNAME=ON for each
  std::vector<std::string> notes;  // for a person: what was turned on, what could not be
};

// What the build must turn on for the benchmarks to be built, and the notes saying so.
BuildOptions build_options(const Project& project);

}  // namespace benchpr::runner::zero_config_detail
