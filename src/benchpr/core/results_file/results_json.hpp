// Results <-> JSON (docs/results-format.md). The reader treats its input as untrusted: it
// validates types and bounds sizes, and throws ResultsFormatError naming the offending field.
#pragma once

#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "benchpr/core/base/error.hpp"
#include "benchpr/core/model/model.hpp"

namespace benchpr {

class ResultsFormatError : public Error {
 public:
  explicit ResultsFormatError(const std::string& message) : Error(ErrorCategory::Input, message) {}
};

// The full document: the raw results plus, when given, the analysis (benchmarks with verdicts
// and the recommendation) so that other tools can read benchpr's conclusions directly.
std::string results_to_string(const Results& results, const Analysis* analysis = nullptr);
// The same text into `out`, replacing its content and keeping its capacity: a session rewrites
// the file after every round, and at 100,000 benchmarks a fresh buffer would be 47 MB of memory
// to allocate and fault in again each time.
void write_results(std::string& out, const Results& results, const Analysis* analysis = nullptr);

// The configuration as the file records it (merge compares the shards' configurations with it).
nlohmann::json config_to_json(const Config& config);

// Reads the raw results back (the analysis part is ignored: it is recomputed).
Results results_from_json(const nlohmann::json& doc);
Results results_from_string(std::string_view text);

namespace detail {
// results_from_string without its size check and syntax wording, for tests: JsonSyntaxError for
// text that is not JSON, else ResultsFormatError naming the field. Nothing is built of the series
// or of unread fields; read fields are parsed with at most 32 levels and 4,000,000 values.
Results scan_results(std::string_view text);
}  // namespace detail

}  // namespace benchpr
