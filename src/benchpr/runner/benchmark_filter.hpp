// Google Benchmark's --benchmark_filter, built from exact names: used to leave out benchmarks
// that crash and, with adaptive rounds, to run only the benchmarks still undecided.
#pragma once

#include <string>
#include <vector>

namespace benchpr::runner {

// Escapes regular-expression metacharacters so `name` matches only itself.
std::string regex_escape(const std::string& name);

// " --benchmark_filter='^(a|b)$'" (shell-quoted) selecting exactly `names`.
std::string gbench_filter_argument(const std::vector<std::string>& names);

}  // namespace benchpr::runner
