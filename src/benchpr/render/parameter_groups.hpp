// Benchmarks that differ only by their parameters (Google Benchmark `BM_Copy/64`, `BM_Copy/1024`;
// JMH `Tls.roundTrip:payload=256`) read best as one table with the parameter as a column, the
// way people sweep a payload size by hand. This splits names into base and parameters and finds
// such groups; the view model decides where the tables go.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "benchpr/core/model/model.hpp"

namespace benchpr::render {

struct ParameterizedName {
  std::string base;                 // "BM_Copy", "org.x.TlsBenchmark.roundTrip"
  std::vector<std::string> keys;    // column names: "arg", "arg1", "threads", "payload"
  std::vector<std::string> values;  // one per key: "64", "2", "256"
};

// Splits a benchmark name into base and parameters, or nullopt when it has none:
//  - JMH (as the jmh format names them): "Class.method:key=value:key2=value2";
//  - Google Benchmark: the trailing "/"-separated segments that are integers ("BM_X/64/8": keys
//    arg1, arg2; a single one is "arg") or named integers ("BM_X/threads:2", "BM_X/size:64").
// A name whose parameters are followed by anything else ("BM_X/64/real_time") has none.
std::optional<ParameterizedName> split_parameters(std::string_view name);

struct ParameterGroup {
  std::string suite;
  std::string base;
  std::vector<std::string> keys;
  std::vector<std::size_t> members;  // indexes into the benchmarks, ordered by parameter values
  std::vector<std::vector<std::string>> values;  // per member, in the same order
  std::vector<bool> numeric;                     // per key: every value is a number
};

// Groups of at least two benchmarks of one suite with the same base name and the same parameter
// keys, in the order of their first member. Members are ordered by their values (numerically
// where both are numbers), so a size sweep reads top to bottom.
std::vector<ParameterGroup> find_parameter_groups(const std::vector<BenchmarkAnalysis>& benchmarks);

}  // namespace benchpr::render
