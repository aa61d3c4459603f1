// The entries of a Google Benchmark results file, as far as benchpr reads them, streamed rather
// than built as a JSON tree: 100,000 benchmarks are 26 MB per side and run, and a node per value
// made the parse most of benchpr's own time per round.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace benchpr::formats::detail {

// A field that should hold a number. Kept small: a file holds hundreds of thousands.
struct GbNumber {
  // A JSON number, or one of the strings "NaN", "-NaN", "Infinity", "+Infinity", "-Infinity".
  double value = 0;
  bool present = false;
  bool is_number = false;  // `value` holds it
  // The JSON type when present ("number", "string", "object", ...): a static string.
  const char* type = "";
};

// One element of "benchmarks". String fields are "" when absent or not a string.
struct GbEntry {
  std::string_view not_object;  // the element's JSON type when it is not an object
  std::string name;
  std::string run_name;
  std::string run_type;
  std::string aggregate_name;
  std::string error_message;
  std::optional<std::string> time_unit;  // when it is a string
  bool error_occurred = false;           // when it is the boolean true
  std::optional<long long> threads;      // when it is an integer
  // Which registered benchmark and which of its repetitions the entry is (when integers): two
  // entries of one name that differ in family, or share a repetition, are two benchmarks.
  std::optional<long long> family_index;
  std::optional<long long> per_family_instance_index;
  std::optional<long long> repetition_index;
  GbNumber real_time;
  GbNumber cpu_time;
  GbNumber metric;  // the field named by the suite's metric, unless that is one of the two times
  // Keys that are neither bookkeeping nor the two times: the counters a suite could compare.
  std::vector<std::string> counters;
};

struct GbDocument {
  std::string_view type;              // the top-level JSON type
  bool has_benchmarks_array = false;  // a top-level "benchmarks" whose value is an array
  std::vector<GbEntry> entries;
};

// Entries beyond this are refused: a file of tiny entries would otherwise cost memory out of
// proportion to its size. 2,000,000 covers 200,000 benchmarks (the most a results file holds)
// with 5 repetitions and their 4 aggregates; at the limit the entries take about 0.7 GB, which
// a hostile 6 MB file of `{},{},…` can make benchpr allocate, but no more.
inline constexpr std::size_t kMaxGbEntries = 2'000'000;

// Reads `content` with sax_json's checks and messages (`title` names the format in them).
// `metric_field` is the extra numeric field to keep ("" for none). Duplicate keys: the last wins,
// as in a JSON tree.
GbDocument read_gb_document(std::string_view content, std::string_view title,
                            std::string_view metric_field, std::size_t max_entries = kMaxGbEntries);

// Why the iteration entries of one name (one group of a results file) are not the repetitions of
// one benchmark: "2 results for repetition 0", "from 2 registered benchmarks (family_index 0 and
// 3)"; nothing when they are. Two benchmarks registered under one name write entries no reader
// can tell apart: summarised together, the faster one's time would stand for both.
// `aggregates` are the group's aggregate entries: the same aggregate (a second "median") twice
// is two benchmarks too, in a file written with --benchmark_report_aggregates_only.
std::optional<std::string> gb_duplicate_problem(const std::vector<const GbEntry*>& iterations,
                                                const std::vector<const GbEntry*>& aggregates = {});

// The sentence for such a problem, naming the benchmark and what to do.
std::string gb_duplicate_reason(std::string_view problem);

// Fields of a benchmark entry that are bookkeeping, not something a user could compare.
bool is_gb_bookkeeping_field(std::string_view key);

}  // namespace benchpr::formats::detail
