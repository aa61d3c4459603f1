// A suite whose programs are the same code and data on both sides needs no timing: its
// benchmarks are listed once (on the base, whose code is trusted) and stand as `unchanged`
// without a round (core/evidence/identical_programs.hpp, docs/identical-programs.md), unless the
// pull request changes a file that a benchmark may read or start when it runs.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include "benchpr/core/evidence/identical_programs.hpp"
#include "benchpr/core/wording/wording.hpp"
#include "benchpr/runner/benchmark_list.hpp"
#include "benchpr/runner/filter_match.hpp"
#include "benchpr/runner/session.hpp"
#include "benchpr/runner/suite_files.hpp"

namespace benchpr::runner {

namespace {

// Why no suite may stand as identical although its programs are, or nullopt when they may: the
// pull request changes a file a benchmark may read at run time, or a source file whose compiled
// form differs in a program the builds left beside the suites' own.
std::optional<std::string> why_identical_programs_are_timed(const SessionSetup& setup) {
  if (!setup.changed_paths) return std::string("the files the pull request changes are not known");
  const ChangedFilesCheck check = check_changed_files(*setup.changed_paths);
  if (check.other)
    return fmt::format("the pull request changes {}, a file a benchmark may read when it runs",
                       *check.other);
  if (!check.compiled_sources) return std::nullopt;
  const auto built = built_programs(setup.base_dir, setup.head_dir);
  if (!built) return std::string("the programs the builds left cannot be told from the sources");
  if (const auto differs = first_different_program(*built))
    return fmt::format(
        "the pull request changes source files, and {}, a program the builds left that a "
        "benchmark may start or load, differs",
        *differs);
  return std::nullopt;
}

}  // namespace

void Session::skip_identical_suites(Results& results) {
  if (setup_.time_identical || !files_) return;
  const Config& c = results.config;
  const std::optional<std::regex> keep = compile_filter(c.filter);
  std::vector<std::string> candidates;
  for (const std::string& name : identical_suites(files_->images())) {
    const SuiteConfig* suite = c.find_suite(name);
    // Only Google Benchmark suites can name their benchmarks without running them. A suite of
    // counts only is counted as before (its programs are recorded only so that the base counted
    // again can be checked): bisect reads a count for every commit.
    if (suite && suite->format == FormatKind::GoogleBenchmark && Config::measures_time(*suite) &&
        !skipped_suites_.count(name))
      candidates.push_back(name);
  }
  if (candidates.empty()) return;
  if (const auto why = why_identical_programs_are_timed(setup_)) {
    progress_(fmt::format("{} {}: {} byte-identical on both sides, but {}: timed as usual",
                          candidates.size() == 1 ? "suite" : "suites", fmt::join(candidates, ", "),
                          candidates.size() == 1 ? "its programs are" : "their programs are",
                          *why));
    return;
  }
  for (const std::string& name : candidates) {
    const SuiteConfig* suite = c.find_suite(name);
    std::vector<std::string> names;
    if (auto open = open_.find(name); open != open_.end()) {
      names = open->second;  // a shard's share, already listed and filtered
    } else {
      exec::ProcessSpec spec;
      spec.cwd = setup_.base_dir;
      spec.timeout_seconds = c.timeout_for(*suite);
      spec.scrub_env = c.scrub_env;
      std::string command = suite->run;
      if (!c.bench_args.empty()) command += " " + c.bench_args;
      const auto listed = list_gbench_benchmarks(processes_, spec, command);
      if (!listed) {
        progress_(fmt::format(
            "suite {}: its programs are byte-identical on both sides, but its benchmarks could "
            "not be listed: it is timed as usual",
            name));
        continue;
      }
      for (const std::string& n : *listed)
        if (filter_matches(keep, n)) names.push_back(n);
    }
    std::erase_if(names, [&](const std::string& n) { return excluded(*suite, n); });
    for (const std::string& n : names)
      series_index_.find_or_add(results, name, n, "",
                                configured_better(*suite, n).value_or(Better::Lower));
    results.identical_suites.push_back(name);
    skipped_suites_.insert(name);
    progress_(fmt::format(
        "suite {}: the benchmark programs are byte-identical on both sides (the code and data "
        "they load): {} unchanged without timing",
        name, plural(names.size(), "benchmark", "benchmarks")));
  }
}

}  // namespace benchpr::runner
