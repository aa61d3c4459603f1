// The statistical reading of a session: per-benchmark crossover fits, diagnostics, multiple-
// testing control, verdicts, suite summaries and the merge recommendation. Pure.
#pragma once

#include "benchpr/core/mode_fit.hpp"
#include "benchpr/core/model.hpp"
#include "benchpr/core/robust_fit.hpp"

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
  // With a noisier group shown, a benchmark that group explains is read on its variance
  // (stats::noisier_plausible), not on the mixture's weight alone. Off: it meets the uneven-
  // noise targets of the method study (table 10) but cut power at +2% under a noise spread
  // from 75% to 67%, and its `inconclusive` changes of +2% met a plain merge in the headline
  // (docs/method.md, "Uneven noise"); the study reads it through this option.
  bool noisier_guard = false;
  // The estimator of each benchmark's effect from its rounds when its runs show no modes
  // (stats::fit_crossover_robust).
  // Least squares: in the method study (docs/method.md, table 11) Huber's M-estimator cost
  // power under plain noise at every length tried, settled fewer bimodal benchmarks, and
  // without its multimodal fallback followed modes into false alarms; the study reads the
  // candidates through this option.
  stats::RobustOptions estimator;
  // Runs that fall into two clearly separated modes (on both sides pooled) are compared within
  // their modes, with the shares of runs in each mode tested on their own
  // (stats::fit_crossover_modes); without modes the estimator above reads the rounds.
  bool mode_aware = true;
  stats::ModeOptions modes;
};

Analysis analyse(const Results& results, const AnalysisOptions& options = {});

}  // namespace benchpr
