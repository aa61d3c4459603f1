#include "benchpr/core/verdicts/analysis.hpp"

#include <algorithm>
#include <cmath>
#include <map>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "benchpr/core/base/duration.hpp"
#include "benchpr/core/evidence/cycle_estimate.hpp"
#include "benchpr/core/evidence/identical_programs.hpp"
#include "benchpr/core/evidence/instruction_analysis.hpp"
#include "benchpr/core/evidence/placement.hpp"
#include "benchpr/core/notes/run_notes.hpp"
#include "benchpr/core/stats/paired_rounds.hpp"
#include "benchpr/core/stats/stats.hpp"
#include "benchpr/core/stats/value_range.hpp"
#include "benchpr/core/verdicts/recommendation.hpp"
#include "benchpr/core/wording/wording.hpp"

namespace benchpr {

namespace {

constexpr double kOrderShare = 0.9;  // "the sign follows run order" in >= 90% of rounds
constexpr double kOrderWarningShare = 0.25;

// How far each process's mean time sits above its least time (its repetitions' stalls and
// spread), the PR's against the base's, over the paired rounds: a paired t test on the
// difference of ln(mean / least). The least time alone is blind to a PR whose repetitions stall
// (30% of them 20% longer cost 6% and leave the least time where it was) and reads a PR whose
// repetitions merely spread more as faster; the mean time sees both, and this names the cause.
struct SpreadShift {
  int rounds = 0;
  double base = 0;  // mean over the rounds of ln(mean / least), the base's processes
  double head = 0;  // the PR's
  double p = 1;     // two-sided, of "no difference"
  bool shown(double alpha) const { return rounds >= kMinDecidingRounds && p <= alpha; }
};

SpreadShift spread_shift(const BenchmarkSeries& series, const std::vector<AnalysedRound>& rounds) {
  SpreadShift out;
  if (series.base_least.empty() || series.head_least.empty()) return out;
  const auto at = [](const std::vector<double>& v, std::size_t i) {
    return i < v.size() && std::isfinite(v[i]) && v[i] > 0 ? v[i] : kMissing;
  };
  std::vector<double> diff;
  for (const AnalysedRound& r : rounds) {
    const auto i = static_cast<std::size_t>(r.round);
    const double b = at(series.base, i), h = at(series.head, i);
    const double bl = at(series.base_least, i), hl = at(series.head_least, i);
    if (is_missing(b) || is_missing(h) || is_missing(bl) || is_missing(hl)) continue;
    // Above the least time for a time, below the highest rate for a rate: >= 0 either way.
    const double sb = std::fabs(std::log(b / bl)), sh = std::fabs(std::log(h / hl));
    out.base += sb;
    out.head += sh;
    diff.push_back(sh - sb);
  }
  out.rounds = static_cast<int>(diff.size());
  if (out.rounds < 2) return out;
  const auto n = static_cast<double>(out.rounds);
  out.base /= n;
  out.head /= n;
  const double mean = (out.head - out.base);
  double ss = 0;
  for (double x : diff) ss += (x - mean) * (x - mean);
  const double se = std::sqrt(ss / (n - 1) / n);
  if (se > 0) {
    out.p = stats::t_two_sided_p(mean / se, n - 1);
  } else {
    out.p = mean != 0 ? 0 : 1;
  }
  return out;
}

// Per-benchmark state kept between the passes (fit, then BH, then verdicts).
struct Work {
  BenchmarkAnalysis out;
  PairedRounds rounds;
  stats::CrossoverFit fit;
  stats::ModeFit modes;  // the runs' modes, when options.mode_aware
  // The runs' modes as a finding (options.mode_aware false): what the PR's runs did, read beside
  // the mean time, never in its place.
  stats::ModeFit found_modes;
  // How the mean and the least time of each process's repetitions part between the sides.
  SpreadShift spread;
  bool comparable = false;  // has a usable fit and no terminal verdict yet
  // The PR moved runs into one mode while, within the modes, it reads the other way, and the
  // move could outweigh it: the mean time may have gone either way. `fit` is then the plain
  // fit (the mean time, as a whole) and the verdict is never more than inconclusive.
  bool outweighed = false;
  stats::CrossoverFit within;  // the within-mode fit, when outweighed
};

// Share of rounds (with d != 0) whose sign agrees with the position code s: near 1 when the PR
// loses whenever it runs second, near 0 when it wins whenever it runs second.
double sign_follows_order_share(const PairedRounds& r, int* counted) {
  int agree = 0, n = 0;
  for (std::size_t i = 0; i < r.d.size(); ++i) {
    if (r.d[i] == 0) continue;
    ++n;
    if ((r.d[i] > 0) == (r.s[i] > 0)) ++agree;
  }
  *counted = n;
  return n ? static_cast<double>(agree) / n : 0.5;
}

double geometric_mean(const std::vector<double>& values) {
  double sum = 0;
  for (double v : values) sum += std::log(v);
  return std::exp(sum / static_cast<double>(values.size()));
}

double to_change(double worse_log, Better better) {
  return std::exp(better == Better::Lower ? worse_log : -worse_log) - 1;
}

void set_interval(BenchmarkAnalysis& a, double lo_worse, double hi_worse) {
  const double x = to_change(lo_worse, a.better), y = to_change(hi_worse, a.better);
  a.ci_low = std::min(x, y);
  a.ci_high = std::max(x, y);
}

std::string rounds_phrase(const Work& w) {
  // "slower in 10 of 10 rounds, whichever side ran first"
  const auto& r = w.rounds;
  const bool worse = w.fit.mu > 0;
  int agree = 0, agree_first = 0, agree_second = 0, n_first = 0, n_second = 0;
  for (std::size_t i = 0; i < r.d.size(); ++i) {
    const bool same = worse ? r.d[i] > 0 : r.d[i] < 0;
    (r.s[i] > 0 ? n_second : n_first)++;
    if (!same) continue;
    ++agree;
    (r.s[i] > 0 ? agree_second : agree_first)++;
  }
  std::string word = worse ? worse_word(w.out.better) : better_word(w.out.better);
  std::string text = fmt::format("{} in {} of {} rounds", word, agree, r.d.size());
  if (agree_first == n_first && agree_second == n_second && n_first > 0 && n_second > 0) {
    text += ", whichever side ran first";
  }
  return text;
}

// What names a series' analysis and how it is read: suite, name, unit, direction, threshold.
void take_identity(BenchmarkAnalysis& a, const BenchmarkSeries& series, const Config& config) {
  a.suite = series.suite;
  a.name = series.name;
  a.unit = series.unit;
  a.better = series.better;
  a.threshold = config.threshold_for(series.suite, series.name);
}

void analyse_series(Work& w, const BenchmarkSeries& series,
                    const std::vector<AnalysedRound>& rounds, const Config& config, bool cold_check,
                    const AnalysisOptions& options) {
  BenchmarkAnalysis& a = w.out;
  take_identity(a, series, config);

  std::vector<double> base_values, head_values;  // each side's usable values, paired or not
  for (const AnalysedRound& r : rounds) {
    const auto idx = static_cast<std::size_t>(r.round);
    const double b = idx < series.base.size() ? series.base[idx] : kMissing;
    const double h = idx < series.head.size() ? series.head[idx] : kMissing;
    if (std::isfinite(b) && b > 0) base_values.push_back(b);
    if (std::isfinite(h) && h > 0) head_values.push_back(h);
    a.round_changes.push_back(std::isfinite(b) && std::isfinite(h) && b > 0 && h > 0 ? h / b - 1
                                                                                     : kMissing);
  }

  if (!series.base_failure.empty() || !series.head_failure.empty()) {
    a.verdict = Verdict::Failed;
    std::vector<std::string> why;
    if (!series.base_failure.empty()) why.push_back("base: " + series.base_failure);
    if (!series.head_failure.empty()) why.push_back("PR: " + series.head_failure);
    a.reason = fmt::format("{}", fmt::join(why, "; "));
    a.failure = series.head_failure.empty() ? series.base_failure_kind : series.head_failure_kind;
    if (a.failure == FailureKind::None) a.failure = FailureKind::Other;
  } else if (std::optional<std::string> problem = value_range_problem(series)) {
    // Nonsense values would give a confident verdict of any size (1e-200 ns against 1e200 ns
    // read as "faster"): the benchmark fails with the reason instead.
    a.verdict = Verdict::Failed;
    a.failure = FailureKind::ValueOutOfRange;
    a.reason = std::move(*problem);
  } else if (base_values.empty() && head_values.empty()) {
    // Nothing failed: no analysed round holds a value (none has run yet, or every one was left
    // out because one side was starved). Later rounds may still measure it.
    a.verdict = Verdict::Failed;
    a.failure = FailureKind::NotMeasured;
    a.reason = rounds.empty() ? "no analysed round has run" : "no values on either side";
  } else if (base_values.empty()) {
    a.verdict = Verdict::Added;
  } else if (head_values.empty()) {
    a.verdict = Verdict::Removed;
  }

  w.rounds = pair_rounds(series, rounds, cold_check);
  const PairedRounds& r = w.rounds;
  a.rounds_used = static_cast<int>(r.d.size());
  a.dropped_round = r.dropped;
  if (r.cold_first) a.add_flag(BenchmarkFlag::ColdRound);
  if (!r.base.empty()) {
    a.base_value = geometric_mean(r.base);
    a.head_value = geometric_mean(r.head);
  }
  for (double d : r.d) {
    if (d > 0) ++a.worse_rounds;
    if (d < 0) ++a.better_rounds;
  }
  if (a.verdict == Verdict::Added || a.verdict == Verdict::Removed ||
      (a.verdict == Verdict::Failed && r.base.empty())) {
    // Nothing is paired, but the side that has values still says what it cost there (the base
    // of a benchmark that crashed on the PR side from its first round, for example).
    a.base_value = base_values.empty() ? kMissing : geometric_mean(base_values);
    a.head_value = head_values.empty() ? kMissing : geometric_mean(head_values);
    return;
  }

  w.spread = spread_shift(series, rounds);
  {
    // Each run's log value, sign-flipped as d is when higher is better: the PR's is base + d.
    std::vector<double> base_log;
    for (double b : r.base)
      base_log.push_back(a.better == Better::Lower ? std::log(b) : -std::log(b));
    (options.mode_aware ? w.modes : w.found_modes) =
        stats::fit_crossover_modes(r.d, r.s, base_log, options.modes);
  }
  // The mean time's fit, with each placement's own level taken out under the placement control.
  const PlacementCentred centred =
      centre_placements(r, rounds.empty() ? 0 : rounds.front().cycle_rounds / 2);
  const auto mean_fit = [&] {
    return stats::with_df_cost(stats::fit_crossover_robust(centred.d, r.s, options.estimator).fit,
                               centred.df_cost);
  };
  w.fit = w.modes.modes ? w.modes.fit : mean_fit();
  if (options.modes.outweighed_alpha > 0 &&
      stats::within_change_outweighed(w.modes, options.modes.outweighed_alpha, 0.95)) {
    // A helper thread on a busy machine, for one: the PR's runs all slow, each faster than the
    // slow base runs. Read within the modes alone, that is a confident "faster" for a benchmark
    // whose mean time grew; the mean time is what a user waits for.
    w.outweighed = true;
    w.within = w.fit;
    w.fit = mean_fit();
  }
  if (!w.fit.usable()) {
    if (a.verdict != Verdict::Failed) {
      a.verdict = Verdict::Inconclusive;
      a.reason = fmt::format("too few rounds with values on both sides ({})", r.d.size());
    }
    return;
  }
  w.comparable = a.verdict != Verdict::Failed;
}

// The per-benchmark numbers of a (moderated) fit. `family_alpha` is the level one benchmark is
// tested at when the family's Benjamini-Hochberg rejects only it (alpha / m): the MDE is stated
// at that level, so a change of the MDE is found with the stated power whatever else changed.
void read_fit(Work& w, const AnalysisOptions& opt, double family_alpha) {
  BenchmarkAnalysis& a = w.out;
  a.change = to_change(w.fit.mu, a.better);
  // The PR column is the base times the paired ratio: it differs from the PR's own geometric
  // mean only when the rounds are unbalanced between orders, and then it is the better estimate.
  a.head_value = a.base_value * (1 + a.change);
  const double half95 = w.fit.ci_half_width(0.95);
  set_interval(a, w.fit.mu - half95, w.fit.mu + half95);
  const double half_eq = w.fit.ci_half_width(1 - 2 * opt.equivalence_alpha);
  const double eq_lo = to_change(w.fit.mu - half_eq, a.better);
  const double eq_hi = to_change(w.fit.mu + half_eq, a.better);
  a.eq_low = std::min(eq_lo, eq_hi);
  a.eq_high = std::max(eq_lo, eq_hi);
  a.eq_level = 1 - 2 * opt.equivalence_alpha;
  a.p = w.fit.p_mu();
  if (w.fit.has_gamma) {
    a.position_effect = w.fit.gamma;
    a.position_p = w.fit.p_gamma();
  }
  a.mde = std::exp(w.fit.mde(family_alpha, opt.power)) - 1;
  // The label that blocks a merge needs the estimate at the threshold and the change shown
  // beyond half of it (one-sided, at alpha / m when only this benchmark is rejected): the
  // estimate must clear the larger of the two bars, and with the set power it does once the
  // true change is that bar plus t(power) standard errors.
  {
    const double margin = std::log1p(a.threshold);
    const double df = w.fit.df + w.fit.main_prior_df();
    const double se = w.fit.main_sd() * w.fit.se_mu_unit;
    const double bar = std::max(margin / 2 + stats::t_quantile(1 - family_alpha, df) * se, margin);
    a.mde_label = std::exp(bar + stats::t_quantile(opt.power, df) * se) - 1;
  }

  int counted = 0;
  const double share = sign_follows_order_share(w.rounds, &counted);
  // Only rounds of both orders can show a sign that follows the order (result files compared
  // by `benchpr compare` have one order for want of any: no gamma is fitted).
  const bool sign_follows =
      w.fit.has_gamma && counted >= 3 && (share >= kOrderShare || share <= 1 - kOrderShare);
  const bool gamma_dominates =
      w.fit.has_gamma && a.position_p < opt.alpha && std::fabs(w.fit.gamma) >= std::fabs(w.fit.mu);
  if (sign_follows || gamma_dominates) a.add_flag(BenchmarkFlag::Order);
}

// What the PR's runs did that the mean time holds and a reshaped reading would have set aside,
// each tested on its own, in words for the row: runs moved between modes (Fisher's exact test of
// the slower mode's shares), and repetitions that stall or spread more on one side (the paired
// test of SpreadShift). Either side's excess is named: the base's is a cost the PR removed.
std::vector<std::string> findings(const Work& w, const AnalysisOptions& opt) {
  std::vector<std::string> out;
  const stats::ModeFit& m = w.found_modes;
  // Named where the shares differ beyond chance, and wherever the mean time is not shown
  // unchanged: there they may be why.
  if (m.modes && m.slow_base != m.slow_head &&
      (m.share_p <= opt.alpha || w.out.verdict != Verdict::Unchanged)) {
    const bool head = m.slow_head > m.slow_base;
    if (std::min(m.slow_base, m.slow_head) == 0 && std::max(m.slow_base, m.slow_head) == 1) {
      out.push_back(fmt::format("one {} run {} slower than all others, counted in the mean time",
                                head ? "PR" : "base", format_percent(std::expm1(m.gap))));
    } else {
      out.push_back(fmt::format(
          "the {} ran {} of {} runs in a mode {} slower against {} of {} for the {} (Fisher p "
          "{:.3f}): counted in the mean time",
          head ? "PR" : "base", std::max(m.slow_base, m.slow_head), m.runs,
          format_percent(std::expm1(m.gap)), std::min(m.slow_base, m.slow_head), m.runs,
          head ? "base" : "PR", m.share_p));
    }
  }
  if (w.spread.shown(opt.alpha)) {
    const bool head = w.spread.head > w.spread.base;
    out.push_back(fmt::format(
        "the {}'s repetitions stall or spread more: its mean time sits {} above its least, the "
        "{}'s {} (p {:.3f}); the mean time decides",
        head ? "PR" : "base", format_percent(std::expm1(head ? w.spread.head : w.spread.base)),
        head ? "base" : "PR", format_percent(std::expm1(head ? w.spread.base : w.spread.head)),
        w.spread.p));
  }
  return out;
}

// How the run reads its benchmarks as a family: the variance prior and the number compared.
struct Family {
  stats::VariancePrior prior;
  stats::VariancePrior noisier;  // the noisier group's prior, for benchmarks that may belong to it
  std::vector<double> weights;   // per compared benchmark, in order: stats::fit_prior_mixture
  bool noisier_shown = false;    // the mixture found a noisier group (PriorMixture)
  int compared = 0;
};

// Labels with two margins. `significant`: the change is not zero (BH over the family at alpha).
// `regression`/`improvement` also need the size: the estimate at least the threshold, and the
// change shown beyond half the threshold (one-sided test, BH over the family at alpha). Without
// the second margin a true change of exactly the threshold is a coin flip and 50 benchmarks that
// truly changed by half of it show a `regression` in about half of the runs (docs/method.md).
void decide(Work& w, double threshold, const AnalysisOptions& opt, const Family& family,
            double size_p_adjusted) {
  BenchmarkAnalysis& a = w.out;
  const double margin = std::log1p(threshold);
  // What a move of runs between the modes could hide (0 without modes): `unchanged` rules it out.
  const double share_shift = stats::share_shift_bound(w.modes, 1 - 2 * opt.equivalence_alpha);
  const bool significant = a.p_adjusted <= opt.alpha;
  const bool worse = w.fit.mu > 0;
  const bool order = a.has_flag(BenchmarkFlag::Order);
  // The crossover fit already separates the position effect from the PR's effect, so a clear
  // result stands even when the order effect is strong; the order flag explains results that
  // are otherwise inconclusive (the method study in docs/method.md shows why: overriding
  // decisive results with it halves the power under a steady order penalty). There is no
  // leave-one-round-out check: held to the family's level it cost 14 points of power at +2%
  // in a PR of 50, and without it the heavy-tail models of the study still show no false
  // `regression` (docs/method.md).
  if (w.outweighed) {
    a.verdict = Verdict::Inconclusive;
    const double half = w.within.ci_half_width(0.95);
    const double lo = to_change(w.within.mu - half, a.better);
    const double hi = to_change(w.within.mu + half, a.better);
    a.reason = fmt::format(
        "within each mode the PR reads {} {} (95% CI {}), but it moved runs into the {} mode "
        "({} of {} base runs and {} of {} PR runs in the slower, modes {} apart, p {:.3f}), "
        "which could outweigh that: compared as a whole, ",
        format_percent(std::fabs(to_change(w.within.mu, a.better))),
        w.within.mu > 0 ? worse_word(a.better) : better_word(a.better),
        format_interval(std::min(lo, hi), std::max(lo, hi)), w.within.mu > 0 ? "faster" : "slower",
        w.modes.slow_base, w.modes.runs, w.modes.slow_head, w.modes.runs,
        format_percent(std::expm1(w.modes.gap)), w.modes.share_p);
    a.reason += a.p <= opt.alpha
                    ? fmt::format(
                          "the mean time is {} {} (95% CI {}), not settled while the "
                          "modes disagree",
                          format_percent(std::fabs(a.change)),
                          w.fit.mu > 0 ? worse_word(a.better) : better_word(a.better),
                          format_interval(a.ci_low, a.ci_high))
                    : fmt::format("the 95% CI {} is wider than ±{}",
                                  format_interval(a.ci_low, a.ci_high), format_percent(threshold));
  } else if (significant) {
    const bool large = std::fabs(w.fit.mu) >= margin && size_p_adjusted <= opt.alpha;
    a.verdict = large ? (worse ? Verdict::Regression : Verdict::Improvement)
                      : (worse ? Verdict::Slower : Verdict::Faster);
    a.reason = rounds_phrase(w);
    // The estimate reads at or above the threshold, but the size was not shown: say so, and
    // how many rounds would show it (one-sided beyond half the threshold at alpha / m, if the
    // change is what was estimated). The recommendation never calls such a change "below the
    // threshold" nor a plain merge.
    if (!large && (std::fabs(w.fit.mu) >= margin || reads_at_least(a.change, threshold))) {
      a.reason +=
          fmt::format("; not shown to exceed half the {} threshold", format_percent(threshold));
      const double excess = std::fabs(w.fit.mu) - margin / 2;
      const int need = stats::rounds_needed(w.fit.main_sd(), excess,
                                            2 * opt.alpha / std::max(1, family.compared), opt.power,
                                            1000, w.fit.main_prior_df());
      if (need > 0) a.rounds_needed = std::max(need, a.rounds_used + 2);
    }
  } else if (std::fabs(w.fit.mu) + w.fit.ci_half_width(1 - 2 * opt.equivalence_alpha) +
                     share_shift <=
                 margin &&
             !w.modes.shares_differ) {
    // (Runs the PR moved between modes change its mean time however alike the modes are: the
    // interval of the within-mode change is widened by what such a move could hide.)
    a.verdict = Verdict::Unchanged;
    a.reason = fmt::format("within ±{} ({} CI)", format_percent(threshold),
                           format_level(1 - 2 * opt.equivalence_alpha));
  } else {
    a.verdict = Verdict::Inconclusive;
    if (order) {
      a.reason = "the sign follows run order: position effects dominate";
    } else if (a.p <= opt.alpha) {
      // The 95% CI excludes 0 here; what it fails is the correction over the family.
      a.reason = fmt::format(
          "not significant after correcting for {} benchmarks (p {:.3f}, "
          "corrected {:.3f})",
          family.compared, a.p, a.p_adjusted);
    } else if (share_shift > 0 &&
               std::fabs(w.fit.mu) + w.fit.ci_half_width(1 - 2 * opt.equivalence_alpha) <= margin) {
      // Settled within each mode; what stays open is how many runs land in the slower one.
      a.no_signal = true;
      a.reason = fmt::format(
          "within ±{} inside each mode (95% CI {}), but these runs cannot rule out that the PR "
          "moved runs into the slower mode, which could change the mean time by up to {}",
          format_percent(threshold), format_interval(a.ci_low, a.ci_high),
          format_percent(std::expm1(share_shift)));
    } else {
      a.no_signal = true;
      a.reason = fmt::format("no signal: the 95% CI {} is wider than ±{}",
                             format_interval(a.ci_low, a.ci_high), format_percent(threshold));
    }
    // Say what a careful reader would: a direction seen in every round is worth noting even
    // when the rounds are too few to call it.
    if (a.rounds_used >= 3 && (a.worse_rounds == a.rounds_used || a.better_rounds == a.rounds_used))
      a.reason += "; " + rounds_phrase(w);
  }
  if (w.modes.modes && !w.outweighed) a.reason += "; " + stats::modes_phrase(w.modes);
  for (const std::string& finding : findings(w, opt)) a.reason += "; " + finding;
  if (a.verdict == Verdict::Inconclusive && w.fit.residual_sd > 0) {
    // At the level the family tests one benchmark at (alpha / m), as the MDE.
    const int need =
        stats::rounds_needed(w.fit.main_sd(), margin, opt.alpha / std::max(1, family.compared),
                             opt.power, 1000, w.fit.main_prior_df());
    if (need > 0) a.rounds_needed = std::max(need, a.rounds_used + 2);
  }
}

SuiteSummary summarise_suite(const std::string& suite, const std::vector<Work>& works,
                             const std::vector<AnalysedRound>& rounds) {
  // Per-round mean of the log ratios over the suite's compared benchmarks, then the same
  // crossover fit: the rounds stay paired, so correlation between benchmarks is kept.
  SuiteSummary out;
  out.suite = suite;
  std::map<int, std::pair<double, int>> per_round;  // analysed-round number -> (sum, count)
  for (const Work& w : works) {
    if (w.out.suite != suite || !w.comparable) continue;
    ++out.benchmarks;
    for (std::size_t i = 0; i < w.rounds.d.size(); ++i) {
      auto& [sum, count] = per_round[w.rounds.numbers[i]];
      sum += w.rounds.d[i];
      ++count;
    }
  }
  std::vector<double> d;
  std::vector<int> s;
  for (const AnalysedRound& r : rounds) {
    auto it = per_round.find(r.number);
    if (it == per_round.end() || it->second.second < std::max(1, out.benchmarks / 2)) continue;
    d.push_back(it->second.first / it->second.second);
    s.push_back(r.head_second ? 1 : -1);
  }
  const stats::CrossoverFit fit = stats::fit_crossover(d, s);
  if (out.benchmarks == 0 || !fit.usable()) return out;
  out.change = std::exp(fit.mu) - 1;
  const double half = fit.ci_half_width(0.95);
  out.ci_low = std::exp(fit.mu - half) - 1;
  out.ci_high = std::exp(fit.mu + half) - 1;
  return out;
}

// The benchmarks too small to measure (every value below a picosecond, instruction counts
// aside): left out of the comparison, named in a note. Per series, whether it is left out.
std::vector<bool> leave_out_too_small(const Results& results, RunFacts& facts) {
  std::vector<bool> left_out(results.series.size(), false);
  for (std::size_t i = 0; i < results.series.size(); ++i) {
    if (is_instruction_series(results.series[i])) continue;
    const std::optional<double> tiny = too_small_to_measure(results.series[i]);
    if (!tiny) continue;
    left_out[i] = true;
    facts.too_small.push_back({results.series[i].name, *tiny, results.series[i].unit});
  }
  return left_out;
}

// A benchmark of a suite whose programs are identical on both sides: the same code and data run,
// so the change is exactly none, decided without a timed round
// (core/evidence/identical_programs.hpp). Not part of the family: nothing was measured.
BenchmarkAnalysis identical_program_analysis(const BenchmarkSeries& series, const Config& config) {
  BenchmarkAnalysis a;
  take_identity(a, series, config);
  a.metric = series.metric;
  a.verdict = Verdict::Unchanged;
  a.reason = std::string(kIdenticalProgramsReason);
  a.change = a.ci_low = a.ci_high = a.eq_low = a.eq_high = 0;
  return a;
}

// Each series' own numbers, before the family is known: exact counts take no part in the
// family's statistics (their verdict is the change itself).
std::vector<Work> analyse_each_series(const Results& results,
                                      const std::vector<AnalysedRound>& rounds,
                                      const std::vector<bool>& left_out,
                                      const AnalysisOptions& options) {
  std::vector<Work> works(results.series.size());
  for (std::size_t i = 0; i < works.size(); ++i) {
    if (left_out[i]) continue;
    if (is_instruction_series(results.series[i])) {
      works[i].out =
          analyse_instruction_series(results.series[i], results.config.instruction_threshold);
      continue;
    }
    if (is_identical_suite(results, results.series[i].suite)) {
      works[i].out = identical_program_analysis(results.series[i], results.config);
      continue;
    }
    analyse_series(works[i], results.series[i], rounds, results.config, true, options);
  }
  return works;
}

// A cold first round is the machine's and moves the whole family: unless the family shows it,
// a benchmark whose round 1 alone looked cold (heavy-tailed noise) keeps that round, unflagged.
void keep_cold_rounds_unless_shared(std::vector<Work>& works, const Results& results,
                                    const std::vector<AnalysedRound>& rounds,
                                    const AnalysisOptions& options) {
  std::vector<double> cold_ps;
  for (std::size_t i = 0; i < works.size(); ++i)
    if (!is_instruction_series(results.series[i])) cold_ps.push_back(works[i].rounds.cold_p);
  if (cold_start_shared(cold_ps)) return;
  for (std::size_t i = 0; i < works.size(); ++i) {
    if (is_instruction_series(results.series[i]) || !works[i].rounds.cold_first) continue;
    works[i] = Work{};
    analyse_series(works[i], results.series[i], rounds, results.config, false, options);
  }
}

// The verdicts: Benjamini-Hochberg over the family, of "no change" (`p`) and of "no more than
// half the threshold" (`p_size`), then each comparable benchmark decided.
void decide_each(std::vector<Work>& works, const std::vector<double>& p,
                 const std::vector<double>& p_size, const AnalysisOptions& options,
                 const Family& family) {
  const std::vector<double> adjusted = stats::benjamini_hochberg(p);
  const std::vector<double> size_adjusted = stats::benjamini_hochberg(p_size);
  for (std::size_t i = 0; i < works.size(); ++i) {
    works[i].out.p_adjusted = adjusted[i];
    if (works[i].comparable)
      decide(works[i], works[i].out.threshold, options, family, size_adjusted[i]);
  }
}

// The run's numbers over its compared benchmarks (the median MDEs, whether many follow the
// run order, a summary per suite); counts the cold first rounds for the notes.
void summarise_run(Analysis& out, const std::vector<Work>& works,
                   const std::vector<AnalysedRound>& rounds, RunFacts& facts) {
  int compared = 0, ordered = 0;
  std::vector<double> mdes, label_mdes;
  std::vector<std::string> suites;
  for (const Work& w : works) {
    if (w.out.dropped_round) ++facts.cold_left_out;
    if (!w.out.dropped_round && w.rounds.cold_first) ++facts.cold_kept;
    if (!w.comparable) continue;
    ++compared;
    if (w.out.has_flag(BenchmarkFlag::Order)) ++ordered;
    if (std::isfinite(w.out.mde)) mdes.push_back(w.out.mde);
    if (std::isfinite(w.out.mde_label)) label_mdes.push_back(w.out.mde_label);
    if (std::find(suites.begin(), suites.end(), w.out.suite) == suites.end())
      suites.push_back(w.out.suite);
  }
  out.run_mde = stats::median(mdes);
  out.run_mde_label = stats::median(label_mdes);
  // "Many": at least two benchmarks and a quarter of those compared; one is that benchmark's story.
  out.order_warning = ordered >= 2 && ordered >= kOrderWarningShare * compared;
  for (const std::string& suite : suites) {
    out.suites.push_back(summarise_suite(suite, works, rounds));
  }
}

}  // namespace

Analysis analyse(const Results& results, const AnalysisOptions& options) {
  Analysis out;
  const std::vector<AnalysedRound> rounds = analysed_rounds(results);
  out.analysed_rounds = static_cast<int>(rounds.size());
  out.alpha = options.alpha;
  out.equivalence_level = 1 - 2 * options.equivalence_alpha;
  RunFacts facts;
  // A benchmark whose every value is below a picosecond measures nothing: it is named once in a
  // note, not compared and not a failure of the comparison.
  const std::vector<bool> left_out = leave_out_too_small(results, facts);
  std::vector<Work> works = analyse_each_series(results, rounds, left_out, options);
  keep_cold_rounds_unless_shared(works, results, rounds, options);

  // The run's variance prior from every compared benchmark, then each fit moderated by it.
  Family family;
  {
    std::vector<double> variances;
    std::vector<int> dfs;
    for (const Work& w : works) {
      if (!w.comparable) continue;
      ++family.compared;
      variances.push_back(w.fit.own_sd * w.fit.own_sd);
      dfs.push_back(w.fit.df);
    }
    stats::PriorMixture mixture =
        options.noisier_group
            ? stats::fit_prior_mixture(variances, dfs,
                                       stats::fit_variance_prior(variances, dfs, 8, false))
            : stats::PriorMixture{stats::fit_variance_prior(variances, dfs),
                                  {},
                                  std::vector<double>(variances.size(), 1.0)};
    family.prior = mixture.prior;
    family.noisier = mixture.noisier;
    family.weights = std::move(mixture.weights);
    // Whether the family shows a noisier group: the benchmarks the model gives to it add up to
    // at least `noisier_guard_group` and 2% of those with a variance, and to at most a fifth
    // of them (stats::PriorMixture::noisier_shown with the group size the options ask for).
    double members = 0, with_variance = 0;
    for (std::size_t k = 0; k < variances.size(); ++k) {
      if (!(variances[k] > 0) || !std::isfinite(variances[k]) || dfs[k] < 1) continue;
      members += 1 - family.weights[k];
      ++with_variance;
    }
    family.noisier_shown = family.noisier.df > 0 &&
                           members >= std::max(options.noisier_guard_group, 0.02 * with_variance) &&
                           members <= options.noisier_guard_at_most * with_variance &&
                           family.prior.df >= options.noisier_guard_min_prior_df;
  }
  const double family_alpha = options.alpha / std::max(1, family.compared);
  std::vector<double> p, p_size;
  p.reserve(works.size());
  p_size.reserve(works.size());
  std::size_t compared_index = 0;
  for (Work& w : works) {
    if (w.comparable) {
      const double weight = family.weights.at(compared_index++);
      // A benchmark the family's noisier group explains is not read by the mixture's weight:
      // that read a noisy benchmark whose rounds happened to agree as a quiet one
      // (docs/method.md, table 10).
      const bool guarded =
          options.noisier_guard != NoisierGuard::Off && family.noisier_shown &&
          1 - weight >= options.noisier_guard_posterior &&
          stats::noisier_plausible(w.fit, family.noisier, options.noisier_guard_level);
      if (!guarded) {
        w.fit = stats::moderate(w.fit, family.prior, weight, family.noisier);
      } else if (options.noisier_guard == NoisierGuard::NoisierVariance) {
        w.fit = stats::moderate(w.fit, family.prior, 0, family.noisier);
      }  // NoisierGuard::OwnVariance: the fit as it is, on its own df
      read_fit(w, options, family_alpha);
      // Within the plausible ranges this cannot happen; should a ratio still overflow, no
      // verdict is read from infinities.
      if (!std::isfinite(w.out.change) || !std::isfinite(w.out.ci_low) ||
          !std::isfinite(w.out.ci_high)) {
        w.comparable = false;
        w.out.verdict = Verdict::Failed;
        w.out.reason = "the ratio of the PR's values to the base's overflows";
      }
    }
    p.push_back(w.comparable ? w.out.p : kMissing);
    // Each benchmark's size test is against half of its own threshold.
    p_size.push_back(w.comparable ? w.fit.p_beyond(std::log1p(w.out.threshold) / 2) : kMissing);
  }
  decide_each(works, p, p_size, options, family);

  summarise_run(out, works, rounds, facts);
  out.notes = run_notes(results, out.analysed_rounds, facts);
  out.benchmarks.reserve(works.size());
  for (std::size_t i = 0; i < works.size(); ++i)
    if (!left_out[i]) out.benchmarks.push_back(std::move(works[i].out));
  // The counts and the hot code may explain a time change as placement, or settle what time
  // could not: before the notes and the recommendation read the verdicts.
  apply_code_readings(results, out);
  for (Note& note : time_instruction_disagreements(out, &results))
    out.notes.push_back(std::move(note));
  for (Note& note : cycle_estimate_notes(results, out)) out.notes.push_back(std::move(note));
  out.recommendation = recommend(results, out);
  return out;
}

}  // namespace benchpr
