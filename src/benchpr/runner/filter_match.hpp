// --filter against benchmark names. The names come from the code under test, so they are
// unbounded; libstdc++'s std::regex matches by recursion, up to a stack frame per character for
// patterns such as 'BM_.*x', and a 200,000-character name overflowed the stack (SIGSEGV). Every
// place a benchmark name meets the filter goes through filter_matches(), which never hands the
// regex a name longer than kMaxFilteredNameBytes.
#pragma once

#include <cstddef>
#include <optional>
#include <regex>
#include <string>
#include <string_view>

namespace benchpr::runner {

// Longer names never match a filter (so --filter leaves them out); far below what overflows the
// default 8 MiB stack, far above any real benchmark's name.
inline constexpr std::size_t kMaxFilteredNameBytes = 4096;

// The configured filter compiled once ("" = no filter: nothing), ECMAScript syntax as Google
// Benchmark's --benchmark_filter. The pattern's own size is checked where it is read.
std::optional<std::regex> compile_filter(const std::string& pattern);

// Whether `name` is kept: always without a filter; never when it is longer than
// kMaxFilteredNameBytes; else whether the filter finds a match in it.
bool filter_matches(const std::optional<std::regex>& filter, std::string_view name);

}  // namespace benchpr::runner
