// The contract every benchmark-output parser keeps on any input, for the format fuzz targets:
// the file is read by benchpr but written by the code under test, so any bytes must end in
// measurements, per-benchmark failures or a ParseError, never a crash.
#pragma once

#include <cmath>
#include <string_view>

#include "benchpr/core/base/valid_utf8.hpp"
#include "benchpr/formats/format.hpp"
#include "fuzz_check.hpp"

namespace benchpr::fuzz {

inline void check_parse(const formats::Format& format, std::string_view text) {
  try {
    const ParsedRun run = format.parse(text);
    // What the runner stores must be a usable measurement of a named benchmark.
    // Every string made valid UTF-8 where it enters benchpr (the results file and the comment
    // are JSON and markdown: an ill-formed byte once made serialising throw).
    for (const auto& m : run.measurements) {
      FUZZ_CHECK(std::isfinite(m.value) && m.value > 0);
      FUZZ_CHECK(!m.name.empty());
      FUZZ_CHECK(is_valid_utf8(m.name) && is_valid_utf8(m.unit) && is_valid_utf8(m.metric));
    }
    for (const auto& f : run.failures) {
      FUZZ_CHECK(!f.reason.empty());
      FUZZ_CHECK(is_valid_utf8(f.name) && is_valid_utf8(f.reason));
    }
  } catch (const formats::ParseError& e) {
    // Rejected with a reason: the expected outcome for broken output.
    FUZZ_CHECK(*e.what() != '\0');
    FUZZ_CHECK(is_valid_utf8(e.what()));
  }
}

}  // namespace benchpr::fuzz
