// Google Benchmark's --benchmark_filter, built from exact names: used to leave out benchmarks
// that crash and, with adaptive rounds, to run only the benchmarks still undecided.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace benchpr::runner {

// Escapes regular-expression metacharacters so `name` matches only itself.
std::string regex_escape(const std::string& name);

// " --benchmark_filter='^(a|b)$'" (shell-quoted) selecting exactly `names`.
std::string gbench_filter_argument(const std::vector<std::string>& names);

// The kernel refuses to start a command any of whose arguments (here the whole `sh -c` command)
// is 128 KiB or longer (MAX_ARG_STRLEN). A filter stays below this, which leaves room for the
// suite's own command and options.
inline constexpr std::size_t kMaxFilterBytes = 96 * 1024;

// `names` in consecutive groups, each of whose gbench_filter_argument() is at most `max_bytes`
// (a name too long for that on its own is a group of its own): one run per group selects every
// name exactly once. No names: one group of none (a run without a filter).
std::vector<std::vector<std::string>> filter_groups(const std::vector<std::string>& names,
                                                    std::size_t max_bytes = kMaxFilterBytes);

}  // namespace benchpr::runner
