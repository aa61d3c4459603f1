// libFuzzer target: the JMH JSON parser (`-rf json`), for the primary metric and a secondary
// one (the two code paths that pick the score), on files written by code under test.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "fuzz_format.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const auto primary = benchpr::formats::make_jmh_format("", std::nullopt);
  static const auto secondary = benchpr::formats::make_jmh_format("·gc.alloc.rate", std::nullopt);
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  benchpr::fuzz::check_parse(*primary, text);
  benchpr::fuzz::check_parse(*secondary, text);
  return 0;
}
