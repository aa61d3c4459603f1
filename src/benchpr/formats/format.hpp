// One parser per benchmark output format. Pure: they read text and return measurements, so each
// is tested on real captured output without running anything.
#pragma once

#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "benchpr/core/model.hpp"

namespace benchpr::formats {

// The whole output is unusable (not JSON, truncated, wrong shape). Per-benchmark problems are
// reported in ParsedRun::failures instead.
class ParseError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class Format {
 public:
  virtual ~Format() = default;
  virtual std::string_view name() const = 0;
  // Arguments benchpr appends to the suite's command so the tool writes machine-readable
  // results to `out_path` (e.g. --benchmark_out=...); "" when the suite's command must carry
  // the {out} placeholder itself or the tool's stdout is parsed.
  virtual std::string extra_arguments(const std::string& out_path, int repetitions) const = 0;
  // Parses one run's results file.
  virtual ParsedRun parse(std::string_view content) const = 0;
};

// nullptr if unknown. The suite supplies options such as `metric` and `better`.
std::unique_ptr<Format> make_format(const SuiteConfig& suite);
// For error messages: "google-benchmark".
std::vector<std::string> known_formats();

}  // namespace benchpr::formats
