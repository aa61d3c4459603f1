#include "benchpr/core/adaptive/adaptive.hpp"

#include "benchpr/core/verdicts/disturbed_runs.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <boost/math/distributions/normal.hpp>

#include "benchpr/core/base/duration.hpp"
#include "benchpr/core/evidence/identical_programs.hpp"
#include "benchpr/core/evidence/instruction_analysis.hpp"
#include "benchpr/core/evidence/placement.hpp"
#include "benchpr/core/plan/schedule.hpp"
#include "benchpr/core/stats/paired_rounds.hpp"
#include "benchpr/core/stats/stats.hpp"
#include "benchpr/core/verdicts/recommendation.hpp"
#include "benchpr/core/wording/wording.hpp"

namespace benchpr {

namespace {

// The results as they stood at a look: the first `rounds` analysed rounds, and only the series
// still open there. The run records are left out; the analysis does not read them.
Results at_look(const Results& results, int rounds, const std::vector<bool>& open) {
  Results r = same_comparison(results);
  r.plan = results.plan;
  r.builds = results.builds;
  r.complete = true;  // a look is a planned point, not a partial run
  r.rounds_done = results.rounds_done;
  r.hot_code = results.hot_code;  // the code readings of every look (core/evidence/placement.hpp)
  int seen = 0;
  for (const RoundPlan& p : results.plan) {
    if (p.index >= results.rounds_done) break;
    if (!p.warmup && ++seen == rounds) {
      r.rounds_done = p.index + 1;
      break;
    }
  }
  for (std::size_t i = 0; i < results.series.size(); ++i) {
    if (open[i]) r.series.push_back(results.series[i]);
  }
  return r;
}

std::string percent_list(const std::vector<double>& alphas) {
  std::vector<std::string> parts;
  for (double a : alphas) parts.push_back(fmt::format("{:.2g}%", a * 100));
  return fmt::format("{}", fmt::join(parts, ", "));
}

}  // namespace

AdaptivePlan make_adaptive_plan(int first_look_rounds, int max_rounds, double alpha) {
  AdaptivePlan plan;
  const int step = round_up_even(std::max(first_look_rounds, 2));
  const int last = std::max(round_up_even(max_rounds), step);
  for (int r = step; r < last; r += step) plan.looks.push_back(r);
  plan.looks.push_back(last);
  const int k = static_cast<int>(plan.looks.size());
  const double total_weight = k * (k + 1) / 2.0;
  for (int i = 0; i < k; ++i) plan.alpha_per_look.push_back(alpha * (k - i) / total_weight);
  return plan;
}

AdaptivePlan adaptive_plan_for(const Config& config, double alpha) {
  const int first = round_up_even(std::max(config.rounds, 2));
  return make_adaptive_plan(first, kAdaptiveLookCount * first, alpha);
}

double spent_alpha(SpendingRule rule, double information, double alpha) {
  const double t = std::clamp(information, 0.0, 1.0);
  if (t <= 0) return 0;
  switch (rule) {
    case SpendingRule::OBrienFleming: {
      const double z = boost::math::quantile(boost::math::normal(), 1 - alpha / 2);
      return std::erfc(z / std::sqrt(t) / std::sqrt(2.0));
    }
    case SpendingRule::Pocock:
      return alpha * std::log(1 + (std::exp(1.0) - 1) * t);
  }
  return 0;
}

std::string_view to_string(SpendingRule rule) {
  return rule == SpendingRule::OBrienFleming ? "O'Brien–Fleming-type" : "Pocock-type";
}

double spent_alpha(SpendingRule rule, SpendingRule late_rule, double information, double alpha,
                   double horizon_share) {
  const double c = std::clamp(horizon_share, 0.0, 1.0);
  if (c >= 1) return spent_alpha(rule, information, alpha);
  if (information <= c) return c * spent_alpha(rule, c > 0 ? information / c : 1, alpha);
  return c * alpha + (1 - c) * spent_alpha(late_rule, (information - c) / (1 - c), alpha);
}

int rounds_within_reach(double seconds_left, double per_round, int step, int benchmarks,
                        double fixed_share, int most) {
  if (!std::isfinite(per_round) || !(per_round > 0) || benchmarks <= 0) return -1;
  const double left = std::max(0.0, seconds_left);
  const double after_first = left - step * per_round;
  // (1e-9: a budget of exactly so many rounds buys them, whatever the rounding of the division.)
  if (after_first <= 0) return std::min(static_cast<int>(left / per_round + 1e-9), most);
  const double cheapest = per_round * (fixed_share + (1 - fixed_share) / benchmarks);
  return static_cast<int>(std::min<double>(step + after_first / cheapest + 1e-9, most));
}

std::optional<LookRecord> next_look(const std::vector<LookRecord>& looks, int rounds_done, int step,
                                    int affordable, const SpendingPolicy& policy, int horizon,
                                    int reachable) {
  const double before = looks.empty() ? 0.0 : looks.back().information;
  if (before >= 1) return std::nullopt;
  affordable -= affordable % 2;  // whole AB/BA blocks
  if (affordable < 2) return std::nullopt;
  step = round_up_even(std::max(step, 2));
  // The stages are fixed at the first look: a second one when the budget could reach past the
  // horizon at the price of the cheapest rounds (only one benchmark left open): the first look's
  // full rounds would understate it, since the looks close benchmarks and the rounds get cheaper.
  if (reachable < 0) reachable = affordable;
  const double c = !looks.empty() ? looks.back().horizon_share
                   : horizon > 0 && reachable > horizon - rounds_done
                       ? 1 - std::clamp(policy.late_share, 0.0, 1.0)
                       : 1.0;
  const bool late = horizon > 0 && c < 1 && rounds_done >= horizon;
  // The rounds this stage can still read: up to the horizon, then what the budget affords.
  const int stage = late || horizon <= 0
                        ? affordable
                        : std::min(affordable, round_up_even(horizon - rounds_done));
  if (stage < 2) return std::nullopt;  // a one-stage session at its horizon
  int more =
      late ? std::max(step,
                      round_up_even(static_cast<int>(std::ceil(policy.late_growth * rounds_done))))
           : step;
  // A tail shorter than half a step would be a look that adds little: it joins this one.
  if (stage - more < std::max(2, more / 2)) more = stage;
  // Position on the stage's own scale [0, 1], then on the session's.
  const double from = late ? (before - c) / (1 - c) : before / c;
  const double on_stage =
      more == stage ? 1.0 : from + (1 - from) * more / static_cast<double>(stage);
  LookRecord l;
  l.rounds = rounds_done + more;
  l.horizon_share = c;
  // Every round the budget affords: all of the information, whatever the stage.
  l.information = more == affordable ? 1.0 : late ? c + (1 - c) * on_stage : c * on_stage;
  const auto increment = [&](SpendingRule rule, SpendingRule late_rule, double alpha) {
    return spent_alpha(rule, late_rule, l.information, alpha, c) -
           spent_alpha(rule, late_rule, before, alpha, c);
  };
  l.alpha = increment(policy.significance, policy.late_significance, policy.alpha);
  l.equivalence_alpha =
      increment(policy.equivalence, policy.late_equivalence, policy.equivalence_alpha);
  return l;
}

AdaptivePlan plan_of(const Results& results) {
  if (results.looks.empty()) return adaptive_plan_for(results.config);
  AdaptivePlan plan;
  for (const LookRecord& l : results.looks) {
    plan.looks.push_back(l.rounds);
    plan.alpha_per_look.push_back(l.alpha);
    plan.equivalence_alpha_per_look.push_back(l.equivalence_alpha);
  }
  plan.keep_size_open = results.looks.front().keeps_size_open;
  return plan;
}

AnalysisOptions look_options(const AdaptivePlan& plan, int look_index) {
  AnalysisOptions options;
  const auto k = static_cast<std::size_t>(look_index);
  if (look_index >= 0 && k < plan.alpha_per_look.size()) {
    options.alpha = plan.alpha_per_look[k];
    // Equivalence is tested at every look too: each look spends its own share of its level.
    options.equivalence_alpha = k < plan.equivalence_alpha_per_look.size()
                                    ? plan.equivalence_alpha_per_look[k]
                                    : options.alpha;
  }
  return options;
}

bool is_decided(const BenchmarkAnalysis& benchmark) {
  if (benchmark.verdict == Verdict::Failed && benchmark.failure == FailureKind::NotMeasured)
    return false;
  return benchmark.verdict != Verdict::Inconclusive;
}

bool size_open_slowdown(const BenchmarkAnalysis& benchmark) {
  return benchmark.verdict == Verdict::Slower && !is_instruction_analysis(benchmark) &&
         reads_at_least(benchmark.change, benchmark.threshold);
}

LookReadings read_looks(const Results& results, const AdaptivePlan& plan, int last_look) {
  const std::size_t n = results.series.size();
  LookReadings out;
  out.decided_at.assign(n, -1);
  out.benchmarks.resize(n);
  const int available = static_cast<int>(analysed_rounds(results).size());
  int previous_rounds = 0;
  int family = 0;
  std::vector<BenchmarkAnalysis> counted;  // the instruction analyses of the first look
  for (int k = 0; k <= last_look && k < static_cast<int>(plan.looks.size()); ++k) {
    std::vector<bool> open(n);
    bool any_open = false;
    for (std::size_t i = 0; i < n; ++i) {
      open[i] = out.decided_at[i] < 0;
      any_open |= open[i];
    }
    if (!any_open && k > 0) break;
    const int rounds = std::min(plan.looks[static_cast<std::size_t>(k)], available);
    // Reading the same rounds again at a later look's level would only spend alpha twice.
    if (k > 0 && rounds <= previous_rounds) break;
    // Every process of the rounds this look reads counts: processes slowed as a whole are
    // named by the session's notes, never left out (core/verdicts/disturbed_runs.hpp).
    const Results snapshot = at_look(results, rounds, open);
    AnalysisOptions options = look_options(plan, k);
    if (k == 0) {
      out.last_analysis = analyse(snapshot, options);
    } else {
      // The open benchmarks were selected by their own earlier rounds, so a BH over them alone
      // would be far more lenient than the first look's BH over all of them (one open benchmark
      // would be tested at the look's full level). Benjamini-Hochberg over the whole family,
      // with the decided benchmarks counted at p = 1, keeps each look's level: that is BH over
      // the open ones at q * open / family.
      const double q = options.alpha;
      int tested = 0;
      for (std::size_t i = 0; i < n; ++i) tested += open[i] ? 1 : 0;
      options.alpha = q * tested / family;
      out.last_analysis = analyse(snapshot, options);
      int with_p = 0;
      for (const BenchmarkAnalysis& b : out.last_analysis.benchmarks) {
        with_p += std::isfinite(b.p) ? 1 : 0;
      }
      if (with_p > 0 && with_p != tested) {
        options.alpha = q * with_p / family;
        out.last_analysis = analyse(snapshot, options);
      }
    }
    // The counts were read at the first look (exact: rounds add nothing to them); a later
    // look's open benchmarks are read beside them as the first look's were, so a benchmark the
    // counts and its code settle is closed at the look that shows it (core/evidence/placement.hpp).
    if (k == 0) {
      for (const BenchmarkAnalysis& b : out.last_analysis.benchmarks)
        if (is_instruction_analysis(b)) counted.push_back(b);
    } else if (!counted.empty()) {
      apply_code_readings(results, out.last_analysis.benchmarks, counted);
    }
    out.look = k;
    out.rounds = rounds;
    out.cut_short = rounds < plan.looks[static_cast<std::size_t>(k)];
    out.decided_per_look.push_back(0);
    std::size_t j = 0;
    for (std::size_t i = 0; i < n; ++i) {
      if (!open[i]) continue;
      const BenchmarkAnalysis& now = out.last_analysis.benchmarks[j++];
      // A slowdown held open for its size that no round measured since (the session stopped
      // running it, or ended) keeps the reading of the look that held it: the same values read
      // again at a smaller level would only lose what they showed.
      if (k > 0 && plan.keep_size_open && size_open_slowdown(out.benchmarks[i]) &&
          now.rounds_used <= out.benchmarks[i].rounds_used) {
        out.decided_at[i] = k - 1;
        ++out.decided_per_look[static_cast<std::size_t>(k - 1)];
        continue;
      }
      out.benchmarks[i] = now;
      // A count is read once, at the first look, whatever it reads: rounds add nothing to it,
      // so one that decides nothing (not repeatable) is not left open for rounds to run, nor
      // counted among the benchmarks the rounds decided.
      const bool counted_series = is_instruction_analysis(now);
      const bool held = plan.keep_size_open && size_open_slowdown(now);
      if (counted_series || (is_decided(now) && !held)) {
        out.decided_at[i] = k;
        if (!counted_series) ++out.decided_per_look.back();
      }
    }
    if (k == 0) {
      // The family: every benchmark that has, or may still get, a p-value.
      for (std::size_t i = 0; i < n; ++i) {
        family += (out.decided_at[i] < 0 || std::isfinite(out.benchmarks[i].p)) ? 1 : 0;
      }
    }
    previous_rounds = rounds;
    if (out.cut_short) break;
  }
  return out;
}

Analysis adaptive_analysis(const Results& results, const AdaptivePlan& plan) {
  const int last = static_cast<int>(plan.looks.size()) - 1;
  if (last < 0) return analyse(results);
  const double alpha = std::accumulate(plan.alpha_per_look.begin(), plan.alpha_per_look.end(), 0.0);
  AnalysisOptions overall;
  overall.alpha = alpha;
  // Suites and run-level notes come from one reading of everything measured; the benchmarks'
  // verdicts come from their own looks.
  Analysis out = analyse(results, overall);
  LookReadings r = read_looks(results, plan, last);
  if (r.look < 0) return out;
  out.benchmarks = std::move(r.benchmarks);
  apply_code_readings(results, out);

  std::vector<double> mdes, label_mdes;
  for (const BenchmarkAnalysis& b : out.benchmarks) {
    if (std::isfinite(b.mde)) mdes.push_back(b.mde);
    if (std::isfinite(b.mde_label)) label_mdes.push_back(b.mde_label);
  }
  out.run_mde = stats::median(mdes);
  out.run_mde_label = stats::median(label_mdes);

  // The benchmarks of identical programs were decided without a round: no look decided them.
  // The note is about the rounds: instruction counts are neither decided nor open in it.
  std::vector<int> decided_per_look = r.decided_per_look;
  int identical = 0;
  int timed = 0;
  for (std::size_t i = 0; i < out.benchmarks.size(); ++i) {
    if (is_instruction_analysis(out.benchmarks[i])) continue;
    ++timed;
    if (!decided_by_identical_programs(out.benchmarks[i])) continue;
    ++identical;
    const int look = i < r.decided_at.size() ? r.decided_at[i] : -1;
    if (look >= 0 && static_cast<std::size_t>(look) < decided_per_look.size())
      --decided_per_look[static_cast<std::size_t>(look)];
  }
  // Nothing was timed, or no analysed round finished (interrupted in the warm-up): no look read
  // a round, and the headline says why.
  if (identical == timed || r.rounds == 0) {
    out.recommendation = recommend(results, out);
    return out;
  }
  std::vector<std::string> counts;
  int decided = identical;
  for (std::size_t k = 0; k < decided_per_look.size(); ++k) {
    if (decided_per_look[k] <= 0) continue;
    decided += decided_per_look[k];
    const int rounds = std::min(plan.looks[k], r.rounds);
    counts.push_back(counts.empty()
                         ? fmt::format("{} decided after {} rounds",
                                       plural(static_cast<std::size_t>(decided_per_look[k]),
                                              "benchmark", "benchmarks"),
                                       rounds)
                         : fmt::format("{} after {}", decided_per_look[k], rounds));
  }
  // Still open at the end: inconclusive, or a slowdown held open for its size (its reading is
  // `slower`, not inconclusive).
  int size_open = 0;
  for (std::size_t i = 0; i < out.benchmarks.size() && i < r.decided_at.size(); ++i)
    if (r.decided_at[i] < 0 && plan.keep_size_open && size_open_slowdown(out.benchmarks[i]))
      ++size_open;
  const int open = timed - decided - size_open;
  // "Adaptive rounds (looks planned at 10, 20, 30 rounds; α 2.5%, 1.7%, 0.83%): 45 benchmarks
  // decided after 10 rounds, 3 after 20; 2 still inconclusive."
  // Recorded looks were scheduled one by one as the budget allowed; older files' were planned.
  std::vector<int> looks_read(
      plan.looks.begin(),
      plan.looks.begin() +
          std::min<std::ptrdiff_t>(static_cast<std::ptrdiff_t>(plan.looks.size()), r.look + 1));
  // A last look the budget cut short read the rounds that ran, not the ones it planned.
  if (!looks_read.empty()) looks_read.back() = std::min(looks_read.back(), r.rounds);
  std::vector<double> alphas_read(
      plan.alpha_per_look.begin(),
      plan.alpha_per_look.begin() + static_cast<std::ptrdiff_t>(looks_read.size()));
  std::string note =
      results.looks.empty()
          ? fmt::format("Adaptive rounds (looks planned at {} rounds; α {}): ",
                        fmt::join(plan.looks, ", "), percent_list(plan.alpha_per_look))
          : fmt::format("Adaptive rounds (looks after {} rounds; α spent over the budget: {}): ",
                        fmt::join(looks_read, ", "), percent_list(alphas_read));
  note += counts.empty() ? "no benchmark decided" : fmt::format("{}", fmt::join(counts, ", "));
  if (open > 0) note += fmt::format("; {} still inconclusive", open);
  if (size_open > 0)
    note += fmt::format("; {} slower with {} size still open", size_open,
                        size_open == 1 ? "its" : "their");
  if (identical > 0)
    note += fmt::format("; {} unchanged without a round (byte-identical programs)", identical);
  out.notes.push_back(note + ".");
  out.recommendation = recommend(results, out);
  return out;
}

namespace {

bool counting_run(const Results& results, const RunRecord& run) {
  for (const SuiteConfig& s : results.config.suites)
    if (run.suite == instruction_suite_name(s.name)) return true;
  return false;
}

}  // namespace

double counting_seconds(const Results& results) {
  // As the session clocked it: the listings and the base counted again have no run records.
  if (results.counting_seconds > 0) return results.counting_seconds;
  double first = 0, last = 0;
  bool any = false;
  for (const RunRecord& run : results.runs) {
    if (!counting_run(results, run)) continue;
    first = any ? std::min(first, run.started) : run.started;
    last = any ? std::max(last, run.started + run.seconds) : run.started + run.seconds;
    any = true;
  }
  return any ? std::max(0.0, last - first) : 0.0;
}

std::string spending_sentence(const Results& results) {
  const double budget = results.config.budget_seconds.value_or(0);
  if (!(budget > 0) || !(results.measuring_seconds > 0)) return "";
  double builds = 0, rounds = 0;
  for (const BuildResult& b : results.builds) builds += b.seconds;
  for (const RunRecord& run : results.runs)
    if (!counting_run(results, run)) rounds += run.seconds;
  const double counting = counting_seconds(results);
  int analysed = 0;
  for (const RoundPlan& p : results.plan)
    if (p.index < results.rounds_done && !p.warmup) ++analysed;
  double profiles = 0;
  for (const BenchmarkProfile& p : results.profiles) profiles += p.seconds;
  const double own =
      std::max(0.0, results.measuring_seconds - builds - counting - rounds - profiles);
  // Counting nobody asked for has a cap: "instruction counts 6m48s of up to 7m30s", so a reader
  // sees what the rounds were left (the log says why the cap is what it is).
  const std::string share = results.counting_share_seconds > 0
                                ? " of up to " + format_duration(results.counting_share_seconds)
                                : std::string();
  return fmt::format(
      " Spent {} of the {} budget: builds {}{}, {} {}{}, benchpr's own work (copies, looks) {}.",
      format_duration(results.measuring_seconds), format_duration(budget), format_duration(builds),
      counting > 0 ? ", instruction counts " + format_duration(counting) + share : std::string(),
      plural(static_cast<std::size_t>(analysed), "round", "rounds") +
          (analysed != results.rounds_done ? " and the warm-up" : ""),
      format_duration(rounds),
      profiles > 0 ? ", profiles " + format_duration(profiles) : std::string(),
      format_duration(own));
}

}  // namespace benchpr
