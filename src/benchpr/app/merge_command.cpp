#include <iostream>

#include <fmt/format.h>

#include "benchpr/app/commands.hpp"
#include "benchpr/app/input_files.hpp"
#include "benchpr/app/report_output.hpp"
#include "benchpr/app/user_error.hpp"
#include "benchpr/core/adaptive/session_analysis.hpp"
#include "benchpr/core/results_file/results_json.hpp"
#include "benchpr/core/results_file/shard_merge.hpp"
#include "benchpr/render/escape.hpp"
#include "benchpr/runner/results_store.hpp"

namespace benchpr::app {

namespace {

constexpr std::size_t kListedAtMost = 20;

// Benchmark names come from the code under test: no control characters reach the terminal.
std::string printable(const std::string& s) { return render::terminal_line(s); }

}  // namespace

int merge_command(const MergeOptions& options) {
  check_output_paths({options.output});
  require_existing_files("merge", options.files);
  std::vector<ShardFile> files;
  for (const std::string& path : options.files) {
    try {
      files.push_back({path, results_from_string(runner::read_text_file(path))});
    } catch (const Error& e) {  // named, and of its kind: a bug is no Error and stays internal
      throw e.with_context(path + ": ");
    }
  }
  const MergeOutcome out = merge_shards(std::move(files));  // a MergeError ends with exit 2
  const Results& m = out.merged;
  // The analysis over the whole family is written with the raw data, as `run` writes it.
  const Analysis analysis = analyse_session(m);
  runner::write_file_atomically(options.output, results_to_string(m, &analysis));

  std::size_t measured = 0;
  for (const ShardRecord& s : m.shard->shards) measured += static_cast<std::size_t>(s.benchmarks);
  std::cerr << fmt::format("benchpr: merged {} of {} shards ({} benchmarks measured) into {}\n",
                           m.shard->count - static_cast<int>(out.missing.size()), m.shard->count,
                           measured, options.output);
  for (const std::string& w : out.warnings)
    std::cerr << "benchpr: warning: " << printable(w) << "\n";
  if (out.missing.empty() && out.not_measured.empty()) return kExitOk;
  std::string missing;
  for (int k : out.missing) missing += (missing.empty() ? "" : ", ") + std::to_string(k);
  std::cerr << fmt::format(
      "benchpr: error: partial comparison: {}{} benchmark{} not measured (reported as failed in "
      "{}):\n",
      missing.empty()
          ? ""
          : "shard" + std::string(out.missing.size() == 1 ? " " : "s ") + missing + " missing; ",
      out.not_measured.size(), out.not_measured.size() == 1 ? "" : "s", options.output);
  for (std::size_t i = 0; i < out.not_measured.size() && i < kListedAtMost; ++i)
    std::cerr << "  " << printable(out.not_measured[i]) << "\n";
  if (out.not_measured.size() > kListedAtMost)
    std::cerr << fmt::format("  … and {} more\n", out.not_measured.size() - kListedAtMost);
  std::cerr << std::flush;
  return kExitFailure;
}

}  // namespace benchpr::app
