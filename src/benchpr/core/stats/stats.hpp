// Small statistical building blocks, kept separate from the verdict logic so each is checked
// against hand-computed values.
#pragma once

#include <vector>

namespace benchpr::stats {

double median(std::vector<double> values);  // NaN for an empty input

// Quantiles are taken no farther out than this from 0 or 1 (a smaller tail rounds to 0 or 1).
inline constexpr double kFarthestTail = 1e-15;

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
  // Degrees of freedom added by a variance prior (moderate()); tests use df + prior_df.
  double prior_df = 0;
  // How far the prior applies to this benchmark (prior_weights()): 1 = the moderated reading
  // alone; below 1 every p value and interval is the mixture of the moderated reading (this
  // weight) and the benchmark's own variance on its own df (the rest), so a benchmark that may
  // belong to a noisier group is not shrunk into false significance.
  double prior_weight = 1;
  // The other reading: the variance moderated by the noisier group's prior, on its df.
  double noisier_sd = 0;
  double noisier_df = 0;
  double mu = 0;
  double gamma = 0;
  bool has_gamma = false;
  double residual_sd = 0;
  double se_mu = 0;
  double se_gamma = 0;
  double own_sd = 0;  // residual_sd before any moderation
  // Standard errors per unit of residual SD (fixed by the design): se = residual_sd * unit.
  double se_mu_unit = 0;
  double se_gamma_unit = 0;

  bool usable() const { return df >= 1; }
  double total_df() const { return df + prior_df; }
  bool mixed() const { return prior_df > 0 && prior_weight < 1; }
  double noisier_se_mu() const { return noisier_sd * se_mu_unit; }
  // The reading that weighs most, for the sizes stated from one SE and df: the MDE and the
  // rounds needed.
  double main_sd() const { return mixed() && prior_weight < 0.5 ? noisier_sd : residual_sd; }
  double main_prior_df() const {
    return mixed() && prior_weight < 0.5 ? noisier_df - df : prior_df;
  }
  double t_mu() const;
  double p_mu() const;     // two-sided
  double p_gamma() const;  // two-sided; 1 when !has_gamma
  // Two-sided confidence interval of mu at `level` (e.g. 0.95).
  double ci_half_width(double level) const;
  // Minimal |mu| detected with `power` by a two-sided test at `alpha`.
  double mde(double alpha, double power) const;
  // One-sided p of "|mu| <= margin" against "|mu| > margin" (the estimate's side): small when
  // the effect is shown to be larger than `margin` (log units).
  double p_beyond(double margin) const;
};

CrossoverFit fit_crossover(const std::vector<double>& d, const std::vector<int>& s);

// The fit of rounds from which `cost` more parameters were taken out before it (the placement
// control's placement means, core/stats/paired_rounds.hpp centre_placements): the same residuals
// over fewer degrees of freedom, so a larger residual SD and standard errors; unusable (df 0) when
// none are left. Before any moderation.
CrossoverFit with_df_cost(CrossoverFit fit, int cost);

// Empirical-Bayes prior for the residual variances of the benchmarks of one run, as in limma's
// moderated t (Smyth 2004): 1/sigma^2 ~ chi^2(df) / (df * variance), so a benchmark's own
// variance s^2 on d degrees of freedom satisfies s^2 / variance ~ F(d, df). Each benchmark's
// variance is then shrunk to (df * variance + d * s^2) / (df + d) with df + d degrees of
// freedom: noise shared by the run's benchmarks lends its strength to each of them.
struct VariancePrior {
  double df = 0;        // d0; 0 = no prior, every benchmark on its own
  double variance = 0;  // s0^2
  // A benchmark whose own variance lies above the (1 - outlier_p) quantile of F(d, df) * s0^2
  // is not from this prior (much noisier than the run's others): it keeps its own variance.
  double outlier_p = 0.01;
};

// Robust fit: the median and interquartile range of ln s^2 over the benchmarks with a positive
// variance are matched to those of ln(s0^2 F(d, d0)), d the median of `dfs`. A few much noisier
// benchmarks move the quartiles little, so they neither inflate s0^2 nor shrink d0 much (and
// moderate() leaves them on their own). d0 is capped at d * (m - 1), the degrees of freedom the
// m benchmarks hold, and at 1000; with fewer than `min_benchmarks` variances there is no prior.
// `moment_step` false: the robust first step alone (the start of fit_prior_mixture).
VariancePrior fit_variance_prior(const std::vector<double>& variances, const std::vector<int>& dfs,
                                 int min_benchmarks = 8, bool moment_step = true);

// The fit with its variance replaced by the posterior one (residual_sd, se_mu, se_gamma and
// prior_df updated); unchanged when there is no prior, the fit is unusable, or its own variance
// is an outlier of the prior.
// With `weight` below 1 the fit keeps the reading moderated by `noisier` beside the moderated
// one (prior_weight); at a weight near 0 only that reading.
CrossoverFit moderate(const CrossoverFit& fit, const VariancePrior& prior, double weight = 1,
                      const VariancePrior& noisier = {});

// The prior refitted as one group of a two-group model, and per benchmark the probability that
// its variance comes from that group rather than from a noisier one (EM: the prior's
// F(d, d0) * s0^2, or a variance 1 to 100 times s0^2, log-uniform; the prior's s0^2 and d0 are
// refitted by limma's moment estimate weighted by those probabilities). One distribution of
// variances for all benchmarks lets a subgroup twice as noisy as the rest widen the prior
// (small d0) until it seems to belong, and shrinks it to the run's variance, which makes its p
// values too small; prior_outlier() alone catches only the far ones (Phipson et al. 2016 answer
// the same problem with per-gene prior weights). Without a prior (`start.df` 0) the weights are
// all 1 and the prior stays as it was.
struct PriorMixture {
  VariancePrior prior;
  VariancePrior noisier;        // the noisier group's prior (df 0: none)
  std::vector<double> weights;  // one per input variance; 1 where it has none
  // The family shows a noisier group: the benchmarks the model gives to it add up to at least
  // kNoisierGroupShown of them (2% of a large family) and at most a fifth of the family. Under
  // equal noise the sum stays near 0.1-0.3, so the guard below does not fire there; with the
  // noise SDs spread log-uniformly over 0.5-2% it is about a third: variances spread, not a
  // noisier minority, where the prior is weak (d0 near 30) and the guard cost a quarter of
  // the power at +2% (method study, table 6).
  bool noisier_shown = false;
};
PriorMixture fit_prior_mixture(const std::vector<double>& variances, const std::vector<int>& dfs,
                               const VariancePrior& start);
constexpr double kNoisierGroupShown = 2;
constexpr double kNoisierGroupAtMost = 0.2;
// Whether the noisier group's variance explains a benchmark's own variance s^2 on d degrees of
// freedom at `level`: the lower tail P(chi^2(d) / d <= s^2 / s1^2) is at least `level`, so the
// data do not rule out that the benchmark belongs to the noisier group. The two-group mixture's
// weight is the Bayesian probability; a member of a noisier group whose rounds happened to
// agree gets a high one and is read at the quiet variance (half its standard error for a 2x
// noisier group), which held the noisy benchmarks' 95% intervals at 90-91% coverage. A
// benchmark the noisier group explains is not read by the weight (analyse() reads it on its own
// variance and df, AnalysisOptions::noisier_guard): a member is then read too optimistically
// only with probability `level`, whatever the mixture's weights (the Berger-Boos idea: the
// nuisance parameter, here the group, is not assumed but only ruled out at a small level).
bool noisier_plausible(const CrossoverFit& fit, const VariancePrior& noisier, double level);
constexpr double kNoisierPlausibleLevel = 0.02;
bool prior_outlier(const CrossoverFit& fit, const VariancePrior& prior);

// Benjamini-Hochberg adjusted p-values (same order as the input). NaN entries stay NaN and do
// not count towards m.
std::vector<double> benjamini_hochberg(const std::vector<double>& p);

// Smallest even number of rounds n (>= 4, <= max_rounds) whose MDE, for a residual SD `sd` and
// balanced orders, is at most `margin` (log units); 0 when even max_rounds do not suffice.
// `prior_df` adds a variance prior's degrees of freedom to the n - 2 of the fit.
int rounds_needed(double sd, double margin, double alpha, double power, int max_rounds = 1000,
                  double prior_df = 0);

}  // namespace benchpr::stats
