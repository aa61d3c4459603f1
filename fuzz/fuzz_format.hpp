// The contract every benchmark-output parser keeps on any input, for the format fuzz targets:
// the file is read by benchpr but written by the code under test, so any bytes must end in
// measurements, per-benchmark failures or a ParseError, never a crash.
#pragma once

#include <cmath>
#include <string_view>

#include "benchpr/formats/format.hpp"
#include "fuzz_check.hpp"

namespace benchpr::fuzz {

inline void check_parse(const formats::Format& format, std::string_view text) {
  try {
    const ParsedRun run = format.parse(text);
    // What the runner stores must be a usable measurement of a named benchmark.
    for (const auto& m : run.measurements) {
      FUZZ_CHECK(std::isfinite(m.value) && m.value > 0);
      FUZZ_CHECK(!m.name.empty());
    }
    for (const auto& f : run.failures) FUZZ_CHECK(!f.reason.empty());
  } catch (const formats::ParseError& e) {
    // Rejected with a reason: the expected outcome for broken output.
    FUZZ_CHECK(*e.what() != '\0');
  }
}

}  // namespace benchpr::fuzz
