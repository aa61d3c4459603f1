// libFuzzer target: the reader of Callgrind's output format, whose files hold names from the
// code under test. Any bytes must end in a profile or a problem, never a crash, and a profile's
// counts are usable: finite, not negative, inclusive at least self.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "benchpr/core/base/valid_utf8.hpp"
#include "benchpr/formats/callgrind_profile.hpp"
#include "fuzz_check.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const benchpr::formats::CallgrindProfileReading r =
      benchpr::formats::read_callgrind_profile(text);
  if (r.problem) {
    FUZZ_CHECK(benchpr::is_valid_utf8(*r.problem));
    return 0;
  }
  for (const auto& f : r.profile.functions) {
    FUZZ_CHECK(std::isfinite(f.self) && f.self >= 0);
    FUZZ_CHECK(std::isfinite(f.inclusive) && f.inclusive >= f.self);
    FUZZ_CHECK(benchpr::is_valid_utf8(f.name));
  }
  for (const auto& c : r.profile.calls) FUZZ_CHECK(std::isfinite(c.inclusive) && c.inclusive >= 0);
  return 0;
}
