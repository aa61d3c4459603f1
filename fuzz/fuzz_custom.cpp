// libFuzzer target: the `custom` format parser (a JSON array of {name, unit, value}), whose
// file the code under test writes entirely by itself.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "fuzz_format.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const auto format = benchpr::formats::make_custom_format(std::nullopt);
  benchpr::fuzz::check_parse(*format, {reinterpret_cast<const char*>(data), size});
  return 0;
}
