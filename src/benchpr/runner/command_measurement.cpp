#include "benchpr/runner/command_measurement.hpp"

#include <algorithm>
#include <vector>

#include <fmt/format.h>

#include "benchpr/formats/format.hpp"

namespace benchpr::runner {

namespace {

constexpr double kNanosecondsPerSecond = 1e9;

struct Metric {
  std::string_view name;
  std::string_view unit;
  double (*value)(const exec::ProcessResult&);
};

constexpr Metric kMetrics[] = {
    {"wall_time", "ns",
     [](const exec::ProcessResult& p) { return p.wall_seconds * kNanosecondsPerSecond; }},
    {"cpu_time", "ns",
     [](const exec::ProcessResult& p) {
       return (p.user_seconds + p.system_seconds) * kNanosecondsPerSecond;
     }},
    {"max_rss", "KiB",
     [](const exec::ProcessResult& p) { return static_cast<double>(p.max_rss_kib); }},
};

const Metric* find_metric(std::string_view name) {
  if (name.empty()) return &kMetrics[0];
  for (const Metric& m : kMetrics)
    if (m.name == name) return &m;
  return nullptr;
}

}  // namespace

ParsedRun measure_command(exec::ProcessRunner& processes, const exec::ProcessSpec& spec,
                          int repetitions, const SuiteConfig& suite, CommandRunInfo* info) {
  CommandRunInfo local;
  CommandRunInfo& out = info ? *info : local;
  out = {};
  ParsedRun parsed;

  const Metric* metric = find_metric(suite.metric);
  if (!metric) {
    out.failure = fmt::format("unknown metric '{}' (a command suite measures {})", suite.metric,
                              kCommandMetrics);
    out.failure_kind = FailureKind::Setup;
    parsed.failures.push_back({suite.name, out.failure, out.failure_kind});
    return parsed;
  }

  // The output is not parsed, so only a tail for failure messages is kept in memory.
  exec::ProcessSpec run_spec = spec;
  run_spec.tail_bytes = std::min(spec.tail_bytes, exec::kRunTailBytes);

  const int runs = std::max(1, repetitions);
  std::vector<double> values;
  for (int i = 0; i < runs; ++i) {
    const exec::ProcessResult p = processes.run(run_spec);
    ++out.runs;
    out.seconds += p.wall_seconds;
    out.cpu_seconds += p.user_seconds + p.system_seconds;
    out.leftover_processes += p.leftover_processes;
    out.output_tail = p.output_tail;
    if (!p.ok()) {
      const std::string why = *p.describe_failure(spec.timeout_seconds);
      out.failure = runs > 1 ? fmt::format("run {} of {}: {}", i + 1, runs, why) : why;
      out.failure_kind = p.failure_kind();
      parsed.failures.push_back({suite.name, out.failure, out.failure_kind});
      return parsed;
    }
    values.push_back(metric->value(p));
  }

  const double value = formats::median(std::move(values));
  if (std::optional<std::string> problem = formats::detail::value_problem(metric->name, value)) {
    parsed.failures.push_back({suite.name, std::move(*problem), FailureKind::ValueOutOfRange});
    return parsed;
  }
  parsed.measurements.push_back(
      {suite.name, std::string(metric->unit), suite.better.value_or(Better::Lower), value});
  return parsed;
}

}  // namespace benchpr::runner
