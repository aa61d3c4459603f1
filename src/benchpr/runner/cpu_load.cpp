#include "benchpr/runner/cpu_load.hpp"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <fstream>
#include <sstream>
#include <string>

namespace benchpr::runner {

CpuSample sample_cpu() {
  CpuSample s;
  s.at = std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
  std::ifstream in("/proc/stat");
  std::string line;
  if (!in || !std::getline(in, line) || line.rfind("cpu ", 0) != 0) return s;
  std::istringstream fields(line.substr(4));
  // user nice system idle iowait irq softirq steal: idle and iowait are the only CPU time
  // nobody used; steal (taken by the hypervisor) was not available to the benchmark either.
  double v[8] = {};
  for (double& x : v)
    if (!(fields >> x)) return s;
  const double ticks = static_cast<double>(sysconf(_SC_CLK_TCK));
  if (ticks <= 0) return s;
  s.busy_seconds = (v[0] + v[1] + v[2] + v[5] + v[6] + v[7]) / ticks;
  return s;
}

void record_cpu(RunRecord& rec, double process_cpu_seconds, const CpuSample& before,
                const CpuSample& after) {
  if (process_cpu_seconds <= 0 || rec.seconds <= 0) return;
  rec.cpu_seconds = process_cpu_seconds;
  const double elapsed = after.at - before.at;
  // Too short a run for the kernel's tick-based counters to say anything.
  if (is_missing(before.busy_seconds) || is_missing(after.busy_seconds) || elapsed < 0.05) return;
  const double machine = (after.busy_seconds - before.busy_seconds) / elapsed;
  rec.others_cpus = std::max(0.0, machine - process_cpu_seconds / rec.seconds);
}

}  // namespace benchpr::runner
