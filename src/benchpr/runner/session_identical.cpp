// A suite whose programs are the same code and data on both sides needs no timing: its
// benchmarks are listed once (on the base, whose code is trusted) and stand as `unchanged`
// without a round (core/identical_programs.hpp, docs/identical-programs.md).
#include <fmt/format.h>

#include "benchpr/core/identical_programs.hpp"
#include "benchpr/core/wording.hpp"
#include "benchpr/runner/benchmark_list.hpp"
#include "benchpr/runner/name_filter.hpp"
#include "benchpr/runner/session.hpp"

namespace benchpr::runner {

void Session::skip_identical_suites(Results& results) {
  if (setup_.time_identical || !files_) return;
  const Config& c = results.config;
  const std::optional<std::regex> keep = compile_filter(c.filter);
  for (const std::string& name : identical_suites(files_->images())) {
    const SuiteConfig* suite = c.find_suite(name);
    // Only Google Benchmark suites can name their benchmarks without running them.
    if (!suite || suite->format != FormatKind::GoogleBenchmark || skipped_suites_.count(name))
      continue;
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
