// The scan of a project's build files for zero-config: its CMake files (Google Benchmark, the
// executables that link it, the option()s and if()s that gate them, the arguments their main()
// insists on) and its pom.xml files (JMH). A best effort on text, linear (no std::regex), bounded
// in depth, files and bytes. The files are found and read by zero_config_files, CMake text is
// read by zero_config_cmake_text, and the gates become build options in zero_config_gates.
#pragma once

#include <string>
#include <string_view>

#include "benchpr/runner/zero_config_project.hpp"

namespace benchpr::runner::zero_config_detail {

// What the project's build files say (nothing recognised: cmake and jmh_module both unset).
Project scan_project(const std::string& project_dir);

// A name or path that can go into YAML and a shell command unquoted.
bool plain_word(std::string_view s);
// A suite name the configuration accepts: letters, digits, '_', '.', '-'.
std::string suite_name(std::string_view raw);
}  // namespace benchpr::runner::zero_config_detail
