#include "benchpr/runner/crash_probe.hpp"

#include <set>

#include "benchpr/runner/benchmark_list.hpp"
#include "benchpr/runner/gbench_filter_argument.hpp"

namespace benchpr::runner {

CrashProbe probe_crashing_benchmarks(exec::ProcessRunner& processes, exec::ProcessSpec spec,
                                     const std::string& suite_run, std::size_t max_probes,
                                     const std::vector<std::string>* only) {
  CrashProbe probe;
  spec.log_path.clear();
  spec.tail_bytes = exec::kListingBytes;
  spec.command = suite_run + " --benchmark_list_tests=true";
  const exec::ProcessResult list = processes.run(spec);
  if (!list.ok()) return probe;
  probe.names = parse_benchmark_list(list.output_tail);
  if (only) {
    const std::set<std::string> keep(only->begin(), only->end());
    std::erase_if(probe.names, [&keep](const std::string& n) { return keep.count(n) == 0; });
  }
  probe.listed = !probe.names.empty();
  if (!probe.listed || probe.names.size() > max_probes) return probe;
  spec.tail_bytes = exec::kMessageTailBytes;
  // The whole probe, listing included, costs at most one suite timeout: a suite of slow
  // benchmarks must not turn one crash into hours of probing.
  const double budget = spec.timeout_seconds;
  double spent = list.wall_seconds;
  for (std::size_t i = 0; i < probe.names.size(); ++i) {
    const std::string& name = probe.names[i];
    if (exec::interrupt_requested()) break;
    if (budget > 0) {
      if (spent >= budget) {
        probe.unprobed = probe.names.size() - i;
        break;
      }
      spec.timeout_seconds = budget - spent;
    }
    spec.command = suite_run + gbench_filter_argument({name}) + " --benchmark_repetitions=1";
    const exec::ProcessResult one = processes.run(spec);
    spent += one.wall_seconds;
    // A timeout is not a crash: the suite's timeout already reports it.
    if (!one.ok() && !one.timed_out && !one.interrupted)
      probe.crashers.push_back(
          {name, *one.describe_failure(spec.timeout_seconds), one.failure_kind()});
  }
  return probe;
}

}  // namespace benchpr::runner
