// Runs the real benchpr binary as a child process and captures stdout, stderr and the exit
// code separately, so integration tests check exactly what a user or CI would see.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace benchpr::testing {

struct BenchprRun {
  int exit_code = -1;
  std::string out;  // stdout: the markdown
  std::string err;  // stderr: progress and errors
};

// `args` are passed as separate argv entries; `env` entries are added to the environment.
// `run` counts instructions by default wherever Valgrind is installed, as it is here: a test of
// `run` gets --no-instructions unless its arguments say --instructions or --no-instructions
// (a suite's own `instructions: true` or `metric: instructions` still counts), so that only the
// tests about counting pay for it. run_benchpr_as_given passes the arguments unchanged.
BenchprRun run_benchpr(const std::string& binary, const std::vector<std::string>& args,
                       const std::vector<std::pair<std::string, std::string>>& env = {},
                       const std::string& cwd = "");
// The arguments run_benchpr passes: --no-instructions added after `run` unless they say.
std::vector<std::string> time_only_unless_said(const std::vector<std::string>& args);
BenchprRun run_benchpr_as_given(const std::string& binary, const std::vector<std::string>& args,
                                const std::vector<std::pair<std::string, std::string>>& env = {},
                                const std::string& cwd = "");

}  // namespace benchpr::testing
