#include "benchpr/runner/benchmark_list.hpp"

#include <algorithm>

namespace benchpr::runner {

std::vector<std::string> parse_benchmark_list(std::string_view output) {
  std::vector<std::string> names;
  while (!output.empty()) {
    const std::size_t end = std::min(output.find('\n'), output.size());
    std::string_view line = output.substr(0, end);
    output.remove_prefix(std::min(end + 1, output.size()));
    while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.remove_suffix(1);
    if (!line.empty() && line.find('\0') == std::string_view::npos) names.emplace_back(line);
  }
  return names;
}

std::optional<std::vector<std::string>> list_gbench_benchmarks(exec::ProcessRunner& processes,
                                                               exec::ProcessSpec spec,
                                                               const std::string& command) {
  spec.log_path.clear();
  spec.tail_bytes = exec::kListingBytes;
  spec.command = command + " --benchmark_list_tests=true";
  const exec::ProcessResult list = processes.run(spec);
  if (!list.ok()) return std::nullopt;
  return parse_benchmark_list(list.output_tail);
}

}  // namespace benchpr::runner
