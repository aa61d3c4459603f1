// The benchmarks a Google Benchmark suite holds, from `--benchmark_list_tests`: what a shard
// splits by benchmark (and what the crash probe runs one by one).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "benchpr/exec/process.hpp"

namespace benchpr::runner {

// The names in a `--benchmark_list_tests` output, in the order listed: one a line, each line's
// trailing spaces and carriage returns dropped, empty lines skipped. A name holding a NUL byte is
// left out: no command line can carry it, so no --benchmark_filter can select it (the filter of a
// group holding it would cut the group's command short). Pure, and the one reader of a listing:
// the output is the code under test's.
std::vector<std::string> parse_benchmark_list(std::string_view output);

// Runs `command --benchmark_list_tests=true` with `spec`'s directory, environment scrubbing and
// timeout; the names in the order listed, or nullopt when the command failed.
std::optional<std::vector<std::string>> list_gbench_benchmarks(exec::ProcessRunner& processes,
                                                               exec::ProcessSpec spec,
                                                               const std::string& command);

}  // namespace benchpr::runner
