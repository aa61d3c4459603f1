// The crossover fit for a benchmark whose runs jump between two modes (code layout, frequency,
// a cache that fits or not: each process lands in one). Across modes a round's log ratio is off
// by the mode gap whenever the two sides' processes landed in different modes, and the plain
// fit reads that as noise (a 10% gap hit by 30% of runs gives rounds an SD of 6.5% where the
// noise within a mode is 1%): such a benchmark never settles. Here the runs are compared within
// their modes, and the shares of runs in each mode are tested on their own: a pull request that
// moves runs into the slower mode is a real change.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "benchpr/core/stats/stats.hpp"

namespace benchpr::stats {

// Two modes in pooled run values: each run labelled 0 (the faster mode) or 1 (the slower).
struct ModeSplit {
  std::vector<int> labels;  // per value, in input order
  double separation = 0;    // (mean of mode 1 - mean of mode 0) / pooled SD within the modes
  double gap = 0;           // mean of mode 1 - mean of mode 0
};

// The best split of `values` into a lower and an upper group (least squares: the one with the
// smallest sum of squares within the groups; a group may be a single far value), when they are
// clearly separated: their means at least 6 pooled SDs within the groups apart. Nothing with
// fewer than 20 values (10 rounds).
std::optional<ModeSplit> split_modes(const std::vector<double>& values);

// Two-sided Fisher exact test that two shares are equal: `a` of `n_a` against `b` of `n_b`;
// the sum of the probabilities of the tables (given the margins) no likelier than the one seen.
double fisher_exact_p(int a, int n_a, int b, int n_b);

// The crossover fit of the per-round log ratios `d` (positions `s`), knowing each run's log
// value on the base side (`base_log`; the PR's is base_log + d). The runs of both sides are
// pooled, the PR's moved back by the estimated change, and split into two modes (split_modes).
// Found, each round's ratio is fitted as d = mu + gamma s + delta (m_PR - m_base), m the run's
// mode (1: the slower): mu is the change within a mode, read on the noise within the modes,
// delta the gap (the split and mu are refined in turn until the labels settle). The runs are
// pooled rather than split side by side so that a PR that moves every run by the gap is not
// read as a change of mode: its own runs would all sit in one group. Two readings can explain
// the same runs (the PR's runs fast where the base's were slow, or the PR faster by the gap with
// its runs slow): the one with the smaller change is taken, and the other shows as a difference
// in the shares of runs in the slower mode, tested on their own (fisher_exact_p): a benchmark
// whose shares differ at `share_alpha` is not called unchanged (analyse()), and one whose shares
// differ at `whole_alpha` is read by the plain fit.
// No modes found: `fit` is the plain crossover fit and `modes` false.
struct ModeFit {
  CrossoverFit fit;
  bool modes = false;          // two modes were found: fit is the within-mode fit
  int slow_base = 0;           // base runs in the slower mode
  int slow_head = 0;           // PR runs in the slower mode
  int runs = 0;                // runs per side
  double gap = 0;              // the mode gap (log units)
  double share_p = 1;          // fisher_exact_p of the slower mode's shares
  bool shares_differ = false;  // share_p <= share_alpha: the PR moved runs between modes
  bool whole = false;          // share_p <= whole_alpha: fit is the plain fit
};
struct ModeOptions {
  // The shares test's level. A pull request that moves runs into the slower mode changes the
  // mean time while each mode stays put, and 10 runs a side rarely show it: the shares must not
  // differ even at this lenient level before a benchmark is called unchanged (method study,
  // table 11b).
  double share_alpha = 0.2;
  // Shares this different (p at most this) are a change beyond doubt, which the within-mode fit
  // would hide: the benchmark is read by the plain fit, as a whole. Strict, because the plain
  // fit of runs whose shares differ by chance is biased by the imbalance: at 5% it made most of
  // the A/A benchmarks it read significant.
  double whole_alpha = 0.001;
  // A within-mode change that the runs' move between modes, the other way, may outweigh
  // (within_change_outweighed, with shares that differ at this level) is no verdict: analyse()
  // reads such a benchmark as a whole and leaves it inconclusive. At 20% (share_alpha) it cost
  // 6 points of power at +1% where runs jump by chance (method study, table 11); 0 turns it off.
  double outweighed_alpha = 0.05;
};
ModeFit fit_crossover_modes(const std::vector<double>& d, const std::vector<int>& s,
                            const std::vector<double>& base_log, const ModeOptions& options);

// How far the runs' move between modes could shift the mean time, in log units, at `level`:
// the gap times the larger end of the Agresti-Caffo interval for the difference of the slower
// mode's shares (PR minus base). A pull request that moves runs into the slower mode changes
// the mean time while each mode stays put, so `unchanged` must also rule out such a move: with
// 10 runs a side and modes 10% apart it cannot (3 of 10 in both: ±3.0% at 90%). 0 without modes
// or when the smaller group is a single run (a run far from all others is read apart, as an
// outlier, not as a mode the PR could fill).
double share_shift_bound(const ModeFit& fit, double level);

// Whether the runs' move between modes may outweigh the change within them: with shares that
// differ (at most `share_alpha`) the other way than the within-mode change mu, the change of
// the mean time is about mu + gap x (PR's share - base's share) of the slower mode, and its
// `level` interval (mu's half-width and the Agresti-Caffo one of the shares' difference times
// the gap, added in quadrature) reaches past 0 from mu's side. A PR that moves work to a
// helper thread, read on wall time on a busy machine: every PR run in the slow mode, each
// faster there than the base's, is "faster" within the modes while its mean time grew.
bool within_change_outweighed(const ModeFit& fit, double share_alpha, double level);

// "runs in two modes 9.5% apart (3 of 10 base runs and 4 of 10 PR runs in the slower), compared
// within each mode", or, with shares that differ, that the PR moved runs between the modes, or
// for a single run alone in its group "one base run 14.2% slower than all others, read apart
// from them"; empty when no modes were found.
std::string modes_phrase(const ModeFit& fit);

}  // namespace benchpr::stats
