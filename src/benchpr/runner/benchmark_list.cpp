#include "benchpr/runner/benchmark_list.hpp"

#include <sstream>

namespace benchpr::runner {

std::optional<std::vector<std::string>> list_gbench_benchmarks(exec::ProcessRunner& processes,
                                                               exec::ProcessSpec spec,
                                                               const std::string& command) {
  spec.log_path.clear();
  spec.tail_bytes = exec::kListingBytes;
  spec.command = command + " --benchmark_list_tests=true";
  const exec::ProcessResult list = processes.run(spec);
  if (!list.ok()) return std::nullopt;
  std::vector<std::string> names;
  std::istringstream lines(list.output_tail);
  for (std::string line; std::getline(lines, line);) {
    while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.pop_back();
    if (!line.empty()) names.push_back(line);
  }
  return names;
}

}  // namespace benchpr::runner
