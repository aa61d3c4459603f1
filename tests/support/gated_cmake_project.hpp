// A small CMake project shaped like spdlog's benchmarks, the first real project benchpr was tried
// on: the benchmarks are a subdirectory added only when an OFF option is on, one program's main()
// refuses any argument, another's wants exactly one (spdlog's formatter-bench). Both link Google
// Benchmark from the system.
#pragma once

#include <string>

#include "support/temp_repo.hpp"

namespace benchpr::testing {

// Writes the project into `repo` (not committed). `work_steps` sizes BM_Work's work, so two
// commits can differ by a known amount.
void write_gated_cmake_project(TempRepo& repo, int work_steps);

}  // namespace benchpr::testing
