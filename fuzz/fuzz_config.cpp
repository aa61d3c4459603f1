// libFuzzer target: the .benchpr.yml parser. A configuration is written by the repository's
// maintainers, but any text must end in a Config or a ConfigError naming the file, never a crash
// or an exception of the YAML library escaping.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "benchpr/config/config_parser.hpp"
#include "fuzz_check.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    const benchpr::Config c = benchpr::config::parse_config(text);
    FUZZ_CHECK(c.rounds >= 1);
    FUZZ_CHECK(c.warmup_rounds >= 0);
    FUZZ_CHECK(c.threshold > 0 && c.threshold < 1);
    FUZZ_CHECK(std::isfinite(c.timeout_seconds) && c.timeout_seconds >= 0);
    for (const auto& s : c.suites) {
      FUZZ_CHECK(!s.name.empty());
      if (s.timeout_seconds) FUZZ_CHECK(std::isfinite(*s.timeout_seconds));
    }
  } catch (const benchpr::config::ConfigError& e) {
    FUZZ_CHECK(std::string_view(e.what()).rfind(".benchpr.yml:", 0) == 0);
  }
  // The value parsers see the same bytes as one scalar.
  if (auto d = benchpr::config::parse_duration(text)) FUZZ_CHECK(std::isfinite(*d) && *d >= 0);
  if (auto p = benchpr::config::parse_percentage(text)) FUZZ_CHECK(std::isfinite(*p));
  return 0;
}
