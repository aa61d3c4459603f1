// The statistical reading of a session: per-benchmark crossover fits, diagnostics, multiple-
// testing control, verdicts, suite summaries and the merge recommendation. Pure.
#pragma once

#include "benchpr/core/model.hpp"

namespace benchpr {

struct AnalysisOptions {
  double alpha = 0.05;  // two-sided test level and BH false discovery rate q
  double power = 0.80;  // for the minimal detectable effect
  // "unchanged" needs the (1 - 2 * equivalence_alpha) CI inside +-threshold (two one-sided
  // tests); adaptive looks lower it with alpha so repeated looks do not spend it repeatedly.
  double equivalence_alpha = 0.05;
  // The variance prior as one group of two, with a noisier group beside it
  // (stats::fit_prior_mixture). false: one prior for every benchmark, as before (the method
  // study compares the two).
  bool noisier_group = true;
};

Analysis analyse(const Results& results, const AnalysisOptions& options = {});

}  // namespace benchpr
