// Small statistical building blocks, kept separate from the verdict logic so each is checked
// against hand-computed values.
#pragma once

#include <vector>

namespace benchpr::stats {

double median(std::vector<double> values);      // NaN for an empty input
double mad(const std::vector<double>& values);  // median absolute deviation (unscaled)

// Student t quantile and two-sided p-value (Boost.Math). df >= 1.
double t_quantile(double probability, double df);
double t_two_sided_p(double t, double df);

// Least-squares fit of the crossover model d_r = mu + gamma * s_r + e_r, where s_r = +1 when the
// PR ran second in round r and -1 when it ran first. mu is the PR's effect freed of the position
// effect gamma; with balanced orders mu is the plain mean. When every round has the same order,
// gamma cannot be separated and the fit falls back to the mean (df = n - 1).
struct CrossoverFit {
  int n = 0;
  int df = 0;  // residual degrees of freedom; 0 means "cannot be judged"
  double mu = 0;
  double gamma = 0;
  bool has_gamma = false;
  double residual_sd = 0;
  double se_mu = 0;
  double se_gamma = 0;

  bool usable() const { return df >= 1; }
  double t_mu() const;
  double p_mu() const;     // two-sided
  double p_gamma() const;  // two-sided; 1 when !has_gamma
  // Two-sided confidence interval of mu at `level` (e.g. 0.95).
  double ci_half_width(double level) const;
  // Minimal |mu| detected with `power` by a two-sided test at `alpha`.
  double mde(double alpha, double power) const;
};

CrossoverFit fit_crossover(const std::vector<double>& d, const std::vector<int>& s);

// Benjamini-Hochberg adjusted p-values (same order as the input). NaN entries stay NaN and do
// not count towards m.
std::vector<double> benjamini_hochberg(const std::vector<double>& p);

// Smallest even number of rounds n (>= 4, <= max_rounds) whose MDE, for a residual SD `sd` and
// balanced orders, is at most `margin` (log units); 0 when even max_rounds do not suffice.
int rounds_needed(double sd, double margin, double alpha, double power, int max_rounds = 1000);

}  // namespace benchpr::stats
