// Format name (the `format:` key of a suite) -> parser.
#include "benchpr/formats/format.hpp"

namespace benchpr::formats {

std::unique_ptr<Format> make_format(const SuiteConfig& suite) {
  if (suite.format == "google-benchmark") {
    return make_google_benchmark_format(suite.metric, suite.better);
  }
  if (suite.format == "jmh") return make_jmh_format(suite.metric, suite.better);
  if (suite.format == "hyperfine") return make_hyperfine_format(suite.metric, suite.better);
  if (suite.format == "custom") return make_custom_format(suite.better);
  if (suite.format == "command") return make_command_format();
  return nullptr;
}

}  // namespace benchpr::formats
