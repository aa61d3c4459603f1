#include "benchpr/app/compare_results.hpp"

#include <algorithm>
#include <optional>
#include <string_view>
#include <unordered_map>
#include <unordered_set>

#include <fmt/format.h>

#include "benchpr/app/user_error.hpp"
#include "benchpr/core/results_file/results_json_schema.hpp"
#include "benchpr/formats/format.hpp"
#include "benchpr/runner/series_index.hpp"

namespace benchpr::app {

namespace {

constexpr FormatKind kReadable[] = {FormatKind::GoogleBenchmark, FormatKind::Jmh,
                                    FormatKind::Hyperfine};

std::string names_of(const std::vector<ResultFile>& files) {
  std::string out;
  for (const ResultFile& f : files) out += (out.empty() ? "" : ", ") + f.path;
  return out;
}

}  // namespace

std::string detect_result_format(const ResultFile& file) {
  std::optional<FormatKind> kind;
  try {
    kind = formats::detect_format(file.content);
  } catch (const Error& e) {
    throw UserError(file.path + ": " + e.what());
  }
  if (kind) return std::string(to_string(*kind));
  throw UserError(file.path +
                  ": neither Google Benchmark JSON (--benchmark_out_format=json), JMH JSON (-rf "
                  "json) nor hyperfine JSON (--export-json); name its format with "
                  "--input-format google-benchmark|jmh|hyperfine");
}

namespace {

// How a file made a benchmark's value: from N repetitions, or from one aggregate
// (--benchmark_report_aggregates_only). Both sides' processes must be summarised alike, or the
// comparison measures the summaries: the mean of 10 repetitions spreads less from process to
// process than the mean of 3, the least time kept beside it falls with their number, and a
// median aggregate is another statistic than the reader's.
struct Summary {
  std::string how;          // "10 repetitions", "only the median aggregate"
  const std::string* path;  // the first file that summarised it so
};

// The summary of each benchmark of one file (the format's repetition_summaries), checked
// against those of the files before it (`seen`); throws UserError naming the benchmark, both
// files and the difference, and for a name two benchmarks share in one file.
void check_summaries(const formats::Format& reader, const ResultFile& file,
                     std::unordered_map<std::string, Summary>& seen) {
  std::vector<formats::RepetitionSummary> summaries;
  try {
    summaries = reader.repetition_summaries(file.content);
  } catch (const Error& e) {
    throw UserError(file.path + ": " + e.what());
  }
  for (formats::RepetitionSummary& s : summaries) {
    auto [it, inserted] = seen.try_emplace(s.name, Summary{s.how, &file.path});
    if (inserted || it->second.how == s.how) continue;
    throw UserError(fmt::format(
        "{}: {} in {} but {} in {}: each file is one process, and its value a summary of its "
        "repetitions, which differs with their number and kind; compare files written with the "
        "same --benchmark_repetitions (and --benchmark_report_aggregates_only on both sides or "
        "neither)",
        s.name, it->second.how, *it->second.path, s.how, file.path));
  }
}

// A run of one file read by the format's reader: its own round.
ParsedRun parse_file(const formats::Format& reader, const ResultFile& file, Side side) {
  ParsedRun parsed;
  try {
    parsed = reader.parse(file.content);
  } catch (const formats::ParseError& e) {
    throw UserError(fmt::format("{} (the {} side): {}", file.path,
                                side == Side::Base ? "base" : "PR", e.what()));
  }
  if (const auto twice = runner::duplicate_names(parsed); !twice.empty())
    throw UserError(file.path + ": " + runner::duplicate_reason(twice.front()));
  return parsed;
}

void set_at(std::vector<double>& values, std::size_t round, double v) {
  if (values.size() <= round) values.resize(round + 1, kMissing);
  values[round] = v;
}

// A file that keeps each process's value (hyperfine compared on time: each of a command's runs
// is a process of its own): run k of the file is round `first + k`. Each benchmark's series is
// found once, and its values stored straight into it (no run is built as text or as a
// ParsedRun: a 1 MB command name run 2,000 times is read in one pass). Returns the number of
// rounds the file filled, or nullopt when the format reads the file as one run.
std::optional<std::size_t> record_processes(Results& r, runner::SeriesIndex& index,
                                            const formats::Format& reader, const SuiteConfig& suite,
                                            const ResultFile& file, Side side, std::size_t first) {
  std::optional<std::vector<formats::BenchmarkProcesses>> benchmarks;
  try {
    benchmarks = reader.split_runs(file.content);
  } catch (const formats::ParseError& e) {
    throw UserError(fmt::format("{} (the {} side): {}", file.path,
                                side == Side::Base ? "base" : "PR", e.what()));
  }
  if (!benchmarks) return std::nullopt;
  std::size_t runs = 0;
  std::unordered_set<std::string_view> names;
  for (const formats::BenchmarkProcesses& b : *benchmarks) {
    runs = std::max(runs, b.runs.size());
    if (!names.insert(b.name).second)
      throw UserError(file.path + ": " + runner::duplicate_reason(b.name));
  }
  for (const formats::BenchmarkProcesses& b : *benchmarks) {
    const Better better = rule_better(suite, b.name).value_or(Better::Lower);
    BenchmarkSeries& s = index.find_or_add(r, suite.name, b.name, b.unit, better);
    std::vector<double>& values = side == Side::Base ? s.base : s.head;
    for (std::size_t k = 0; k < b.runs.size(); ++k) {
      const formats::detail::Reading& run = b.runs[k];
      if (!run.problem) {
        set_at(values, first + k, run.value);
        continue;
      }
      (side == Side::Base ? s.base_failure : s.head_failure) =
          fmt::format("{} (run {} of {})", *run.problem, k + 1, file.path);
      (side == Side::Base ? s.base_failure_kind : s.head_failure_kind) =
          FailureKind::BenchmarkError;
    }
  }
  return runs;
}

// The name of the files' format: --input-format's, or the one every file's shape has. Throws
// UserError for a format that reads no files, or files of two tools.
std::string input_format(const CompareInput& input) {
  if (input.format) {
    std::string format(to_string(*input.format));
    if (std::find(std::begin(kReadable), std::end(kReadable), *input.format) == std::end(kReadable))
      throw UserError("--input-format: expected google-benchmark, jmh or hyperfine, got '" +
                      format + "'");
    return format;
  }
  const std::string format = detect_result_format(input.base.front());
  for (const auto* side : {&input.base, &input.head})
    for (const ResultFile& f : *side)
      if (const std::string other = detect_result_format(f); other != format)
        throw UserError(fmt::format("{} is {} JSON but {} is {}: compare results of one tool",
                                    f.path, other, input.base.front().path, format));
  return format;
}

}  // namespace

Results results_from_files(const CompareInput& input) {
  if (input.base.empty() || input.head.empty())
    throw UserError(
        "compare needs result files of both sides: BASE.json HEAD.json, or --base "
        "FILE... --head FILE...");
  const std::string format = input_format(input);

  Results r;
  r.tool_version = BENCHPR_VERSION;
  r.origin = Origin::ResultFiles;
  r.base.spec = names_of(input.base);
  r.head.spec = names_of(input.head);
  SuiteConfig suite;
  suite.name = format;
  suite.format = *format_kind_from_string(format);  // a name of kReadable, checked above
  suite.metric = input.metric;
  const std::unique_ptr<formats::Format> reader = formats::make_format(suite);
  if (!reader) throw UserError("--input-format: no reader for " + format);
  r.config.build = "";
  r.config.suites = {suite};
  r.config.threshold = input.threshold;
  r.config.warmup_rounds = 0;

  // One file is one process, one round: its value is the reader's summary of its
  // repetitions, as `run` reads a round. hyperfine's file is the exception: it keeps every
  // process's time, so each is a round of its own.
  runner::SeriesIndex index;
  std::unordered_map<std::string, Summary> summaries;
  const auto read = [&](const std::vector<ResultFile>& files, Side side) {
    std::size_t round = 0;
    for (const ResultFile& f : files) {
      if (const auto runs = record_processes(r, index, *reader, suite, f, side, round)) {
        round += *runs;
        continue;
      }
      check_summaries(*reader, f, summaries);
      runner::record_run(r, index, suite, side, static_cast<int>(round),
                         parse_file(*reader, f, side));
      ++round;
    }
    return round;
  };
  const std::size_t base_runs = read(input.base, Side::Base);
  const std::size_t head_runs = read(input.head, Side::Head);
  const std::size_t rounds = std::max(base_runs, head_runs);
  if (rounds > results_schema::kMaxRounds) {
    throw UserError(fmt::format(
        "{} side's files hold {} runs, more than the {} rounds one comparison holds (its "
        "results file could not be read back); compare fewer runs",
        base_runs == head_runs  ? "each"
        : base_runs > head_runs ? "the base"
                                : "the PR",
        rounds, results_schema::kMaxRounds));
  }
  r.config.rounds = static_cast<int>(rounds);
  // One order for every round: the files do not say which side ran first (or whether the runs
  // were interleaved at all), so no position effect is fitted against a made-up order.
  for (std::size_t i = 0; i < rounds; ++i)
    r.plan.push_back({static_cast<int>(i), false, Side::Base});

  // Every series as long as the plan, as a session leaves them.
  for (BenchmarkSeries& s : r.series) {
    for (auto* v : {&s.base, &s.head}) v->resize(rounds, kMissing);
    for (auto* v : {&s.base_real, &s.head_real, &s.base_cpu, &s.head_cpu})
      if (!v->empty()) v->resize(rounds, kMissing);
  }
  r.rounds_done = static_cast<int>(rounds);
  r.complete = true;
  r.stop = {
      StopKind::ReadFromFiles, 0,
      fmt::format("{} base and {} PR run{}", base_runs, head_runs, head_runs == 1 ? "" : "s")};
  return r;
}

}  // namespace benchpr::app
