// One parser per benchmark output format. Pure: they read text and return measurements, so each
// is tested on real captured output without running anything.
#pragma once

#include <array>
#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "benchpr/core/base/error.hpp"
#include "benchpr/core/base/text.hpp"  // shell_quote, for extra_arguments
#include "benchpr/core/base/valid_utf8.hpp"
#include "benchpr/core/model/model.hpp"
#include "benchpr/core/stats/stats.hpp"

namespace benchpr::formats {

// The whole output is unusable (not JSON, truncated, wrong shape). Per-benchmark problems are
// reported in ParsedRun::failures instead.
class ParseError : public Error {
 public:
  // The message may quote bytes of the file (the JSON parser's "last read: '…'"), which the
  // code under test wrote: made valid UTF-8 here, so every reason benchpr prints or stores is
  // text.
  explicit ParseError(const std::string& what) : Error(ErrorCategory::Input, valid_utf8(what)) {}
};

class Format;

// The parser of the suite's format (core/model/format_kind.hpp names them all). The suite supplies
// options such as `metric` and `better`.
std::unique_ptr<Format> make_format(const SuiteConfig& suite);

// The parsers behind make_format, for callers that know the format statically (and for tests).
// `metric` selects the compared value ("" = the format's default); `better`, when set, replaces
// the direction the format would infer.
std::unique_ptr<Format> make_google_benchmark_format(std::string metric,
                                                     std::optional<Better> better);
std::unique_ptr<Format> make_jmh_format(std::string metric, std::optional<Better> better);
std::unique_ptr<Format> make_hyperfine_format(std::string metric, std::optional<Better> better);
std::unique_ptr<Format> make_custom_format(std::optional<Better> better);
// `command`: measured by benchpr, not parsed (see Format::measures_process).
std::unique_ptr<Format> make_command_format();

// Input limits that keep a hostile or runaway results file from exhausting memory or stack.
inline constexpr std::size_t kMaxInputBytes = 64u * 1024 * 1024;
inline constexpr std::size_t kMaxBenchmarks = 100000;
inline constexpr int kMaxJsonDepth = 64;

// Small pieces shared by the parsers; public because they are useful to test on their own.
// Median of the values (mean of the middle two for an even count); NaN for an empty list.
using stats::median;
// Median where each value counts `weight` times (JMH sample-mode histograms); NaN if empty.
double weighted_median(std::vector<std::pair<double, double>> value_weight);

namespace detail {

// Parses a results file as JSON, enforcing the input limits, accepting the bare NaN / Infinity
// tokens Google Benchmark writes for non-finite counters (they become the strings "NaN",
// "Infinity", "-Infinity"). Throws ParseError("not <format_title> JSON: <problem> at byte N").
nlohmann::json load_json(std::string_view content, std::string_view format_title);

// A JSON number, or one of the strings "NaN", "Infinity", "-Infinity" (how JMH and the
// rewritten Google Benchmark tokens spell non-finite values); nullopt for anything else.
std::optional<double> json_number(const nlohmann::json& value);

// Why `value` is not a usable measurement (finite and > 0), naming the field: "real_time is
// NaN", "real_time is 0", "real_time is negative (-3)"; nothing when it is usable.
std::optional<std::string> value_problem(std::string_view field, double value);

// A value read from a results file, or why it cannot be compared (then `value` is meaningless).
struct Reading {
  double value = 0;
  std::optional<std::string> problem;
};
// `value`, with the problem value_problem finds in it.
inline Reading checked_reading(std::string_view field, double value) {
  return {value, value_problem(field, value)};
}
inline Reading unusable(std::string problem) { return {0, std::move(problem)}; }

// The direction after the suite's override.
inline Better resolve_better(Better inferred, std::optional<Better> configured) {
  return configured.value_or(inferred);
}

}  // namespace detail

// What a results file says of the processes behind its values, for reading files as runs
// (`benchpr compare`, docs/compare.md).

// One benchmark's processes, each a run of its own, in the order they ran: `runs[k]` is the k-th
// process's value, or why it has none (its exit code, a value that is no time). hyperfine starts
// a command afresh for each time it keeps. The name is kept once, however many times it ran.
struct BenchmarkProcesses {
  std::string name;  // hyperfine: "command" (it writes --command-name there)
  std::string unit;
  std::vector<detail::Reading> runs;
};

// How a file made one benchmark's value from its repetitions in the one process that wrote it:
// "10 repetitions", "1 repetition", "only the median aggregate". Files compared must summarise
// a benchmark alike, or the comparison measures the summaries.
struct RepetitionSummary {
  std::string name;
  std::string how;
};

class Format {
 public:
  virtual ~Format() = default;
  virtual FormatKind kind() const = 0;
  // Arguments benchpr appends to the suite's command so the tool writes machine-readable
  // results to `out_path` (e.g. --benchmark_out=...); "" when the suite's command must carry
  // the {out} placeholder itself or the tool's stdout is parsed.
  virtual std::string extra_arguments(const std::string& out_path, int repetitions) const = 0;
  // Parses one run's results file.
  virtual ParsedRun parse(std::string_view content) const = 0;
  // True when there is nothing to parse because benchpr measures the suite's process itself
  // (the `command` format: wall time, CPU time, peak memory). The runner then runs the command
  // through runner::measure_command instead of reading an output; parse() throws ParseError.
  virtual bool measures_process() const { return false; }

  // Whether a JSON document has this format's shape, to tell result files apart
  // (detect_format); false for a format that is not read from JSON.
  virtual bool recognises(const nlohmann::json& document) const;
  // A file that keeps each of its processes' values, split into one run per process, benchmark
  // by benchmark; nullopt when the file is one process's run (read it with parse()). Throws
  // ParseError where parse() would.
  virtual std::optional<std::vector<BenchmarkProcesses>> split_runs(std::string_view content) const;
  // How the file summarised each benchmark's repetitions, in the file's order; empty for a
  // format whose file has no repetitions to summarise. Throws ParseError where parse() would,
  // and for a name two benchmarks share (their repetitions are not one benchmark's).
  virtual std::vector<RepetitionSummary> repetition_summaries(std::string_view content) const;
};

// The format among those recognised from their JSON's shape (Google Benchmark, hyperfine, JMH,
// asked in that order) whose shape `content` has; nullopt for none. Throws ParseError("not
// benchmark results JSON: …") when it is no JSON within the input limits.
std::optional<FormatKind> detect_format(std::string_view content);

}  // namespace benchpr::formats
