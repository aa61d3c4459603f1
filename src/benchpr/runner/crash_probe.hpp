// When a Google Benchmark suite crashes, find out which benchmarks crash it: list the suite's
// benchmarks, then run each alone. The rest of the suite can then be run without them, so one
// crashing benchmark does not take the whole comparison down with it.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "benchpr/exec/process.hpp"

namespace benchpr::runner {

struct CrashProbe {
  bool listed = false;                     // --benchmark_list_tests worked
  std::vector<std::string> names;          // every benchmark of the suite (of `only`)
  std::vector<BenchmarkFailure> crashers;  // name, failure and its kind
  std::size_t unprobed = 0;                // benchmarks left unprobed when the probe's time ran out
};

// `spec` carries the working directory, environment scrubbing and per-run timeout; its command
// is replaced. `suite_run` is the suite's own command line (without benchpr's output flags).
// At most `max_probes` benchmarks are run alone (a crash in a huge suite is then reported for
// the whole suite rather than spending hours finding it), and the whole probe takes at most
// spec.timeout_seconds: each run alone gets what is left of it.
// With `only` (a shard's share, or the benchmarks still open), only those of the listed ones are
// probed and named.
CrashProbe probe_crashing_benchmarks(exec::ProcessRunner& processes, exec::ProcessSpec spec,
                                     const std::string& suite_run, std::size_t max_probes = 200,
                                     const std::vector<std::string>* only = nullptr);

}  // namespace benchpr::runner
