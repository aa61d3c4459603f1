// The command line and environment of one run: the suite's `run` with benchpr's output, filter
// and timing flags. Pure string work, kept apart from the session loop so it can be unit tested.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "benchpr/core/model/model.hpp"
#include "benchpr/formats/format.hpp"

namespace benchpr::runner {

// What benchpr asks of one run besides the suite's own command.
struct RunFlags {
  int repetitions = 1;
  std::string bench_args;          // --bench-args, appended to the command as given
  std::string filter;              // --filter (a regular expression), Google Benchmark suites only
  std::vector<std::string> only;   // exactly these benchmarks (wins over `filter`)
  std::optional<double> min_time;  // --benchmark_min_time sized by the time plan
};

struct RunCommand {
  std::string command;
  // BENCHMARK_* variables for Google Benchmark, which reads each of its flags from the variable
  // of the flag's name in upper case when the command line does not give it.
  std::vector<std::pair<std::string, std::string>> env;
  bool reads_file = true;  // false: the tool's stdout is parsed
};

// `{out}` in the suite's command is replaced by the quoted out path (the command is the user's own
// argument list; a filter is still appended). Otherwise a Google Benchmark suite gets benchpr's
// flags as BENCHMARK_* environment variables, so a program whose main() checks its arguments runs
// as it is; a flag that the suite's `run` or `bench_args` gives itself goes on the command line
// after it instead, where it wins as it always did. Other formats get their extra arguments
// appended; a format with neither reads stdout.
RunCommand make_run_command(const SuiteConfig& suite, const formats::Format& format,
                            const std::string& out_path, const RunFlags& flags);

}  // namespace benchpr::runner
