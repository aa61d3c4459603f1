// libFuzzer target: a suite's `--benchmark_list_tests` output (parse_benchmark_list), printed by
// the code under test, and the filter benchpr builds from the names it lists to run exactly
// those (the shard's share, the crash probe's one benchmark, the counts' groups). Any output must
// end in names, each a non-empty line without its trailing spaces or a NUL byte; the filter of a
// few short names, read as Google Benchmark reads it (std::regex, extended, searched), selects each
// of them and no other listed name; the groups of the filter hold every name once, in order.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <regex>
#include <string>
#include <string_view>
#include <vector>

#include "benchpr/runner/benchmark_list.hpp"
#include "benchpr/runner/gbench_filter_argument.hpp"
#include "fuzz_check.hpp"

namespace {

// The regular expression of gbench_filter_argument(names), out of its shell quotes.
std::string filter_regex(const std::vector<std::string>& names) {
  const std::string argument = benchpr::runner::gbench_filter_argument(names);
  const std::string_view prefix = " --benchmark_filter=";
  FUZZ_CHECK(argument.rfind(prefix, 0) == 0);
  std::string quoted = argument.substr(prefix.size()), out;
  // shell_quote: '...' with each ' written as '\''.
  FUZZ_CHECK(quoted.size() >= 2 && quoted.front() == '\'' && quoted.back() == '\'');
  quoted = quoted.substr(1, quoted.size() - 2);
  for (std::size_t i = 0; i < quoted.size(); ++i) {
    if (quoted.compare(i, 4, "'\\''") == 0) {
      out += '\'';
      i += 3;
    } else {
      out += quoted[i];
    }
  }
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const std::vector<std::string> names = benchpr::runner::parse_benchmark_list(text);
  for (const std::string& n : names) {
    FUZZ_CHECK(!n.empty());
    FUZZ_CHECK(n.find('\n') == std::string::npos);
    FUZZ_CHECK(n.back() != ' ' && n.back() != '\r');
    FUZZ_CHECK(n.find('\0') == std::string::npos);  // no command line could select it
  }

  // Small groups, small names: std::regex's matcher recurses per character.
  std::vector<std::string> some;
  for (const std::string& n : names)
    if (n.size() <= 64 && some.size() < 6) some.push_back(n);
  if (!some.empty()) {
    std::regex filter;
    try {
      filter = std::regex(filter_regex(some), std::regex::extended);
    } catch (const std::regex_error& e) {
      std::fprintf(stderr, "the filter does not compile: %s\n", e.what());
      std::abort();
    }
    for (const std::string& n : names) {
      if (n.size() > 64) continue;
      const bool wanted = std::find(some.begin(), some.end(), n) != some.end();
      FUZZ_CHECK(std::regex_search(n, filter) == wanted);
    }
  }

  const auto groups = benchpr::runner::filter_groups(names, 4096);
  std::vector<std::string> again;
  for (const auto& g : groups) again.insert(again.end(), g.begin(), g.end());
  FUZZ_CHECK(again == names);
  return 0;
}
