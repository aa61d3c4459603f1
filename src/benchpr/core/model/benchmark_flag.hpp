// What the analysis marks a benchmark with, beside its verdict: a closed set, named in the
// results file's `flags` array and read by the renderers.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "benchpr/core/base/name_table.hpp"

namespace benchpr {

enum class BenchmarkFlag {
  ColdRound,  // its first analysed round was left out as cold (core/analysis)
  Order,      // the change follows the run order, not the revision (core/analysis)
  Waiting,    // wall time moved while CPU time did not (core/measurement_notes)
  WallTime,   // compared on wall time: its CPU time missed work (core/measurement_notes)
};

inline constexpr NameTable<BenchmarkFlag, 4> kBenchmarkFlags{{{
    {BenchmarkFlag::ColdRound, "cold-round"},
    {BenchmarkFlag::Order, "order"},
    {BenchmarkFlag::Waiting, "waiting"},
    {BenchmarkFlag::WallTime, "wall-time"},
}}};

constexpr std::string_view to_string(BenchmarkFlag flag) { return kBenchmarkFlags.name(flag); }
// The flags as the results file's `flags` array holds them: their names, in order.
inline std::vector<std::string> flag_names(const std::vector<BenchmarkFlag>& flags) {
  std::vector<std::string> names;
  names.reserve(flags.size());
  for (const BenchmarkFlag flag : flags) names.emplace_back(to_string(flag));
  return names;
}

}  // namespace benchpr
