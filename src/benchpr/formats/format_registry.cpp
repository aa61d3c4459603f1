// Format name (the `format:` key of a suite) -> parser.
#include "benchpr/formats/format.hpp"

namespace benchpr::formats {

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

}  // namespace benchpr::formats
