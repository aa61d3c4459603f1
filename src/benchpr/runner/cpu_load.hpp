// How busy the machine was while a benchmark process ran: the CPU time the whole machine spent
// (from /proc/stat) against the process's own, so the comment can say when neighbours took the
// CPU. Linux only; elsewhere the figures are unknown (kMissing) and nothing is claimed.
#pragma once

#include "benchpr/core/model/model.hpp"

namespace benchpr::runner {

struct CpuSample {
  double busy_seconds = kMissing;  // CPU time spent by every CPU outside idle and iowait
  double at = 0;                   // steady-clock seconds when sampled
};

CpuSample sample_cpu();

// Fills rec.cpu_seconds (the process's CPU time, when it is known: > 0) and rec.others_cpus
// (CPUs the rest of the machine kept busy between the two samples).
void record_cpu(RunRecord& rec, double process_cpu_seconds, const CpuSample& before,
                const CpuSample& after);

}  // namespace benchpr::runner
