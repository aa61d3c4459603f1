#include "benchpr/runner/zero_config_yaml.hpp"

#include <algorithm>
#include <map>
#include <sstream>

#include <fmt/format.h>

#include "benchpr/runner/zero_config_gates.hpp"
#include "benchpr/runner/zero_config_project.hpp"

namespace benchpr::runner::zero_config_detail {

namespace {

constexpr std::string_view kDocsHint = "see benchpr's docs/config.md";

constexpr std::string_view kCommonSettings =
    "# Analysed rounds (after warm-up), each running base and PR in alternating order.\n"
    "rounds: 10\n"
    "warmup_rounds: 1\n"
    "# Smallest change that counts as a regression or improvement.\n"
    "threshold: 2%\n";

std::string option_comments(const Project& project) {
  std::string comments;
  for (const std::string& note : build_options(project).notes) comments += "# " + note + ".\n";
  return comments;
}

}  // namespace

// The Release build, with the options that gate the benchmarks turned on.
std::string cmake_build_command(const Project& project) {
  std::string options;
  for (const std::string& name : build_options(project).on) options += " -D" + name + "=ON";
  return fmt::format(
      "cmake -S . -B {0} -DCMAKE_BUILD_TYPE=Release -DBENCHMARK_ENABLE_TESTING=OFF{1} && "
      "cmake --build {0} -j2",
      kZeroConfigBuildDir, options);
}

std::string cmake_yaml(const Project& project) {
  std::string yaml = fmt::format(
      "# benchpr: compares the benchmarks of a pull request with its base ({}).\n"
      "# Read from the base branch, so a pull request cannot change what is run.\n"
      "\n"
      "# Built once per revision, each in its own worktree, in Release.\n"
      "{}"
      "build: {}\n"
      "build_timeout: 30m\n"
      "\n"
      "# One suite per Google Benchmark executable, run as it is: benchpr passes its flags in\n"
      "# the environment (BENCHMARK_OUT=FILE, BENCHMARK_OUT_FORMAT=json, BENCHMARK_REPETITIONS=3,\n"
      "# BENCHMARK_ENABLE_RANDOM_INTERLEAVING=true and, sized to the time budget,\n"
      "# BENCHMARK_MIN_TIME), which Google Benchmark reads. Add the program's own arguments and\n"
      "# --benchmark_filter=... to `run` as you like (a --benchmark_min_time of your own is\n"
      "# kept, and the rounds are sized around it); `exclude: [\"BM_Nothing*\"]` leaves\n"
      "# benchmarks out.\n"
      "suites:\n",
      kDocsHint, option_comments(project), cmake_build_command(project));
  if (project.targets.empty()) {
    yaml +=
        "  # No executable linking benchmark was found in the CMake files: name yours here.\n"
        "  - name: bench\n";
    yaml += fmt::format("    run: {}/bench/my_bench\n", kZeroConfigBuildDir);
    yaml += "    format: google-benchmark\n";
  } else {
    std::map<std::string, int> seen;
    // A program whose main() wants arguments of its own fails as it is: its suite is written
    // commented out, saying why, unless no other suite would be left.
    const bool all_need_arguments =
        std::all_of(project.targets.begin(), project.targets.end(),
                    [](const BenchTarget& t) { return !t.needs_arguments.empty(); });
    for (const BenchTarget& t : project.targets) {
      std::string name = suite_name(t.name);
      if (seen[name]++ > 0) name += "-" + std::to_string(seen[name]);
      const std::string path = t.dir.empty()
                                   ? fmt::format("{}/{}", kZeroConfigBuildDir, t.name)
                                   : fmt::format("{}/{}/{}", kZeroConfigBuildDir, t.dir, t.name);
      const std::string suite =
          fmt::format("- name: {}\n    run: {}\n    format: google-benchmark\n", name, path);
      if (t.needs_arguments.empty() || all_need_arguments) {
        if (!t.needs_arguments.empty())
          yaml += fmt::format("  # {}'s main() checks `{}`: add the arguments it needs to `run`.\n",
                              t.name, t.needs_arguments);
        yaml += "  " + suite;
        continue;
      }
      yaml += fmt::format(
          "  # {}'s main() checks `{}`: it needs arguments of its own, which benchpr cannot\n"
          "  # guess. Add them to `run` and uncomment:\n",
          t.name, t.needs_arguments);
      std::istringstream lines(suite);
      // Deleting "# " uncomments it: "  # - name: x" and "  #   run: y".
      for (std::string line; std::getline(lines, line);)
        yaml += "  # " + (line.starts_with("  ") ? line.substr(2) : line) + "\n";
    }
  }
  yaml += "\n";
  yaml += kCommonSettings;
  return yaml;
}

std::string jmh_yaml(const Project& project) {
  const std::string& module = *project.jmh_module;
  const std::string build = module.empty()
                                ? std::string("mvn -B -q -DskipTests package")
                                : fmt::format("mvn -B -q -DskipTests -pl {} -am package", module);
  const std::string jar =
      module.empty() ? "target/" + project.jmh_jar : module + "/target/" + project.jmh_jar;
  return fmt::format(
      "# benchpr: compares the benchmarks of a pull request with its base ({}).\n"
      "# Read from the base branch, so a pull request cannot change what is run.\n"
      "\n"
      "# Built once per revision, each in its own worktree.\n"
      "build: {}\n"
      "build_timeout: 30m\n"
      "\n"
      "suites:\n"
      "  # JMH writes its JSON results to {{out}}, which benchpr reads. benchpr repeats the run\n"
      "  # in interleaved rounds, so one fork and a few iterations per run are enough; add a\n"
      "  # benchmark regex after the jar to run a subset.\n"
      "  - name: jmh\n"
      "    run: java -jar {} -f 1 -wi 3 -i 5 -rf json -rff {{out}}\n"
      "    format: jmh\n"
      "    timeout: 30m\n"
      "\n"
      "{}",
      kDocsHint, build, jar, kCommonSettings);
}

std::string what_to_add(const std::string& project_dir, const Project& project) {
  std::string found;
  if (project.cmake) {
    found =
        "it has a CMakeLists.txt, but no CMake file uses Google Benchmark "
        "(find_package(benchmark), benchmark::benchmark)";
  } else {
    found = "it is neither a CMake project using Google Benchmark nor a Maven project with JMH";
  }
  return fmt::format(
      "no .benchpr.yml in {}, and benchpr cannot guess how to run its benchmarks: {}. Add a "
      ".benchpr.yml that says how to build and run them ({}), for example:\n\n"
      "build: make bench\n"
      "suites:\n"
      "  - name: bench\n"
      "    run: ./bench --json {{out}}   # writes github-action-benchmark JSON\n"
      "    format: custom\n",
      project_dir, found, kDocsHint);
}

}  // namespace benchpr::runner::zero_config_detail
