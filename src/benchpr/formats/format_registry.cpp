// Format name (the `format:` key of a suite) -> parser; a results file's format from its shape.
#include <nlohmann/json.hpp>

#include "benchpr/formats/format.hpp"

namespace benchpr::formats {

bool Format::recognises(const nlohmann::json&) const { return false; }

std::optional<std::vector<BenchmarkProcesses>> Format::split_runs(std::string_view) const {
  return std::nullopt;
}

std::vector<RepetitionSummary> Format::repetition_summaries(std::string_view) const { return {}; }

std::unique_ptr<Format> make_format(const SuiteConfig& suite) {
  switch (suite.format) {
    case FormatKind::GoogleBenchmark:
      return make_google_benchmark_format(suite.metric, suite.better);
    case FormatKind::Jmh:
      return make_jmh_format(suite.metric, suite.better);
    case FormatKind::Hyperfine:
      return make_hyperfine_format(suite.metric, suite.better);
    case FormatKind::Custom:
      return make_custom_format(suite.better);
    case FormatKind::Command:
      return make_command_format();
  }
  throw Error(ErrorCategory::Internal,
              "no parser for format " + std::to_string(static_cast<int>(suite.format)));
}

std::optional<FormatKind> detect_format(std::string_view content) {
  const nlohmann::json document = detail::load_json(content, "benchmark results");
  // An object with both a "benchmarks" and a "results" array reads as Google Benchmark's.
  for (const FormatKind kind :
       {FormatKind::GoogleBenchmark, FormatKind::Hyperfine, FormatKind::Jmh}) {
    SuiteConfig suite;
    suite.format = kind;
    if (make_format(suite)->recognises(document)) return kind;
  }
  return std::nullopt;
}

}  // namespace benchpr::formats
