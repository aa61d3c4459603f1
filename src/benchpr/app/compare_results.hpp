// `benchpr compare`: the Results of two sets of existing result files (Google Benchmark, JMH or
// hyperfine JSON), read by the same formats/ readers and stored the same way as a session's
// runs, so the analysis, the comment and the results file are the ones `run` makes. Pairing:
// the base's runs and the PR's runs in the order given, file by file and, in a Google Benchmark
// file with repetitions, repetition by repetition; run i of each side is round i.
#pragma once

#include <string>
#include <vector>

#include "benchpr/core/model.hpp"

namespace benchpr::app {

struct ResultFile {
  std::string path;     // as the user named it (for messages and the comment)
  std::string content;  // the file's text
};

// "google-benchmark", "jmh" or "hyperfine" from the shape of the JSON; throws UserError naming
// the file and --input-format when it is none of them.
std::string detect_result_format(const ResultFile& file);

// The runs one file holds, as texts its format's reader takes: a Google Benchmark file with
// several repetitions (`repetition_index`) gives one run per repetition (its iteration entries;
// the aggregates are summaries of them), a hyperfine file compared on time (`metric` "" or
// "time") one run per entry of its commands' `times` (the k-th run of each command), any other
// file one run. Throws UserError naming the file when it is not JSON.
std::vector<std::string> runs_of(const ResultFile& file, const std::string& format,
                                 const std::string& metric = "");

struct CompareInput {
  std::vector<ResultFile> base;
  std::vector<ResultFile> head;
  std::string format = "auto";  // or a name of formats::kFormatNames that reads files
  std::string metric;           // as a suite's `metric:` ("" = the format's default)
  double threshold = 0.02;
};

// Results of origin ResultFiles: one suite named after the format, a round per pair of runs, no
// warm-up, no commits. Per-benchmark problems of a run (an error, a NaN) become failures as in
// a session; a file that cannot be read as its format is a UserError naming it.
Results results_from_files(const CompareInput& input);

}  // namespace benchpr::app
