// The entry points of zero-config: the project's build files scanned (zero_config_scan), the
// configuration or .benchpr.yml made of them (zero_config_yaml); the executables a build made
// are found by zero_config_binaries.
#include "benchpr/runner/zero_config.hpp"

#include <fmt/format.h>

#include "benchpr/config/config_parser.hpp"
#include "benchpr/runner/zero_config_gates.hpp"
#include "benchpr/runner/zero_config_scan.hpp"
#include "benchpr/runner/zero_config_yaml.hpp"

namespace benchpr::runner {

using namespace zero_config_detail;

Config zero_config(const std::string& project_dir) {
  const Project project = scan_project(project_dir);
  if (project.cmake && project.uses_benchmark) {
    Config config;
    config.build = cmake_build_command(project);
    return config;
  }
  if (project.jmh_module) {
    throw config::ConfigError(fmt::format(
        "no .benchpr.yml in {}: it is a Maven project with JMH benchmarks, which benchpr runs "
        "once you say how. Commit this .benchpr.yml to the base branch (`benchpr init` writes "
        "it), check the jar path, and run again:\n\n{}",
        project_dir, jmh_yaml(project)));
  }
  throw config::ConfigError(what_to_add(project_dir, project));
}

std::string suggest_config_yaml(const std::string& project_dir) {
  const Project project = scan_project(project_dir);
  if (project.cmake && project.uses_benchmark) return cmake_yaml(project);
  if (project.jmh_module) return jmh_yaml(project);
  throw config::ConfigError(what_to_add(project_dir, project));
}

std::vector<std::string> build_option_notes(const std::string& project_dir) {
  const Project project = scan_project(project_dir);
  if (!project.cmake || !project.uses_benchmark) return {};
  return build_options(project).notes;
}

std::vector<std::string> argument_notes(const std::string& project_dir) {
  const Project project = scan_project(project_dir);
  std::vector<std::string> notes;
  if (!project.cmake || !project.uses_benchmark) return notes;
  for (const BenchTarget& t : project.targets)
    if (!t.needs_arguments.empty())
      notes.push_back(fmt::format(
          "{}'s main() checks `{}`: it needs arguments of its own; its suite in .benchpr.yml says "
          "what to do",
          t.name, t.needs_arguments));
  return notes;
}

}  // namespace benchpr::runner
