// The statistical reading of a session: per-benchmark crossover fits, diagnostics, multiple-
// testing control, verdicts, suite summaries and the merge recommendation. Pure.
#pragma once

#include "benchpr/core/model.hpp"

namespace benchpr {

struct AnalysisOptions {
  double alpha = 0.05;  // two-sided test level and BH false discovery rate q
  double power = 0.80;  // for the minimal detectable effect
};

Analysis analyse(const Results& results, const AnalysisOptions& options = {});

}  // namespace benchpr
