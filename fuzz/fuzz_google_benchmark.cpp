// libFuzzer target: the Google Benchmark JSON parser (reads files written by code under test).
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "fuzz_format.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const auto format = benchpr::formats::make_google_benchmark_format("", std::nullopt);
  benchpr::fuzz::check_parse(*format, {reinterpret_cast<const char*>(data), size});
  return 0;
}
