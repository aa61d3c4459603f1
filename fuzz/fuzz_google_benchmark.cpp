// libFuzzer target: the Google Benchmark JSON parser reads files written by code under test, so
// any input must end in measurements, per-benchmark failures or a ParseError, never a crash.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "benchpr/formats/format.hpp"
#include "fuzz_check.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const auto format = benchpr::formats::make_google_benchmark_format("", std::nullopt);
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    const benchpr::ParsedRun run = format->parse(text);
    // The contract the runner relies on: every value it stores is a usable measurement.
    for (const auto& m : run.measurements) {
      FUZZ_CHECK(std::isfinite(m.value) && m.value > 0);
      FUZZ_CHECK(!m.name.empty());
    }
    for (const auto& f : run.failures) FUZZ_CHECK(!f.reason.empty());
  } catch (const benchpr::formats::ParseError&) {
    // Rejected with a reason: the expected outcome for broken output.
  }
  return 0;
}
