// The benchmark output formats benchpr reads: a closed set, named by a suite's `format:` in
// .benchpr.yml and in the results file. Each has its parser in formats/ (make_format); what the
// pure layers need to know of a format without its parser is said here, once.
#pragma once

#include <optional>
#include <string_view>

#include "benchpr/core/base/name_table.hpp"

namespace benchpr {

enum class FormatKind {
  GoogleBenchmark,  // --benchmark_out JSON; benchpr also lists, filters and sizes its benchmarks
  Jmh,              // JMH's -rf json
  Hyperfine,        // hyperfine's --export-json
  Command,          // no output read: benchpr measures the suite's process itself
  Custom,           // github-action-benchmark's custom JSON
};

inline constexpr NameTable<FormatKind, 5> kFormatKinds{{{
    {FormatKind::GoogleBenchmark, "google-benchmark"},
    {FormatKind::Jmh, "jmh"},
    {FormatKind::Hyperfine, "hyperfine"},
    {FormatKind::Command, "command"},
    {FormatKind::Custom, "custom"},
}}};

constexpr std::string_view to_string(FormatKind format) { return kFormatKinds.name(format); }
constexpr std::optional<FormatKind> format_kind_from_string(std::string_view name) {
  return kFormatKinds.parse(name);
}

// Whether a suite of `format` with its `metric:` ("" = the format's default) compares wall-clock
// time, which a busy machine lengthens. Google Benchmark's series say so themselves (their
// metric is cpu_time or real_time), so only the other formats' defaults are known here.
constexpr bool compares_wall_time(FormatKind format, std::string_view metric) {
  switch (format) {
    case FormatKind::Command:
      return metric.empty() || metric == "wall_time";
    case FormatKind::Hyperfine:
      return metric != "user" && metric != "system";
    case FormatKind::Jmh:
      return true;
    case FormatKind::GoogleBenchmark:
    case FormatKind::Custom:
      return false;
  }
  return false;
}

}  // namespace benchpr
