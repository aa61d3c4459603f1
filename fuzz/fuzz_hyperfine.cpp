// libFuzzer target: the hyperfine `--export-json` parser, for the default metric (median of
// the times) and a summary field, on files written by code under test.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "fuzz_format.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const auto median = benchpr::formats::make_hyperfine_format("", std::nullopt);
  static const auto mean = benchpr::formats::make_hyperfine_format("mean", std::nullopt);
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  benchpr::fuzz::check_parse(*median, text);
  benchpr::fuzz::check_parse(*mean, text);
  return 0;
}
