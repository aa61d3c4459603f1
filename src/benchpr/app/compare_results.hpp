// `benchpr compare`: the Results of two sets of existing result files (Google Benchmark, JMH or
// hyperfine JSON), read by the same formats/ readers and stored the same way as a session's
// runs, so the analysis, the comment and the results file are the ones `run` makes. A run is one
// process, as in a session's round: a Google Benchmark or JMH file is one run (its value the
// reader's summary of its repetitions or iterations), a hyperfine file compared on time one run
// per process it timed (hyperfine starts the command afresh for each time it keeps). Pairing:
// the base's runs and the PR's runs in the order given; run i of each side is round i.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "benchpr/core/model/model.hpp"

namespace benchpr::app {

struct ResultFile {
  std::string path;     // as the user named it (for messages and the comment)
  std::string content;  // the file's text
};

// "google-benchmark", "jmh" or "hyperfine" from the shape of the JSON; throws UserError naming
// the file and --input-format when it is none of them.
std::string detect_result_format(const ResultFile& file);

struct CompareInput {
  std::vector<ResultFile> base;
  std::vector<ResultFile> head;
  std::optional<FormatKind> format;  // a format that reads files; none: from the files' shape
  std::string metric;                // as a suite's `metric:` ("" = the format's default)
  double threshold = 0.02;
};

// Results of origin ResultFiles: one suite named after the format, a round per pair of runs, no
// warm-up, no commits. Per-benchmark problems of a run (an error, a NaN) become failures as in
// a session. UserError naming the file: a file that cannot be read as its format, a name two
// benchmarks share in one file, and Google Benchmark files that summarise a benchmark
// differently (10 repetitions against 3, the median aggregate against repetitions). Linear in
// the files' size, in time and memory.
Results results_from_files(const CompareInput& input);

}  // namespace benchpr::app
