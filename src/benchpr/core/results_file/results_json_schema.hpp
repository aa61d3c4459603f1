// What a results file holds, described once for its writer and its two readers (the DOM reader
// of results_json_reader.cpp and the text scanner of results_json_scan.cpp): the schema version,
// the bounds an untrusted file is held to, the top-level fields the readers read, and a series'
// fields with the checks that need all of them. docs/results-format.md is the reference.
#pragma once

#include <array>
#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "benchpr/core/model/model.hpp"

namespace benchpr::results_schema {

constexpr int kSchemaVersion = 2;  // what the writer writes; the readers take 1 and 2

// Bounds for untrusted files: generous for real sessions, small enough to keep publish cheap.
constexpr std::size_t kMaxBytes = 256u << 20;
constexpr std::size_t kMaxSeries = 200000;
constexpr std::size_t kMaxRounds = 10000;
constexpr std::size_t kMaxString = 1u << 16;
// A profile as stored keeps the functions above a small fraction of the count (runner/profiles).
constexpr std::size_t kMaxProfileFunctions = 5000;
// Hot functions of one benchmark (core/model/hot_code.hpp): those holding 90% of its instructions.
constexpr std::size_t kMaxHotFunctions = 1000;
constexpr std::size_t kMaxProfileCalls = 20000;

// The top-level fields read before the series (read_header), the series' own key, and those read
// after it (read_trailer). Everything else (the analysis, fields of a newer version, anything a
// hostile file adds) is passed over unread.
constexpr std::array<std::string_view, 13> kHeaderFields = {"schema_version",
                                                            "tool",
                                                            "origin",
                                                            "base",
                                                            "head",
                                                            "config",
                                                            "machine",
                                                            "pull_request",
                                                            "config_changed_by_head",
                                                            "seed",
                                                            "plan",
                                                            "builds",
                                                            "runs"};
constexpr std::string_view kSeriesField = "series";
constexpr std::array<std::string_view, 20> kTrailerFields = {"rounds_done",
                                                             "complete",
                                                             "stop_reason",
                                                             "stop",
                                                             "measuring_seconds",
                                                             "overhead_seconds",
                                                             "counting_seconds",
                                                             "counting_share_seconds",
                                                             "workflow_run_url",
                                                             "shard",
                                                             "partition",
                                                             "time_plan",
                                                             "bisect",
                                                             "looks",
                                                             "profiles",
                                                             "executables",
                                                             "identical_suites",
                                                             "placement_shifts",
                                                             "hot_code",
                                                             "resumed_rounds"};
// Digests of the suites' programs and their worktree libraries (runner/suite_files: at most 256
// libraries per program), per suite and side.
constexpr std::size_t kMaxExecutables = 20000;
// The placement control's code offsets (runner/placement_variants.hpp): a few, each below a page.
constexpr std::size_t kMaxPlacementShifts = 8;
constexpr long long kMaxPlacementShift = 4096;

// Whether the readers read the top-level field `key` into the DOM of everything but the series.
bool read_outside_the_series(std::string_view key);

// Throws ResultsFormatError "results file: <where>: <what>".
[[noreturn]] void fail(const std::string& where, const std::string& what);

// A series' fields as a reader found them (nullopt: absent or null), before the checks that need
// all of them. Each reader parses a field's value by its kind, found by its key here.
struct SeriesFields {
  // {"base":[...],"head":[...]}: the time that was not compared.
  struct Times {
    std::vector<double> base, head;
  };

  std::optional<std::string> suite, name, unit, better, metric;
  std::optional<std::string> base_failure, head_failure, base_failure_kind, head_failure_kind;
  std::optional<std::vector<double>> base, head;
  Times real_time, cpu_time, least;
  // {"D1mr":{"base":[...],"head":[...]},...}: Callgrind's cache events per iteration of an
  // instruction count (BenchmarkSeries::base_events), those of known_event only.
  std::map<std::string, Times> events;

  // The slot of the field `key` of each kind; nullptr when `key` is not a field of that kind.
  std::optional<std::string>* text(std::string_view key);
  std::optional<std::vector<double>>* values(std::string_view key);
  Times* times(std::string_view key);
  std::map<std::string, Times>* event_times(std::string_view key);
};

// A measured value as read: a missing value, or not a positive finite number, is kMissing.
double series_value(double x);
// An event's count per iteration as read: any finite number (a difference of two runs may be 0
// or a little below); kMissing otherwise.
double event_value(double x);
// The Callgrind events a series may hold (the cache and branch simulations'); others are passed
// over unread, so a file cannot grow a series without bound.
bool known_event(std::string_view name);

// The series the fields describe, after the checks of required fields and closed sets (`where`
// names the series in messages: "series[3]").
BenchmarkSeries finish_series(SeriesFields&& fields, const std::string& where);

}  // namespace benchpr::results_schema
