// One benchmark's analysis written by hand, for render tests about one field, flag or layout.
// Goldens and anything judging the statistics go through the real analysis instead (golden.hpp).
#pragma once

#include <string>
#include <utility>

#include "benchpr/core/model/model.hpp"

namespace benchpr::testing {

// `change` with a 95% CI of change ± 1%, over 6 rounds.
inline BenchmarkAnalysis hand_benchmark(std::string suite, std::string name, Verdict verdict,
                                        double base, double head, double change,
                                        std::string unit = "ns", Better better = Better::Lower) {
  BenchmarkAnalysis b;
  b.suite = std::move(suite);
  b.name = std::move(name);
  b.unit = std::move(unit);
  b.better = better;
  b.verdict = verdict;
  b.base_value = base;
  b.head_value = head;
  b.change = change;
  b.ci_low = change - 0.01;
  b.ci_high = change + 0.01;
  b.rounds_used = 6;
  return b;
}

}  // namespace benchpr::testing
