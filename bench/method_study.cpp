// Monte Carlo study of benchpr's method against what people do by hand. Simulates pull requests
// with known true changes under several kinds of machine noise, runs each design on the same
// number of benchmark runs per side, and prints markdown tables: false alarms with no change,
// power at 1/2/5% changes, confidence interval coverage and false "unchanged" calls.
// Deterministic (fixed seeds, std::mt19937_64). Usage: method_study [--quick]
#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <optional>
#include <random>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "benchpr/core/adaptive/adaptive.hpp"
#include "benchpr/core/adaptive/adaptive_step.hpp"
#include "benchpr/core/adaptive/undecided.hpp"
#include "benchpr/core/evidence/instruction_analysis.hpp"
#include "benchpr/core/model/model.hpp"
#include "benchpr/core/model/placement_rotation.hpp"
#include "benchpr/core/plan/schedule.hpp"
#include "benchpr/core/stats/stats.hpp"
#include "benchpr/core/verdicts/analysis.hpp"
#include "benchpr/core/verdicts/disturbed_runs.hpp"
#include "benchpr/core/wording/wording.hpp"

namespace {

using benchpr::Verdict;

constexpr int kRounds = 10;     // analysed rounds of the fixed design; runs per side elsewhere
constexpr int kWarmup = 1;      // one warm-up round (one warm-up run per side when sequential)
constexpr int kMaxRounds = 30;  // adaptive: looks at 10, 20, 30
constexpr int kSlotsPerSession = 2 * (kRounds + kWarmup);  // runs in a fixed-design session
constexpr int kBenchmarks = 50;
constexpr int kChanged = 5;
constexpr double kThreshold = 0.02;
constexpr double kNoiseSd = 0.01;
constexpr double kAlpha = 0.05;
constexpr std::array<double, 3> kEffects{0.01, 0.02, 0.05};

// ------------------------------------------------------------------------------------------
// Noise models. Time runs in "slots": one slot per process run, in the order they run.

enum class Tail { Normal, StudentT3, Outliers };

struct NoiseModel {
  const char* name;
  double drift;          // machine slows down by this much over one fixed-design session
  double step;           // machine slows down by this much from the middle of the session on
  double order_penalty;  // the process that runs second is this much slower
  Tail tail;
  // Noise SD per benchmark, log-uniform in [sd_lo, sd_hi]; 0, 0: kNoiseSd for every benchmark.
  double sd_lo;
  double sd_hi;
  int noisy;    // benchmarks 5, 15, 25, ... (never a changed one) have noisy_factor x the SD
  double cold;  // the first analysed round is this much slower on both sides
  double noisy_factor = 10;
  // Bimodal runs: each run of each benchmark lands in a slow mode, this much slower, with
  // probability mode_share (code layout, frequency, a cache that fits or not), on both sides.
  double mode_share = 0;
  double mode_shift = 0;
  // The PR's runs land in the slow mode with this probability instead (negative: mode_share):
  // a pull request that moves runs between modes.
  double head_mode_share = -1;
  // Processes slowed as a whole (a neighbour's burst, a VM's stolen cycles): each side's process
  // of a round is, with probability burst_share, slower in every benchmark by one shift drawn
  // log-uniform in [burst_lo, burst_hi]. head_burst_share (negative: burst_share) is the PR's:
  // above burst_share it is a PR that slows some of its own processes as a whole.
  double burst_share = 0;
  double head_burst_share = -1;
  double burst_lo = 0.05;
  double burst_hi = 0.5;
};

constexpr std::array<NoiseModel, 9> kModels{{
    {"plain 1% noise", 0, 0, 0, Tail::Normal, 0, 0, 0, 0},
    {"5% linear drift", 0.05, 0, 0, Tail::Normal, 0, 0, 0, 0},
    {"5% mid-session step", 0, 0.05, 0, Tail::Normal, 0, 0, 0, 0},
    {"2% second-run penalty", 0, 0, 0.02, Tail::Normal, 0, 0, 0, 0},
    {"heavy tails: t(3), SD 1%", 0, 0, 0, Tail::StudentT3, 0, 0, 0, 0},
    {"heavy tails: 5% outliers ×10", 0, 0, 0, Tail::Outliers, 0, 0, 0, 0},
    {"noise spread 0.5–2%", 0, 0, 0, Tail::Normal, 0.005, 0.02, 0, 0},
    {"noise spread 0.2–5%", 0, 0, 0, Tail::Normal, 0.002, 0.05, 0, 0},
    {"3 of 50 benchmarks ×10 noise", 0, 0, 0, Tail::Normal, 0, 0, 3, 0},
}};

constexpr double kSlowDrift = 0.002 * (kSlotsPerSession - 1) / 2;  // 0.2% per round

// Drift keeps its rate past the fixed session (adaptive sessions run longer); the step happens
// once, halfway through the fixed session.
double machine_log_factor(const NoiseModel& m, int slot) {
  double f = std::log1p(m.drift) * slot / (kSlotsPerSession - 1);
  if (slot >= kSlotsPerSession / 2) f += std::log1p(m.step);
  return f;
}

double draw_noise(const NoiseModel& m, double noise_sd, std::mt19937_64& rng, bool head = false) {
  std::normal_distribution<double> normal(0, 1);
  if (m.mode_share > 0) {
    // Drawn only here, so the other models keep their random streams.
    std::uniform_real_distribution<double> u(0, 1);
    const double share = head && m.head_mode_share >= 0 ? m.head_mode_share : m.mode_share;
    const double mode = u(rng) < share ? std::log1p(m.mode_shift) : 0;
    return mode + noise_sd * normal(rng);
  }
  switch (m.tail) {
    case Tail::Normal:
      return noise_sd * normal(rng);
    case Tail::StudentT3: {
      std::student_t_distribution<double> t3(3);
      return noise_sd / std::sqrt(3.0) * t3(rng);  // t(3) has variance 3: SD stays 1%
    }
    case Tail::Outliers: {
      std::uniform_real_distribution<double> u(0, 1);
      const double sd = u(rng) < 0.05 ? 10 * noise_sd : noise_sd;
      return sd * normal(rng);
    }
  }
  return 0;
}

// The benchmark's noise SD. Draws from rng only for models with a spread, so the other models
// see the same random stream as before the spread models existed.
double noise_sd_of(const NoiseModel& m, int benchmark, std::mt19937_64& rng) {
  double sd = kNoiseSd;
  if (m.sd_hi > 0) {
    std::uniform_real_distribution<double> u(std::log(m.sd_lo), std::log(m.sd_hi));
    sd = std::exp(u(rng));
  }
  if (benchmark % 10 == 5 && benchmark / 10 < m.noisy) sd *= m.noisy_factor;
  return sd;
}

// ------------------------------------------------------------------------------------------
// One simulated pull request: every benchmark's run values under each design, from the same
// draws, so the designs differ only in when each run happens and how it is analysed.

struct Session {
  std::vector<benchpr::RoundPlan> plan;  // make_schedule(kMaxRounds, kWarmup, seed)
  std::vector<double> true_change;       // per benchmark, fraction (0 = unchanged)
  // [benchmark][plan index]: interleaved values; [benchmark][k], k = 0 warm-up: sequential.
  std::vector<std::vector<double>> base, head, seq_base, seq_head;
};

Session simulate(const NoiseModel& m, int benchmarks, const std::vector<double>& true_change,
                 std::uint64_t seed, int analysed_rounds = kMaxRounds) {
  Session s;
  s.plan = benchpr::make_schedule(analysed_rounds, kWarmup, seed);
  s.true_change = true_change;
  std::mt19937_64 rng(seed ^ 0x9e3779b97f4a7c15ULL);
  std::uniform_real_distribution<double> level(std::log(10.0), std::log(1e6));  // 10 ns .. 1 ms
  const std::size_t rounds = s.plan.size();
  // Whole-process shifts, shared by every benchmark of the round's process; drawn from a stream
  // of their own, so the other models keep theirs.
  std::vector<double> burst_base(rounds, 0.0), burst_head(rounds, 0.0);
  const double head_burst = m.head_burst_share >= 0 ? m.head_burst_share : m.burst_share;
  if (m.burst_share > 0 || head_burst > 0) {
    std::mt19937_64 bursts(seed ^ 0xb0b5b0b5b0b5ULL);
    std::uniform_real_distribution<double> u(0, 1);
    std::uniform_real_distribution<double> shift(std::log1p(m.burst_lo), std::log1p(m.burst_hi));
    for (std::size_t r = 0; r < rounds; ++r) {
      if (u(bursts) < m.burst_share) burst_base[r] = shift(bursts);
      if (u(bursts) < head_burst) burst_head[r] = shift(bursts);
    }
  }
  for (int b = 0; b < benchmarks; ++b) {
    const double true_log = level(rng);
    const double effect = std::log1p(true_change[static_cast<std::size_t>(b)]);
    const double noise_sd = noise_sd_of(m, b, rng);
    std::vector<double> eb(rounds), eh(rounds);
    for (std::size_t r = 0; r < rounds; ++r) {
      eb[r] = draw_noise(m, noise_sd, rng) + burst_base[r];
      eh[r] = draw_noise(m, noise_sd, rng, true) + burst_head[r];
    }
    // A cold first analysed round (plan index kWarmup; the sequential designs' first run).
    eb[kWarmup] += std::log1p(m.cold);
    eh[kWarmup] += std::log1p(m.cold);
    std::vector<double> base(rounds), head(rounds);
    for (std::size_t r = 0; r < rounds; ++r) {
      const bool head_second = s.plan[r].head_second();
      const int slot_base = 2 * static_cast<int>(r) + (head_second ? 0 : 1);
      const int slot_head = 2 * static_cast<int>(r) + (head_second ? 1 : 0);
      const double pen_base = head_second ? 0 : std::log1p(m.order_penalty);
      const double pen_head = head_second ? std::log1p(m.order_penalty) : 0;
      base[r] = std::exp(true_log + machine_log_factor(m, slot_base) + pen_base + eb[r]);
      head[r] = std::exp(true_log + effect + machine_log_factor(m, slot_head) + pen_head + eh[r]);
    }
    // Sequential: base's warm-up and 10 runs, then the PR's; the PR always runs second.
    const int per_side = kRounds + kWarmup;
    std::vector<double> sb(per_side), sh(per_side);
    for (int k = 0; k < per_side; ++k) {
      const auto ku = static_cast<std::size_t>(k);
      sb[ku] = std::exp(true_log + machine_log_factor(m, k) + eb[ku]);
      sh[ku] = std::exp(true_log + effect + machine_log_factor(m, per_side + k) +
                        std::log1p(m.order_penalty) + eh[ku]);
    }
    s.base.push_back(std::move(base));
    s.head.push_back(std::move(head));
    s.seq_base.push_back(std::move(sb));
    s.seq_head.push_back(std::move(sh));
  }
  return s;
}

// ------------------------------------------------------------------------------------------
// The alternatives.

// Exact null distribution of the Mann-Whitney U for two samples of n (no ties: continuous data).
class MannWhitneyExact {
 public:
  explicit MannWhitneyExact(int n) : n_(n) {
    // count[i][j][u]: arrangements of i x's and j y's with u (x > y) pairs.
    const int umax = n * n;
    std::vector<std::vector<std::vector<double>>> count(
        n + 1, std::vector<std::vector<double>>(n + 1, std::vector<double>(umax + 1, 0)));
    for (int i = 0; i <= n; ++i)
      for (int j = 0; j <= n; ++j) {
        if (i == 0 || j == 0) {
          count[i][j][0] = 1;
          continue;
        }
        for (int u = 0; u <= umax; ++u) {
          // The largest value is an x (beats all j y's) or a y.
          count[i][j][u] = (u >= j ? count[i - 1][j][u - j] : 0) + count[i][j - 1][u];
        }
      }
    double total = 0;
    for (double c : count[n][n]) total += c;
    cdf_.resize(umax + 1);
    double acc = 0;
    for (int u = 0; u <= umax; ++u) cdf_[u] = (acc += count[n][n][u]) / total;
  }

  // Two-sided p-value, as scipy.stats.mannwhitneyu(method="exact").
  double p(const std::vector<double>& x, const std::vector<double>& y) const {
    int u = 0;
    for (double a : x)
      for (double b : y) u += a > b;
    const int lo = std::min(u, n_ * n_ - u);
    return std::min(1.0, 2 * cdf_[static_cast<std::size_t>(lo)]);
  }

 private:
  int n_;
  std::vector<double> cdf_;
};

struct Test {
  double p = 1;
  double change = 0;  // estimate, fraction
};

Test welch_on_logs(const std::vector<double>& x, const std::vector<double>& y) {
  auto moments = [](const std::vector<double>& v, double* mean, double* var) {
    double s = 0;
    for (double a : v) s += std::log(a);
    *mean = s / v.size();
    double ss = 0;
    for (double a : v) ss += (std::log(a) - *mean) * (std::log(a) - *mean);
    *var = ss / (v.size() - 1);
  };
  double mx, vx, my, vy;
  moments(x, &mx, &vx);
  moments(y, &my, &vy);
  const double nx = static_cast<double>(x.size()), ny = static_cast<double>(y.size());
  const double a = vx / nx, b = vy / ny;
  const double se = std::sqrt(a + b);
  const double df = (a + b) * (a + b) / (a * a / (nx - 1) + b * b / (ny - 1));
  return {benchpr::stats::t_two_sided_p((my - mx) / se, df), std::expm1(my - mx)};
}

// ------------------------------------------------------------------------------------------
// Tallies.

enum Design { kSequentialMw, kSequentialMwBh, kInterleavedWelch, kBenchprFixed, kBenchprAdaptive };
constexpr int kDesigns = 5;
constexpr std::array<const char*, kDesigns> kDesignNames{
    "(a) sequential, MWU", "(b) sequential, MWU+BH", "(c) interleaved, Welch+BH",
    "(d) benchpr 10 rounds", "(e) benchpr adaptive"};

// One benchmark's reading under one design, in the terms every design shares.
struct Call {
  bool significant = false;  // at the design's level (after BH where the design uses it)
  double change = 0;         // estimate, fraction
  bool alarm = false;        // significant and |change| >= threshold (regression/improvement)
  bool unchanged = false;    // benchpr only: equivalence shown
  bool has_ci = false;
  double ci_low = 0, ci_high = 0;
  int kind = 0;  // benchpr only: index into kKinds
};

// How benchpr labelled a benchmark, with inconclusive split by its reason.
constexpr std::array<const char*, 4> kKinds{"significant", "unchanged", "inconclusive: order",
                                            "inconclusive: no signal"};

struct Rate {
  long hits = 0, total = 0;
  void add(bool hit) {
    hits += hit;
    ++total;
  }
  double value() const { return total ? static_cast<double>(hits) / total : NAN; }
};

std::string pct(const Rate& r) {
  if (r.total == 0) return "–";
  return fmt::format("{:.1f}%", 100 * r.value());
}

Call from_benchpr(const benchpr::BenchmarkAnalysis& a) {
  Call c;
  c.significant = a.verdict == Verdict::Regression || a.verdict == Verdict::Improvement ||
                  a.verdict == Verdict::Slower || a.verdict == Verdict::Faster;
  c.alarm = a.verdict == Verdict::Regression || a.verdict == Verdict::Improvement;
  c.unchanged = a.verdict == Verdict::Unchanged;
  c.change = std::isfinite(a.change) ? a.change : 0;
  c.has_ci = std::isfinite(a.ci_low) && std::isfinite(a.ci_high);
  c.ci_low = a.ci_low;
  c.ci_high = a.ci_high;
  if (c.significant) {
    c.kind = 0;
  } else if (c.unchanged) {
    c.kind = 1;
  } else if (a.has_flag(benchpr::BenchmarkFlag::Order)) {
    c.kind = 2;
  } else {
    c.kind = 3;
  }
  return c;
}

benchpr::Results to_results(const Session& s, int plan_rounds) {
  benchpr::Results r;
  r.config.rounds = plan_rounds;
  r.config.warmup_rounds = kWarmup;
  r.config.threshold = kThreshold;
  r.plan.assign(s.plan.begin(), s.plan.begin() + kWarmup + plan_rounds);
  r.rounds_done = static_cast<int>(r.plan.size());
  r.complete = true;
  for (std::size_t b = 0; b < s.base.size(); ++b) {
    benchpr::BenchmarkSeries series;
    series.suite = "study";
    series.name = fmt::format("BM_{}", b);
    series.unit = "ns";
    series.base = s.base[b];
    series.head = s.head[b];
    r.series.push_back(std::move(series));
  }
  return r;
}

struct SessionCalls {
  std::array<std::vector<Call>, kDesigns> calls;  // [design][benchmark]
  int adaptive_rounds = 0;
};

SessionCalls analyse_session(const Session& s, const MannWhitneyExact& mw,
                             const benchpr::AdaptivePlan& adaptive, bool check_adaptive) {
  SessionCalls out;
  const std::size_t n = s.base.size();

  // (a), (b): sequential samples, warm-up run dropped; estimate = ratio of medians.
  std::vector<double> p_seq(n);
  std::vector<double> change_seq(n);
  for (std::size_t b = 0; b < n; ++b) {
    std::vector<double> x(s.seq_base[b].begin() + kWarmup, s.seq_base[b].end());
    std::vector<double> y(s.seq_head[b].begin() + kWarmup, s.seq_head[b].end());
    p_seq[b] = mw.p(y, x);
    change_seq[b] = benchpr::stats::median(y) / benchpr::stats::median(x) - 1;
  }
  const std::vector<double> p_seq_bh = benchpr::stats::benjamini_hochberg(p_seq);
  // (c): the interleaved rounds of the fixed design, as two unpaired samples.
  std::vector<double> p_int(n), change_int(n);
  for (std::size_t b = 0; b < n; ++b) {
    std::vector<double> x, y;
    for (int r = kWarmup; r < kWarmup + kRounds; ++r) {
      x.push_back(s.base[b][static_cast<std::size_t>(r)]);
      y.push_back(s.head[b][static_cast<std::size_t>(r)]);
    }
    const Test t = welch_on_logs(x, y);
    p_int[b] = t.p;
    change_int[b] = t.change;
  }
  const std::vector<double> p_int_bh = benchpr::stats::benjamini_hochberg(p_int);
  auto simple = [](double p, double change) {
    Call c;
    c.significant = p <= kAlpha;
    c.change = change;
    c.alarm = c.significant && std::fabs(change) >= kThreshold;
    return c;
  };
  for (std::size_t b = 0; b < n; ++b) {
    out.calls[kSequentialMw].push_back(simple(p_seq[b], change_seq[b]));
    out.calls[kSequentialMwBh].push_back(simple(p_seq_bh[b], change_seq[b]));
    out.calls[kInterleavedWelch].push_back(simple(p_int_bh[b], change_int[b]));
  }

  // (d): benchpr, fixed 10 rounds.
  const benchpr::Analysis fixed = benchpr::analyse(to_results(s, kRounds));
  for (const auto& a : fixed.benchmarks) out.calls[kBenchprFixed].push_back(from_benchpr(a));

  // (e): benchpr adaptive with no time limit. Replaying the looks over all 30 simulated rounds
  // stops where the runner would have: when nothing is open, or at the last look.
  benchpr::Results results = to_results(s, kMaxRounds);
  const benchpr::LookReadings looks =
      benchpr::read_looks(results, adaptive, static_cast<int>(adaptive.looks.size()) - 1);
  out.adaptive_rounds = looks.rounds;
  for (const auto& a : looks.benchmarks) out.calls[kBenchprAdaptive].push_back(from_benchpr(a));
  if (check_adaptive) {
    // The final reading must agree with the replay.
    const benchpr::Analysis final = benchpr::adaptive_analysis(results, adaptive);
    for (std::size_t b = 0; b < n; ++b) {
      if (final.benchmarks[b].verdict != looks.benchmarks[b].verdict)
        throw std::logic_error("adaptive: final verdicts differ from the replay");
    }
  }
  return out;
}

// ------------------------------------------------------------------------------------------
// Scenarios and their tallies.

struct ModelTally {
  // A/A, 50 unchanged benchmarks.
  std::array<Rate, kDesigns> aa_any_alarm, aa_any_significant, aa_bench_alarm;
  std::array<Rate, kDesigns> aa_unchanged, aa_coverage;
  double aa_rounds = 0;
  // Per effect: PR of 50 with 5 changed, and a one-benchmark suite.
  std::array<std::array<Rate, kDesigns>, kEffects.size()> pr_power, single_power;
  std::array<std::array<Rate, kDesigns>, kEffects.size()> single_coverage, single_unchanged;
  std::array<std::array<Rate, kDesigns>, kEffects.size()> pr_unchanged;
  std::array<double, kEffects.size()> pr_rounds{}, single_rounds{};
  // Label shares for (d) and (e): A/A benchmarks, and the one-benchmark suite at +2%.
  std::array<std::array<Rate, kKinds.size()>, 2> aa_kinds, single2_kinds;
};

void add_kind(std::array<Rate, kKinds.size()>& rates, int kind) {
  for (std::size_t k = 0; k < rates.size(); ++k) rates[k].add(static_cast<int>(k) == kind);
}

bool detected(const Call& c, double true_change) {
  return c.significant && (true_change > 0 ? c.change > 0 : c.change < 0);
}

bool covers(const Call& c, double true_change) {
  return c.has_ci && c.ci_low <= true_change && true_change <= c.ci_high;
}

std::uint64_t seed_of(std::size_t model, int scenario, int i) {
  return 0x5eed0000ULL + model * 1'000'003ULL + static_cast<std::uint64_t>(scenario) * 100'003ULL +
         static_cast<std::uint64_t>(i);
}

ModelTally run_model(std::size_t model_index, int aa_prs, int pr_prs, int single_prs,
                     const MannWhitneyExact& mw, const benchpr::AdaptivePlan& adaptive) {
  const NoiseModel& m = kModels[model_index];
  ModelTally t;
  long rounds_sum = 0;
  for (int i = 0; i < aa_prs; ++i) {
    const Session s =
        simulate(m, kBenchmarks, std::vector<double>(kBenchmarks, 0.0), seed_of(model_index, 0, i));
    const SessionCalls sc = analyse_session(s, mw, adaptive, i == 0);
    rounds_sum += sc.adaptive_rounds;
    for (int d = 0; d < kDesigns; ++d) {
      bool any_alarm = false, any_sig = false;
      for (const Call& c : sc.calls[d]) {
        any_alarm |= c.alarm;
        any_sig |= c.significant;
        t.aa_bench_alarm[d].add(c.alarm);
        if (d >= kBenchprFixed) {
          t.aa_unchanged[d].add(c.unchanged);
          t.aa_coverage[d].add(covers(c, 0));
          add_kind(t.aa_kinds[static_cast<std::size_t>(d - kBenchprFixed)], c.kind);
        }
      }
      t.aa_any_alarm[d].add(any_alarm);
      t.aa_any_significant[d].add(any_sig);
    }
  }
  t.aa_rounds = aa_prs ? static_cast<double>(rounds_sum) / aa_prs : NAN;

  for (std::size_t e = 0; e < kEffects.size(); ++e) {
    const double effect = kEffects[e];
    std::vector<double> changes(kBenchmarks, 0.0);
    for (int b = 0; b < kChanged; ++b) changes[static_cast<std::size_t>(b * 10)] = effect;
    rounds_sum = 0;
    for (int i = 0; i < pr_prs; ++i) {
      const Session s =
          simulate(m, kBenchmarks, changes, seed_of(model_index, 1 + static_cast<int>(e), i));
      const SessionCalls sc = analyse_session(s, mw, adaptive, i == 0);
      rounds_sum += sc.adaptive_rounds;
      for (int d = 0; d < kDesigns; ++d)
        for (std::size_t b = 0; b < changes.size(); ++b) {
          if (changes[b] == 0) continue;
          t.pr_power[e][d].add(detected(sc.calls[d][b], effect));
          if (d >= kBenchprFixed) t.pr_unchanged[e][d].add(sc.calls[d][b].unchanged);
        }
    }
    t.pr_rounds[e] = pr_prs ? static_cast<double>(rounds_sum) / pr_prs : NAN;
    rounds_sum = 0;
    for (int i = 0; i < single_prs; ++i) {
      const Session s = simulate(m, 1, {effect}, seed_of(model_index, 10 + static_cast<int>(e), i));
      const SessionCalls sc = analyse_session(s, mw, adaptive, i == 0);
      rounds_sum += sc.adaptive_rounds;
      for (int d = 0; d < kDesigns; ++d) {
        const Call& c = sc.calls[d][0];
        t.single_power[e][d].add(detected(c, effect));
        if (d >= kBenchprFixed) {
          t.single_coverage[e][d].add(covers(c, effect));
          t.single_unchanged[e][d].add(c.unchanged);
          if (e == 1)
            add_kind(t.single2_kinds[static_cast<std::size_t>(d - kBenchprFixed)], c.kind);
        }
      }
    }
    t.single_rounds[e] = single_prs ? static_cast<double>(rounds_sum) / single_prs : NAN;
  }
  return t;
}

// ------------------------------------------------------------------------------------------
// Output.

void print_header(const std::vector<std::string>& columns) {
  std::string head = "|", rule = "|";
  for (std::size_t i = 0; i < columns.size(); ++i) {
    head += " " + columns[i] + " |";
    rule += i == 0 ? ":--|" : "--:|";
  }
  fmt::print("{}\n{}\n", head, rule);
}

std::vector<std::string> design_columns(const char* first) {
  std::vector<std::string> c{first};
  for (const char* d : kDesignNames) c.emplace_back(d);
  return c;
}

void print_tables(const std::vector<ModelTally>& tallies, int aa_prs, int pr_prs, int single_prs) {
  fmt::print("### 1. A/A: {} pull requests, 50 unchanged benchmarks each\n\n", aa_prs);
  fmt::print(
      "Share of pull requests with **any false alarm** (a change ≥ 2% called significant; "
      "for benchpr a `regression` or `improvement`):\n\n");
  print_header(design_columns("noise model"));
  for (std::size_t i = 0; i < tallies.size(); ++i) {
    std::string row = fmt::format("| {} |", kModels[i].name);
    for (int d = 0; d < kDesigns; ++d) row += " " + pct(tallies[i].aa_any_alarm[d]) + " |";
    fmt::print("{}\n", row);
  }
  fmt::print(
      "\nShare of pull requests with **any significant change**, whatever its size "
      "(benchpr: also `slower`/`faster`):\n\n");
  print_header(design_columns("noise model"));
  for (std::size_t i = 0; i < tallies.size(); ++i) {
    std::string row = fmt::format("| {} |", kModels[i].name);
    for (int d = 0; d < kDesigns; ++d) row += " " + pct(tallies[i].aa_any_significant[d]) + " |";
    fmt::print("{}\n", row);
  }
  fmt::print(
      "\nbenchpr's other A/A readings: benchmarks called `unchanged` (equivalence within "
      "±2% shown), 95% CI coverage of the true 0, and analysed rounds per pull request "
      "(adaptive):\n\n");
  print_header({"noise model", "(d) unchanged", "(e) unchanged", "(d) CI coverage",
                "(e) CI coverage", "(e) mean rounds"});
  for (std::size_t i = 0; i < tallies.size(); ++i) {
    const ModelTally& t = tallies[i];
    fmt::print("| {} | {} | {} | {} | {} | {:.1f} |\n", kModels[i].name,
               pct(t.aa_unchanged[kBenchprFixed]), pct(t.aa_unchanged[kBenchprAdaptive]),
               pct(t.aa_coverage[kBenchprFixed]), pct(t.aa_coverage[kBenchprAdaptive]),
               t.aa_rounds);
  }

  auto power_table = [&](const char* title, int prs, const auto& power, const auto& rounds) {
    fmt::print("\n### {} ({} simulated pull requests per row)\n\n", title, prs);
    fmt::print(
        "Share of truly changed benchmarks detected: significant in the right direction "
        "(benchpr: `regression` or `slower` for a slowdown).\n\n");
    std::vector<std::string> cols = design_columns("noise model");
    cols.insert(cols.begin() + 1, "true change");
    cols.emplace_back("(e) mean rounds");
    print_header(cols);
    for (std::size_t i = 0; i < tallies.size(); ++i)
      for (std::size_t e = 0; e < kEffects.size(); ++e) {
        std::string row =
            fmt::format("| {} | +{:.0f}% |", e == 0 ? kModels[i].name : "", 100 * kEffects[e]);
        for (int d = 0; d < kDesigns; ++d) row += " " + pct(power(tallies[i])[e][d]) + " |";
        row += fmt::format(" {:.1f} |", rounds(tallies[i])[e]);
        fmt::print("{}\n", row);
      }
  };
  power_table(
      "2. Power in a pull request of 50 benchmarks, 5 of them changed", pr_prs,
      [](const ModelTally& t) -> const auto& { return t.pr_power; },
      [](const ModelTally& t) -> const auto& { return t.pr_rounds; });
  power_table(
      "3. Power in a one-benchmark suite", single_prs,
      [](const ModelTally& t) -> const auto& { return t.single_power; },
      [](const ModelTally& t) -> const auto& { return t.single_rounds; });

  fmt::print(
      "\n### 4. benchpr's 95% CI coverage and false \"unchanged\" calls, one-benchmark "
      "suite ({} pull requests per cell)\n\n",
      single_prs);
  fmt::print(
      "Coverage: share of 95% CIs that contain the true change. False unchanged: share "
      "called `unchanged` although the true change is at least the 2% threshold (50 "
      "benchmarks: the 5 changed ones of table 2).\n\n");
  print_header({"noise model", "design", "coverage +1%", "coverage +2%", "coverage +5%",
                "false unchanged +2%", "false unchanged +5%", "… in PR of 50, +2%"});
  for (std::size_t i = 0; i < tallies.size(); ++i)
    for (int d : {kBenchprFixed, kBenchprAdaptive}) {
      const ModelTally& t = tallies[i];
      fmt::print("| {} | {} | {} | {} | {} | {} | {} | {} |\n",
                 d == kBenchprFixed ? kModels[i].name : "", d == kBenchprFixed ? "(d)" : "(e)",
                 pct(t.single_coverage[0][d]), pct(t.single_coverage[1][d]),
                 pct(t.single_coverage[2][d]), pct(t.single_unchanged[1][d]),
                 pct(t.single_unchanged[2][d]), pct(t.pr_unchanged[1][d]));
    }

  fmt::print("\n### 5. What benchpr called the benchmarks\n\n");
  fmt::print(
      "Shares of all benchmarks of the A/A pull requests (true change 0) and of the "
      "one-benchmark suite at +2%, by label; inconclusive split by its reason.\n\n");
  std::vector<std::string> cols{"noise model", "scenario"};
  for (const char* k : kKinds) cols.emplace_back(k);
  print_header(cols);
  for (std::size_t i = 0; i < tallies.size(); ++i)
    for (std::size_t d = 0; d < 2; ++d)
      for (int scenario = 0; scenario < 2; ++scenario) {
        const auto& rates = scenario == 0 ? tallies[i].aa_kinds[d] : tallies[i].single2_kinds[d];
        std::string row =
            fmt::format("| {} | {} {} |", d == 0 && scenario == 0 ? kModels[i].name : "",
                        d == 0 ? "(d)" : "(e)", scenario == 0 ? "A/A" : "+2%");
        for (const Rate& r : rates) row += " " + pct(r) + " |";
        fmt::print("{}\n", row);
      }
}

// ------------------------------------------------------------------------------------------
// Targets of the fixed design (d): power, false alarms, labels at the threshold, the stated
// MDE and the cold-round flag, each under plain noise, slow drift, drift and an order penalty.
// Only benchpr's fixed 10 rounds are read here.

constexpr std::array<double, 9> kCurve{0, 0.25, 0.5, 0.75, 1, 1.25, 1.5, 2, 2.5};  // × threshold

struct Variant {
  const char* name;
  double drift;
  double order_penalty;
};
constexpr std::array<Variant, 4> kVariants{{{"plain", 0, 0},
                                            {"0.2%/round drift", kSlowDrift, 0},
                                            {"5% drift", 0.05, 0},
                                            {"2% order penalty", 0, 0.02}}};

NoiseModel with_variant(NoiseModel m, const Variant& v) {
  m.drift = v.drift;
  m.order_penalty = v.order_penalty;
  return m;
}

bool is_alarm(Verdict v) { return v == Verdict::Regression || v == Verdict::Improvement; }
bool is_significant(Verdict v) {
  return is_alarm(v) || v == Verdict::Slower || v == Verdict::Faster;
}
bool has_cold_flag(const benchpr::BenchmarkAnalysis& a) {
  return a.has_flag(benchpr::BenchmarkFlag::ColdRound);
}

// The analysis options tables 6-9 read with: the defaults, or a table 10 prior (--fixed-prior N).
benchpr::AnalysisOptions g_fixed_options;

benchpr::Analysis read_fixed(const NoiseModel& m, const std::vector<double>& changes,
                             std::uint64_t seed) {
  return benchpr::analyse(to_results(simulate(m, kBenchmarks, changes, seed), kRounds),
                          g_fixed_options);
}

std::vector<double> five_changed(double change) {
  std::vector<double> changes(kBenchmarks, 0.0);
  for (int b = 0; b < kChanged; ++b) changes[static_cast<std::size_t>(b * 10)] = change;
  return changes;
}

struct TargetTally {
  Rate power2, power2_spread;           // +2%, 5 of 50 changed: regression or slower
  Rate aa_any_alarm, aa_any_sig;        // A/A pull requests
  Rate all_half_any_regression;         // all 50 truly +1%: any regression
  Rate aa_coverage, coverage2;          // 95% CIs: A/A benchmarks; the changed ones at +2%
  double stated_mde = NAN;              // median over A/A pull requests of the footer's MDE
  Rate power_at_mde;                    // 5 of 50 changed by the stated MDE: regression or slower
  Rate half_label, one_and_half_label;  // 5 of 50 changed by 1% / 3%: regression
  Rate cold_flags;                      // A/A benchmarks flagged cold-round
  // The footer's size found as a `regression` (the label that blocks merging), and the share
  // of 5 of 50 benchmarks changed by that much that are labelled `regression`.
  double stated_label_mde = NAN;
  Rate label_power_at_label_mde;
};

TargetTally run_targets(const Variant& v, int aa_prs, int prs) {
  TargetTally t;
  const NoiseModel plain = with_variant(kModels[0], v);
  const NoiseModel spread = with_variant(kModels[6], v);
  const auto seed = [&](int scenario, int i) {
    return 0x7a46e7000000ULL + static_cast<std::uint64_t>(scenario) * 1'000'003ULL +
           static_cast<std::uint64_t>(i);
  };
  std::vector<double> mdes, label_mdes;
  for (int i = 0; i < aa_prs; ++i) {
    const benchpr::Analysis a = read_fixed(plain, five_changed(0), seed(0, i));
    bool any_alarm = false, any_sig = false;
    for (const auto& b : a.benchmarks) {
      any_alarm |= is_alarm(b.verdict);
      any_sig |= is_significant(b.verdict);
      t.aa_coverage.add(b.ci_low <= 0 && 0 <= b.ci_high);
      t.cold_flags.add(has_cold_flag(b));
    }
    t.aa_any_alarm.add(any_alarm);
    t.aa_any_sig.add(any_sig);
    if (std::isfinite(a.run_mde)) mdes.push_back(a.run_mde);
    if (std::isfinite(a.run_mde_label)) label_mdes.push_back(a.run_mde_label);
  }
  t.stated_mde = benchpr::stats::median(mdes);
  t.stated_label_mde = benchpr::stats::median(label_mdes);
  auto detected = [](const benchpr::BenchmarkAnalysis& b) {
    return b.verdict == Verdict::Regression || b.verdict == Verdict::Slower;
  };
  for (int i = 0; i < prs; ++i) {
    const auto changes = five_changed(kThreshold);
    const benchpr::Analysis a = read_fixed(plain, changes, seed(1, i));
    const benchpr::Analysis b = read_fixed(spread, changes, seed(2, i));
    const benchpr::Analysis all =
        read_fixed(plain, std::vector<double>(kBenchmarks, 0.01), seed(3, i));
    const benchpr::Analysis mde = read_fixed(plain, five_changed(t.stated_mde), seed(4, i));
    const benchpr::Analysis half = read_fixed(plain, five_changed(kThreshold / 2), seed(5, i));
    const benchpr::Analysis big = read_fixed(plain, five_changed(1.5 * kThreshold), seed(6, i));
    const benchpr::Analysis label_mde =
        read_fixed(plain, five_changed(t.stated_label_mde), seed(7, i));
    bool any_regression = false;
    for (const auto& x : all.benchmarks) any_regression |= x.verdict == Verdict::Regression;
    t.all_half_any_regression.add(any_regression);
    for (std::size_t k = 0; k < changes.size(); ++k) {
      if (changes[k] == 0) continue;
      t.power2.add(detected(a.benchmarks[k]));
      t.coverage2.add(a.benchmarks[k].ci_low <= kThreshold &&
                      kThreshold <= a.benchmarks[k].ci_high);
      t.power2_spread.add(detected(b.benchmarks[k]));
      t.power_at_mde.add(detected(mde.benchmarks[k]));
      t.half_label.add(is_alarm(half.benchmarks[k].verdict));
      t.one_and_half_label.add(big.benchmarks[k].verdict == Verdict::Regression);
      t.label_power_at_label_mde.add(label_mde.benchmarks[k].verdict == Verdict::Regression);
    }
  }
  return t;
}

// P(label) against the true change of 5 of 50 benchmarks, plain 1% noise, 10 rounds.
struct CurvePoint {
  double change = 0;
  Rate regression, slower, unchanged, inconclusive;
};

std::vector<CurvePoint> run_curve(int prs) {
  std::vector<CurvePoint> out;
  for (std::size_t c = 0; c < kCurve.size(); ++c) {
    CurvePoint p;
    p.change = kCurve[c] * kThreshold;
    for (int i = 0; i < prs; ++i) {
      const auto changes = five_changed(p.change);
      const benchpr::Analysis a =
          read_fixed(kModels[0], changes, 0xc0b7e000000ULL + c * 1'000'003ULL + i);
      for (std::size_t k = 0; k < changes.size(); k += 10) {
        const Verdict v = a.benchmarks[k].verdict;
        p.regression.add(v == Verdict::Regression);
        p.slower.add(v == Verdict::Slower);
        p.unchanged.add(v == Verdict::Unchanged);
        p.inconclusive.add(v == Verdict::Inconclusive);
      }
    }
    out.push_back(p);
  }
  return out;
}

// The headline against the true change of one benchmark of 50 (plain 1% noise, 10 rounds): how
// often the comment recommends a plain merge, and how often it does so while that benchmark's
// shown change reads at or above the threshold (the target: never).
constexpr std::array<double, 9> kHeadlineCurve{0, 0.25, 0.5, 0.75, 1, 1.25, 1.5, 1.75, 2};

struct HeadlinePoint {
  double change = 0;
  Rate merge, merge_at_threshold, do_not_merge, inconclusive, shown_at_threshold;
  // Before the headline rule: a significant slowdown whose size was not settled went to a
  // plain merge ("a small consistent change below the threshold") whatever its estimate.
  Rate before_merge_at_threshold;
};

std::vector<HeadlinePoint> run_headline(int prs) {
  std::vector<HeadlinePoint> out;
  for (std::size_t c = 0; c < kHeadlineCurve.size(); ++c) {
    HeadlinePoint p;
    p.change = kHeadlineCurve[c] * kThreshold;
    std::vector<double> changes(kBenchmarks, 0.0);
    changes[0] = p.change;
    for (int i = 0; i < prs; ++i) {
      const benchpr::Analysis a =
          read_fixed(kModels[0], changes, 0x4ead11e000000ULL + c * 1'000'003ULL + i);
      const auto kind = a.recommendation.kind;
      const bool shown =
          benchpr::reads_at_least(a.benchmarks[0].change, kThreshold) && a.benchmarks[0].change > 0;
      p.merge.add(kind == benchpr::RecommendationKind::Merge);
      p.merge_at_threshold.add(kind == benchpr::RecommendationKind::Merge && shown);
      const bool unsettled_headline =
          kind == benchpr::RecommendationKind::Inconclusive &&
          a.recommendation.reason.find("is not settled") != std::string::npos;
      p.before_merge_at_threshold.add(
          (kind == benchpr::RecommendationKind::Merge || unsettled_headline) && shown);
      p.do_not_merge.add(kind == benchpr::RecommendationKind::DoNotMerge);
      p.inconclusive.add(kind == benchpr::RecommendationKind::Inconclusive);
      p.shown_at_threshold.add(shown);
    }
    out.push_back(p);
  }
  return out;
}

// Uneven noise: a subgroup of benchmarks noisier than the rest (the variance prior assumes one
// distribution of variances). A/A false calls, the noisy subgroup's CI coverage, and power at +2%
// for 5 changed benchmarks of ordinary noise.
struct UnevenCase {
  const char* name;
  int benchmarks;
  int noisy;  // benchmarks 5, 15, 25, ...
  double factor;
};
constexpr std::array<UnevenCase, 6> kUneven{{
    {"50, equal 1% noise", 50, 0, 1},
    {"45 at 1% + 5 at 2%", 50, 5, 2},
    {"45 at 1% + 5 at 3%", 50, 5, 3},
    {"190 at 1% + 10 at 2%", 200, 10, 2},
    {"47 at 1% + 3 at 10%", 50, 3, 10},
    {"200, equal 1% noise", 200, 0, 1},
}};

struct UnevenRow {
  Rate any_sig, any_alarm, noisy_coverage, quiet_coverage, power2, noisy_unchanged;
};

std::vector<UnevenRow> run_uneven(int aa_prs, int prs, const benchpr::AnalysisOptions& options) {
  std::vector<UnevenRow> rows;
  for (std::size_t c = 0; c < kUneven.size(); ++c) {
    const UnevenCase& u = kUneven[c];
    NoiseModel m = kModels[0];
    m.noisy = u.noisy;
    m.noisy_factor = u.factor;
    UnevenRow row;
    const auto is_noisy = [&](int b) { return b % 10 == 5 && b / 10 < u.noisy; };
    // Fewer pull requests of 200 benchmarks: each holds four times the benchmarks.
    const int aa = u.benchmarks > 50 ? aa_prs / 2 : aa_prs;
    for (int i = 0; i < aa; ++i) {
      const benchpr::Analysis a = benchpr::analyse(
          to_results(simulate(m, u.benchmarks, std::vector<double>(u.benchmarks, 0.0),
                              0x0e7e4000000ULL + c * 1'000'003ULL + i),
                     kRounds),
          options);
      bool any_sig = false, any_alarm = false;
      for (int b = 0; b < u.benchmarks; ++b) {
        const auto& x = a.benchmarks[static_cast<std::size_t>(b)];
        any_sig |= is_significant(x.verdict);
        any_alarm |= is_alarm(x.verdict);
        const bool covered = x.ci_low <= 0 && 0 <= x.ci_high;
        (is_noisy(b) ? row.noisy_coverage : row.quiet_coverage).add(covered);
        if (is_noisy(b)) row.noisy_unchanged.add(x.verdict == Verdict::Unchanged);
      }
      row.any_sig.add(any_sig);
      row.any_alarm.add(any_alarm);
    }
    std::vector<double> changes(u.benchmarks, 0.0);
    for (int b = 0; b < kChanged; ++b) changes[static_cast<std::size_t>(b * 10)] = kThreshold;
    const int pr = u.benchmarks > 50 ? prs / 2 : prs;
    for (int i = 0; i < pr; ++i) {
      const benchpr::Analysis a = benchpr::analyse(
          to_results(simulate(m, u.benchmarks, changes, 0x0e7e5000000ULL + c * 1'000'003ULL + i),
                     kRounds),
          options);
      for (std::size_t b = 0; b < changes.size(); ++b)
        if (changes[b] != 0)
          row.power2.add(a.benchmarks[b].verdict == Verdict::Regression ||
                         a.benchmarks[b].verdict == Verdict::Slower);
    }
    rows.push_back(row);
  }
  return rows;
}

// The priors table 10 compares: one prior, the two-group mixture alone, and the mixture with a
// guard for benchmarks the noisier group explains, read on that group's variance or on their
// own, and the latter as shipped: only where the noisier group is at most 15% of the family. The
// rows after those five are the guard's rejected variants (docs/method.md, "Uneven noise"), run
// with --priors 5,6,7,8,9,10,11.
struct PriorVariant {
  const char* name;
  benchpr::AnalysisOptions options;
};
benchpr::AnalysisOptions prior_options(bool groups, benchpr::NoisierGuard guard,
                                       double posterior = 0,
                                       double group = benchpr::stats::kNoisierGroupShown,
                                       double level = benchpr::stats::kNoisierPlausibleLevel,
                                       double at_most = benchpr::stats::kNoisierGroupAtMost,
                                       double min_prior_df = 0) {
  benchpr::AnalysisOptions o;
  o.noisier_group = groups;
  o.noisier_guard = guard;
  o.noisier_guard_posterior = posterior;
  o.noisier_guard_group = group;
  o.noisier_guard_level = level;
  o.noisier_guard_at_most = at_most;
  o.noisier_guard_min_prior_df = min_prior_df;
  return o;
}
using benchpr::NoisierGuard;
constexpr double kGroup = benchpr::stats::kNoisierGroupShown;
constexpr double kLevel = benchpr::stats::kNoisierPlausibleLevel;
const std::array<PriorVariant, 12> kPriorVariants{{
    {"one prior", prior_options(false, NoisierGuard::Off)},
    {"two groups", prior_options(true, NoisierGuard::Off)},
    {"+ guard, noisier variance",
     prior_options(true, NoisierGuard::NoisierVariance, 0, kGroup, kLevel, 0.2)},
    {"+ guard, own variance",
     prior_options(true, NoisierGuard::OwnVariance, 0, kGroup, kLevel, 0.2)},
    {"+ guard, own variance, group ≤ 15% (shipped)", benchpr::AnalysisOptions{}},
    // Rejected (docs/method.md, "Uneven noise"):
    {"+ guard, own variance, posterior ≥ 1%",
     prior_options(true, NoisierGuard::OwnVariance, 0.01, kGroup, kLevel, 0.2)},
    {"+ guard, own variance, group ≥ 1",
     prior_options(true, NoisierGuard::OwnVariance, 0, 1, kLevel, 0.2)},
    {"+ guard, own variance, level 1%",
     prior_options(true, NoisierGuard::OwnVariance, 0, kGroup, 0.01, 0.2)},
    {"+ guard, own variance, group ≥ 1, level 1%",
     prior_options(true, NoisierGuard::OwnVariance, 0, 1, 0.01, 0.2)},
    {"+ guard, own variance, group ≤ 12%",
     prior_options(true, NoisierGuard::OwnVariance, 0, kGroup, kLevel, 0.12)},
    {"+ guard, own variance, d0 ≥ 40",
     prior_options(true, NoisierGuard::OwnVariance, 0, kGroup, kLevel, 0.2, 40)},
    {"+ guard, own variance, d0 ≥ 20",
     prior_options(true, NoisierGuard::OwnVariance, 0, kGroup, kLevel, 0.2, 20)},
}};
constexpr std::size_t kShippedPrior = 4;
constexpr std::size_t kTablePriors = 5;  // the rows table 10 shows by default

void print_uneven(const std::vector<std::vector<UnevenRow>>& variants,
                  const std::vector<std::size_t>& chosen, int aa_prs, int prs) {
  fmt::print(
      "\n### 10. Uneven noise: a noisier subgroup ({} A/A pull requests of 50 benchmarks per "
      "row, half as many of 200; {} / {} with 5 benchmarks of ordinary noise changed by +2%; "
      "10 rounds)\n\n",
      aa_prs, prs, prs / 2);
  fmt::print(
      "\"one prior\": every benchmark's variance moderated by one prior; \"two groups\": the "
      "prior as one group beside a noisier one, each benchmark read by the mixture's weight "
      "(`fit_prior_mixture`); \"+ guard\": when the family shows a noisier group, a benchmark "
      "that group explains (`noisier_plausible`) is read on the group's variance, or on its own "
      "variance and degrees of freedom (`NoisierGuard::OwnVariance`, as shipped). The same seeds "
      "in every row of a case, so the rows differ only by the prior.\n\n");
  print_header({"case", "prior", "A/A any significant", "A/A any `regression`/`improvement`",
                "95% CI coverage, noisy", "95% CI coverage, others", "noisy A/A `unchanged`",
                "power +2%"});
  for (std::size_t c = 0; c < kUneven.size(); ++c) {
    for (std::size_t v = 0; v < variants.size(); ++v) {
      const UnevenRow& r = variants[v][c];
      fmt::print("| {} | {} | {} | {} | {} | {} | {} | {} |\n", v == 0 ? kUneven[c].name : "",
                 kPriorVariants[chosen[v]].name, pct(r.any_sig), pct(r.any_alarm),
                 pct(r.noisy_coverage), pct(r.quiet_coverage), pct(r.noisy_unchanged),
                 pct(r.power2));
    }
  }
}

// Rounds that jump between modes, and outliers: the estimator of each benchmark's effect. A/A
// false calls and coverage, power at +2% (5 of 50 changed), and how many A/A benchmarks are
// settled as `unchanged` at 10 and at 30 rounds (a benchmark that stays "no signal" forever
// is the failure item 3 of the robustness issue names).
struct RobustCase {
  const char* name;
  NoiseModel model;
};
const std::array<RobustCase, 6> kRobustCases{{
    {"plain 1% noise", kModels[0]},
    {"heavy tails: t(3), SD 1%", kModels[4]},
    {"heavy tails: 5% outliers ×10", kModels[5]},
    {"bimodal: 30% of runs +10%", {"", 0, 0, 0, Tail::Normal, 0, 0, 0, 0, 10, 0.3, 0.10}},
    {"bimodal: 50% of runs +5%", {"", 0, 0, 0, Tail::Normal, 0, 0, 0, 0, 10, 0.5, 0.05}},
    // Not A/A: every benchmark's mean time rises by 0.3 x 10% (table 11b).
    {"the PR moves runs into the slow mode: 30% → 60% of runs +10%",
     {"", 0, 0, 0, Tail::Normal, 0, 0, 0, 0, 10, 0.3, 0.10, 0.6}},
}};
constexpr std::size_t kMovedCase = 5;
struct Estimator {
  const char* name;
  benchpr::stats::RobustOptions options;
  bool mode_aware = false;
  benchpr::stats::ModeOptions modes = {};
};
const std::array<Estimator, 8> kEstimators{{
    {"least squares", {benchpr::stats::RobustLoss::LeastSquares, 1, 0}},
    {"Huber", {benchpr::stats::RobustLoss::Huber, 1, 0}},
    {"Huber, plain fit when multimodal",
     {benchpr::stats::RobustLoss::Huber, benchpr::stats::kMaxDownweightedShare, 0}},
    {"… and from 20 rounds on",
     {benchpr::stats::RobustLoss::Huber, benchpr::stats::kMaxDownweightedShare, 20}},
    {"modes, `unchanged` unless the shares differ at 5%",
     {benchpr::stats::RobustLoss::LeastSquares, 1, 0},
     true,
     {0.05, 0.001, 0}},
    {"modes, … at 20%, a within-mode change a move of runs may outweigh called",
     {benchpr::stats::RobustLoss::LeastSquares, 1, 0},
     true,
     {0.2, 0.001, 0}},
    {"modes, … and such a change left open with shares that differ at 20%",
     {benchpr::stats::RobustLoss::LeastSquares, 1, 0},
     true,
     {0.2, 0.001, 0.2}},
    {"modes, … at 5% (shipped)", {benchpr::stats::RobustLoss::LeastSquares, 1, 0}, true, {}},
}};

struct RobustRow {
  // [0]: 10 rounds, [1]: the same sessions continued to 30.
  std::array<Rate, 2> any_sig, any_alarm, aa_coverage, unchanged, power, coverage_changed;
  std::array<Rate, 2> slower;  // benchmarks of the A/A sessions called `slower`/`regression`
};

// Power and coverage at +2% after 10 rounds, at +1% after 30 (+2% is found nearly always).
constexpr std::array<double, 2> kRobustEffects{0.02, 0.01};

RobustRow run_robust(const RobustCase& c, std::size_t case_index, const Estimator& estimator,
                     int aa_prs, int prs) {
  benchpr::AnalysisOptions options;
  options.estimator = estimator.options;
  options.mode_aware = estimator.mode_aware;
  options.modes = estimator.modes;
  RobustRow row;
  const auto seed = [&](int scenario, int i) {
    return 0x70b57000000ULL + case_index * 1'000'003ULL +
           static_cast<std::uint64_t>(scenario) * 100'003ULL + static_cast<std::uint64_t>(i);
  };
  constexpr std::array<int, 2> kLengths{kRounds, kMaxRounds};
  for (int i = 0; i < aa_prs; ++i) {
    const Session s = simulate(c.model, kBenchmarks, five_changed(0), seed(0, i));
    for (std::size_t l = 0; l < kLengths.size(); ++l) {
      const benchpr::Analysis a = benchpr::analyse(to_results(s, kLengths[l]), options);
      bool any_sig = false, any_alarm = false;
      for (const auto& x : a.benchmarks) {
        any_sig |= is_significant(x.verdict);
        any_alarm |= is_alarm(x.verdict);
        row.aa_coverage[l].add(x.ci_low <= 0 && 0 <= x.ci_high);
        row.unchanged[l].add(x.verdict == Verdict::Unchanged);
        row.slower[l].add(x.verdict == Verdict::Slower || x.verdict == Verdict::Regression);
      }
      row.any_sig[l].add(any_sig);
      row.any_alarm[l].add(any_alarm);
    }
  }
  for (std::size_t l = 0; l < kLengths.size(); ++l) {
    const std::vector<double> changes = five_changed(kRobustEffects[l]);
    for (int i = 0; i < prs; ++i) {
      const benchpr::Analysis a = benchpr::analyse(
          to_results(simulate(c.model, kBenchmarks, changes, seed(1 + static_cast<int>(l), i)),
                     kLengths[l]),
          options);
      for (std::size_t b = 0; b < changes.size(); ++b) {
        if (changes[b] == 0) continue;
        const auto& x = a.benchmarks[b];
        row.power[l].add(x.verdict == Verdict::Regression || x.verdict == Verdict::Slower);
        row.coverage_changed[l].add(x.ci_low <= changes[b] && changes[b] <= x.ci_high);
      }
    }
  }
  return row;
}

// [case][estimator]
// --estimators 0,4: only these rows of kEstimators (the others print as "–").
std::vector<bool> g_estimators(kEstimators.size(), true);

std::vector<std::vector<RobustRow>> run_robust_all(int aa_prs, int prs) {
  std::vector<std::vector<RobustRow>> out;
  for (std::size_t c = 0; c < kRobustCases.size(); ++c) {
    out.emplace_back();
    for (std::size_t e = 0; e < kEstimators.size(); ++e)
      // The moved-runs case has no A/A benchmark and no changed scenario: its sessions alone.
      out.back().push_back(g_estimators[e] ? run_robust(kRobustCases[c], c, kEstimators[e], aa_prs,
                                                        c == kMovedCase ? 0 : prs)
                                           : RobustRow{});
  }
  return out;
}

void print_robust(const std::vector<std::vector<RobustRow>>& rows, int aa_prs, int prs) {
  fmt::print(
      "\n### 11. Rounds that jump between modes, and outliers: the estimator ({} A/A pull "
      "requests of 50 benchmarks per row, each read after 10 rounds and continued to 30; {} "
      "per row with 5 of 50 changed, by +2% read after 10 rounds, by +1% after 30)\n\n",
      aa_prs, prs);
  fmt::print(
      "\"bimodal: 30% of runs +10%\": every run of every benchmark, on either side, lands in a "
      "mode 10% slower with probability 0.3, besides 1% noise. \"Huber\": the calibrated "
      "M-estimator (`fit_crossover_robust`); \"plain fit when multimodal\": least squares for "
      "a benchmark with more than one round in ten far from the rest; \"from 20 rounds on\": "
      "least squares before. \"modes\": runs in two clearly separated modes compared within "
      "them (`fit_crossover_modes`), least squares otherwise; a benchmark is not called "
      "`unchanged` while the shares of runs in the slower mode differ at 5% or at 20% "
      "(shipped). Cells: after 10 rounds / after 30.\n\n");
  print_header({"noise model", "estimator", "A/A any significant",
                "A/A any `regression`/`improvement`", "A/A 95% CI coverage",
                "changed: 95% CI coverage", "power +2% / +1%", "A/A `unchanged`"});
  auto both = [](const std::array<Rate, 2>& r) { return pct(r[0]) + " / " + pct(r[1]); };
  for (std::size_t c = 0; c < kMovedCase; ++c)
    for (std::size_t e = 0; e < rows[c].size(); ++e) {
      const RobustRow& r = rows[c][e];
      fmt::print("| {} | {} | {} | {} | {} | {} | {} | {} |\n", e == 0 ? kRobustCases[c].name : "",
                 kEstimators[e].name, both(r.any_sig), both(r.any_alarm), both(r.aa_coverage),
                 both(r.coverage_changed), both(r.power), both(r.unchanged));
    }
  fmt::print(
      "\n#### 11b. A pull request that moves runs into the slow mode ({} pull requests of 50 "
      "benchmarks, each read after 10 rounds and continued to 30)\n\n"
      "Every run lands in a mode 10% slower with probability 0.3 on the base side and 0.6 on the "
      "PR's: the mean time of every benchmark rises by 2.9%, while within each mode nothing "
      "changed. Cells: after 10 rounds / after 30.\n\n",
      aa_prs);
  print_header({"estimator", "`unchanged`", "`slower`/`regression`"});
  for (std::size_t e = 0; e < rows[kMovedCase].size(); ++e) {
    const RobustRow& r = rows[kMovedCase][e];
    fmt::print("| {} | {} | {} |\n", kEstimators[e].name, both(r.unchanged), both(r.slower));
  }
}

// Share of A/A benchmarks flagged cold (no warm-up effect), and of benchmarks whose first
// analysed round really was 5% or 20% slower on both sides.
struct ColdRow {
  const char* name;
  Rate flagged;
  Rate noted;  // pull requests with any benchmark flagged: the comment's cold-round note
};

std::vector<ColdRow> run_cold(int prs) {
  std::vector<ColdRow> rows;
  const auto model = [](double drift, double cold, Tail tail = Tail::Normal) {
    NoiseModel m = kModels[0];
    m.drift = drift;
    m.cold = cold;
    m.tail = tail;
    return m;
  };
  const std::array<std::pair<const char*, NoiseModel>, 9> cases{{
      {"no cold round, plain 1% noise", model(0, 0)},
      {"no cold round, 0.2%/round drift", model(kSlowDrift, 0)},
      {"no cold round, 5% drift", model(0.05, 0)},
      {"no cold round, heavy tails t(3)", model(0, 0, Tail::StudentT3)},
      {"no cold round, 5% outliers ×10", model(0, 0, Tail::Outliers)},
      {"round 1 is 5% slower", model(0, 0.05)},
      {"round 1 is 20% slower", model(0, 0.20)},
      {"round 1 is 5% slower, heavy tails t(3)", model(0, 0.05, Tail::StudentT3)},
      {"round 1 is 5% slower, 5% outliers ×10", model(0, 0.05, Tail::Outliers)},
  }};
  for (std::size_t c = 0; c < cases.size(); ++c) {
    ColdRow row{cases[c].first, {}, {}};
    for (int i = 0; i < prs; ++i) {
      const benchpr::Analysis a =
          read_fixed(cases[c].second, five_changed(0), 0xc01d000000ULL + c * 1'000'003ULL + i);
      bool any = false;
      for (const auto& b : a.benchmarks) {
        row.flagged.add(has_cold_flag(b));
        any |= has_cold_flag(b);
      }
      row.noted.add(any);
    }
    rows.push_back(row);
  }
  return rows;
}

// The operating curve as an SVG line chart (no dependencies; deterministic text).
std::string curve_svg(const std::vector<CurvePoint>& curve) {
  const double w = 640, h = 400, left = 60, right = 20, top = 30, bottom = 50;
  const double xmax = kCurve.back() * kThreshold, pw = w - left - right, ph = h - top - bottom;
  auto X = [&](double change) { return left + pw * change / xmax; };
  auto Y = [&](double share) { return top + ph * (1 - share); };
  std::string svg = fmt::format(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{}\" height=\"{}\" "
      "font-family=\"sans-serif\" font-size=\"12\">\n<rect width=\"100%\" height=\"100%\" "
      "fill=\"white\"/>\n",
      w, h);
  svg += fmt::format(
      "<text x=\"{}\" y=\"18\" text-anchor=\"middle\" font-size=\"14\">P(label) against the "
      "true change (10 rounds, 1% noise, 5 of 50 changed, threshold 2%)</text>\n",
      w / 2);
  for (int k = 0; k <= 10; ++k) {
    const double y = Y(k / 10.0);
    svg += fmt::format(
        "<line x1=\"{}\" y1=\"{:.1f}\" x2=\"{}\" y2=\"{:.1f}\" stroke=\"#ddd\"/><text x=\"{}\" "
        "y=\"{:.1f}\" text-anchor=\"end\">{}%</text>\n",
        left, y, w - right, y, left - 6, y + 4, 10 * k);
  }
  for (double c : kCurve) {
    const double x = X(c * kThreshold);
    svg += fmt::format(
        "<line x1=\"{:.1f}\" y1=\"{}\" x2=\"{:.1f}\" y2=\"{}\" stroke=\"{}\"/><text x=\"{:.1f}\" "
        "y=\"{}\" text-anchor=\"middle\">+{:g}%</text>\n",
        x, top, x, h - bottom, c == 0.5 || c == 1 || c == 1.5 ? "#999" : "#eee", x, h - bottom + 16,
        100 * c * kThreshold);
  }
  svg += fmt::format("<text x=\"{}\" y=\"{}\" text-anchor=\"middle\">true change</text>\n",
                     left + pw / 2, h - 12);
  struct Series {
    const char* label;
    const char* colour;
    double (*value)(const CurvePoint&);
  };
  const std::array<Series, 4> series{{
      {"regression", "#c62828", [](const CurvePoint& p) { return p.regression.value(); }},
      {"regression or slower", "#ef6c00",
       [](const CurvePoint& p) { return p.regression.value() + p.slower.value(); }},
      {"unchanged", "#2e7d32", [](const CurvePoint& p) { return p.unchanged.value(); }},
      {"inconclusive", "#757575", [](const CurvePoint& p) { return p.inconclusive.value(); }},
  }};
  for (std::size_t k = 0; k < series.size(); ++k) {
    std::string points;
    for (const CurvePoint& p : curve)
      points += fmt::format("{:.1f},{:.1f} ", X(p.change), Y(series[k].value(p)));
    svg += fmt::format("<polyline fill=\"none\" stroke=\"{}\" stroke-width=\"2\" points=\"{}\"/>\n",
                       series[k].colour, points);
    for (const CurvePoint& p : curve)
      svg += fmt::format("<circle cx=\"{:.1f}\" cy=\"{:.1f}\" r=\"3\" fill=\"{}\"/>\n", X(p.change),
                         Y(series[k].value(p)), series[k].colour);
    // The legend sits where no curve runs: right of +3%, between 20% and 50%.
    const double lx = X(3.3 * kThreshold / 2), ly = Y(0.5) + 16 * static_cast<double>(k);
    svg += fmt::format(
        "<line x1=\"{:.1f}\" y1=\"{:.1f}\" x2=\"{:.1f}\" y2=\"{:.1f}\" stroke=\"{}\" "
        "stroke-width=\"2\"/><text x=\"{:.1f}\" y=\"{:.1f}\">{}</text>\n",
        lx, ly, lx + 20, ly, series[k].colour, lx + 26, ly + 4, series[k].label);
  }
  svg += "</svg>\n";
  return svg;
}

// A target, its loose form for the quick smoke run (fewer simulations, so wider margins), and
// the value measured.
struct Check {
  std::string name;
  double value;
  double lo, hi;              // target: lo <= value <= hi
  double quick_lo, quick_hi;  // what --check accepts
};

std::vector<Check> target_checks(const std::vector<TargetTally>& t) {
  std::vector<Check> out;
  for (std::size_t v = 0; v < t.size(); ++v) {
    const std::string at = fmt::format(" ({})", kVariants[v].name);
    const TargetTally& x = t[v];
    out.push_back({"power +2%" + at, x.power2.value(), 0.90, 1, 0.80, 1});
    out.push_back({"power +2%, spread 0.5–2%" + at, x.power2_spread.value(), 0.80, 1, 0.70, 1});
    out.push_back(
        {"A/A any regression/improvement" + at, x.aa_any_alarm.value(), 0, 0.01, 0, 0.03});
    out.push_back({"A/A any significant" + at, x.aa_any_sig.value(), 0, 0.05, 0, 0.09});
    out.push_back(
        {"all 50 +1%: any regression" + at, x.all_half_any_regression.value(), 0, 0.10, 0, 0.17});
    out.push_back({"A/A 95% CI coverage" + at, x.aa_coverage.value(), 0.93, 0.97, 0.92, 0.98});
    out.push_back({"power at the stated MDE" + at, x.power_at_mde.value(), 0.80, 1, 0.70, 1});
    out.push_back({"`regression` at the stated regression MDE" + at,
                   x.label_power_at_label_mde.value(), 0.80, 1, 0.70, 1});
    out.push_back(
        {"+1% labelled regression/improvement" + at, x.half_label.value(), 0, 0.01, 0, 0.025});
    out.push_back({"+3% labelled regression" + at, x.one_and_half_label.value(), 0.80, 1, 0.70, 1});
    out.push_back({"A/A cold-round flags" + at, x.cold_flags.value(), 0, 0.02, 0, 0.03});
  }
  return out;
}

void print_headline(const std::vector<HeadlinePoint>& headline, int prs) {
  fmt::print(
      "\n### 9. The headline against the true change ({} pull requests per row, 1 of 50 "
      "benchmarks changed, plain 1% noise, 10 rounds, threshold 2%)\n\n",
      prs);
  fmt::print(
      "Share of pull requests by recommendation; \"merge, shown ≥ 2%\": a plain merge while the "
      "changed benchmark's shown change reads +2.0% or more (target: 0).\n\n");
  print_header({"true change", "× threshold", "shown ≥ 2%", "merge", "merge, shown ≥ 2%",
                "no clear answer", "don't merge", "before: merge, shown ≥ 2%"});
  for (std::size_t c = 0; c < headline.size(); ++c) {
    const HeadlinePoint& p = headline[c];
    fmt::print("| +{:g}% | {:g} | {} | {} | {} | {} | {} | {} |\n", 100 * p.change,
               kHeadlineCurve[c], pct(p.shown_at_threshold), pct(p.merge),
               pct(p.merge_at_threshold), pct(p.inconclusive), pct(p.do_not_merge),
               pct(p.before_merge_at_threshold));
  }
}

void print_targets(const std::vector<TargetTally>& t, const std::vector<CurvePoint>& curve,
                   const std::vector<ColdRow>& cold, int aa_prs, int prs) {
  fmt::print(
      "\n### 6. Targets: 10 fixed rounds, 50 benchmarks ({} A/A pull requests, {} per changed "
      "scenario)\n\n",
      aa_prs, prs);
  std::vector<std::string> cols{"case", "target"};
  for (const Variant& v : kVariants) cols.emplace_back(v.name);
  print_header(cols);
  auto row = [&](const char* name, const char* target, auto value) {
    std::string line = fmt::format("| {} | {} |", name, target);
    for (const TargetTally& x : t) line += " " + value(x) + " |";
    fmt::print("{}\n", line);
  };
  row("power at +2%, 1% noise, 5 changed (`regression` or `slower`)", "≥ 90%",
      [](const TargetTally& x) { return pct(x.power2); });
  row("power at +2%, noise spread 0.5–2%", "≥ 80%",
      [](const TargetTally& x) { return pct(x.power2_spread); });
  row("A/A: runs with any `regression`/`improvement`", "≤ 1%",
      [](const TargetTally& x) { return pct(x.aa_any_alarm); });
  row("A/A: runs with any significant verdict", "≤ 5%",
      [](const TargetTally& x) { return pct(x.aa_any_sig); });
  row("all 50 truly +1%: runs with any `regression`", "≤ 10%",
      [](const TargetTally& x) { return pct(x.all_half_any_regression); });
  row("95% CI coverage (A/A benchmarks / the changed ones at +2%)", "93–97%",
      [](const TargetTally& x) { return pct(x.aa_coverage) + " / " + pct(x.coverage2); });
  row("stated MDE (median footer value)", "–",
      [](const TargetTally& x) { return fmt::format("{:.2f}%", 100 * x.stated_mde); });
  row("power at the stated MDE", "≥ 80%", [](const TargetTally& x) { return pct(x.power_at_mde); });
  row("stated MDE as a regression (median footer value)", "–",
      [](const TargetTally& x) { return fmt::format("{:.2f}%", 100 * x.stated_label_mde); });
  row("labelled `regression` at the stated regression MDE", "≥ 80%",
      [](const TargetTally& x) { return pct(x.label_power_at_label_mde); });
  row("+1% (half the threshold) labelled `regression`/`improvement`", "≤ 1%",
      [](const TargetTally& x) { return pct(x.half_label); });
  row("+3% (1.5× the threshold) labelled `regression`", "≥ 80%",
      [](const TargetTally& x) { return pct(x.one_and_half_label); });
  row("A/A benchmarks flagged `cold-round`", "≤ 2%",
      [](const TargetTally& x) { return pct(x.cold_flags); });

  fmt::print(
      "\n### 7. Labels at the threshold: P(label) against the true change ({} pull requests "
      "per row, 5 of 50 benchmarks changed, plain 1% noise, 10 rounds, threshold 2%)\n\n",
      prs);
  print_header(
      {"true change", "× threshold", "`regression`", "`slower`", "`unchanged`", "`inconclusive`"});
  for (std::size_t c = 0; c < curve.size(); ++c) {
    fmt::print("| +{:g}% | {:g} | {} | {} | {} | {} |\n", 100 * curve[c].change, kCurve[c],
               pct(curve[c].regression), pct(curve[c].slower), pct(curve[c].unchanged),
               pct(curve[c].inconclusive));
  }

  fmt::print("\n### 8. The cold-round flag ({} pull requests of 50 benchmarks per row)\n\n", prs);
  print_header({"case", "benchmarks flagged `cold-round`", "pull requests with the note"});
  for (const ColdRow& r : cold)
    fmt::print("| {} | {} | {} |\n", r.name, pct(r.flagged), pct(r.noted));
}

}  // namespace

// ------------------------------------------------------------------------------------------
// α over the looks, on a time budget (`--spending`). The budget is 30 rounds of every benchmark
// (today's 10-round session three times over); a round that runs only m of the n benchmarks costs
// kFixedShare + (1 − kFixedShare) m / n of a full round (process starts do not shrink). Each design
// looks as the runner does and stops when nothing is open or the budget is spent:
// - the weighted Bonferroni split of before: looks at 10, 20, 30 rounds, α 3 : 2 : 1;
// - α-spending (core/adaptive/adaptive.hpp, next_look): a look every 10 rounds while the budget
// lasts (at
//   most 100), each at the increment of a Lan–DeMets spending function over the information
//   fraction, for significance and for "unchanged" each.

constexpr int kBudgetRounds = 30;
constexpr double kFixedShare = 0.2;  // as the runner assumes (runner/session.hpp)
constexpr int kHorizonRounds = benchpr::kHorizonInFirstLooks * kRounds;

struct SpendDesign {
  const char* name;
  bool split;  // the 3-look Bonferroni split
  benchpr::SpendingPolicy policy;
  bool past_horizon = false;      // a second stage past the horizon (on policy.late_share)
  bool stop_unsettlable = false;  // measure no further what cannot settle (cannot_settle)
  // Two stages when the cheapest rounds (one benchmark open) could pass the horizon, rather than
  // the first look's full rounds (next_look's `reachable`).
  bool cheapest_reach = false;
  // A slowdown whose size is open stays open for rounds (StoppingRule::keep_size_open).
  bool keep_size_open = false;
};

struct BudgetRun {
  std::vector<benchpr::BenchmarkAnalysis> benchmarks;
  int rounds = 0;
  int looks = 0;
  double used = 0;  // budget used, in full rounds
};

// The most analysed rounds a design can reach on `budget` full rounds: every round after the
// first look runs one benchmark at least, so costs at least kFixedShare + (1 − kFixedShare) / n.
int reachable_rounds(const SpendDesign& d, double budget) {
  if (!d.past_horizon) return kHorizonRounds;
  const double cheapest = kFixedShare + (1 - kFixedShare) / kBenchmarks;
  return std::min(benchpr::kMostLookedRounds,
                  kRounds + static_cast<int>((budget - kRounds) / cheapest) + 2);
}

BudgetRun run_on_budget(const Session& s, const SpendDesign& d, double budget = kBudgetRounds) {
  const int most = reachable_rounds(d, budget);
  benchpr::Results results = to_results(s, most);
  const int n = static_cast<int>(s.base.size());
  const auto cost = [&](int open) { return kFixedShare + (1 - kFixedShare) * open / double(n); };
  const auto still_open = [](const benchpr::LookReadings& r) {
    return static_cast<int>(std::count(r.decided_at.begin(), r.decided_at.end(), -1));
  };
  BudgetRun out;
  int open = n;
  benchpr::LookReadings r;
  if (d.split) {
    const benchpr::AdaptivePlan plan = benchpr::make_adaptive_plan(kRounds, kMaxRounds, kAlpha);
    for (std::size_t k = 0; k < plan.looks.size(); ++k) {
      const int more = plan.looks[k] - out.rounds;
      if (k > 0 && out.used + more * cost(open) > budget + 1e-9) break;
      out.used += more * cost(open);
      out.rounds = plan.looks[k];
      r = benchpr::read_looks(results, plan, static_cast<int>(k));
      ++out.looks;
      if ((open = still_open(r)) == 0) break;
    }
  } else {
    // The runner's rule (core/adaptive/adaptive_step.hpp), with the design's fields; the budget and
    // the prices are in full rounds.
    benchpr::StoppingRule rule = benchpr::StoppingRule::every(kRounds);
    rule.policy = d.policy;
    rule.most_rounds = most;
    rule.two_stages = d.past_horizon;
    rule.cheapest_reach = d.cheapest_reach;
    rule.stop_unsettlable = d.stop_unsettlable;
    rule.keep_size_open = d.keep_size_open;
    const benchpr::RoundPrice price{1.0, n, kFixedShare};
    for (int k = 0;; ++k) {
      const benchpr::LookPlan plan =
          benchpr::plan_look(rule, results.looks, out.rounds, budget - out.used, price, open);
      if (!plan.look) break;
      results.looks.push_back(*plan.look);
      out.used += (plan.look->rounds - out.rounds) * cost(open);
      out.rounds = plan.look->rounds;
      r = benchpr::read_looks(results, benchpr::plan_of(results), k);
      ++out.looks;
      const benchpr::LookStep step =
          benchpr::step_after_look(rule, results.looks, r, false, budget - out.used, price);
      if (step.stop) break;
      // What the runner measures no further: its later rounds are not run (blanked here).
      std::vector<bool> runs(r.benchmarks.size(), false);
      for (std::size_t b : step.runnable) runs[b] = true;
      for (std::size_t b : step.open) {
        if (runs[b]) continue;
        benchpr::BenchmarkSeries& series = results.series[b];
        for (std::size_t i = kWarmup + static_cast<std::size_t>(out.rounds); i < series.base.size();
             ++i)
          series.base[i] = series.head[i] = benchpr::kMissing;
      }
      open = static_cast<int>(step.runnable.size());
    }
  }
  out.benchmarks = std::move(r.benchmarks);
  return out;
}

struct SpendTally {
  Rate aa_any_sig, aa_any_alarm, aa_decided, aa_unchanged, aa_coverage;
  std::array<Rate, 2> power, decided;  // +1%, +2% (5 of 50 changed)
  double aa_rounds = 0, aa_used = 0, pr_rounds = 0;
};

SpendTally run_spending(std::size_t model, const SpendDesign& d, int aa_prs, int pr_prs,
                        double budget = kBudgetRounds) {
  const NoiseModel& m = kModels[model];
  // Every design reads the same sessions: simulated to the most rounds any design could reach.
  SpendDesign longest = d;
  longest.past_horizon = true;
  const int most = reachable_rounds(longest, budget);
  SpendTally t;
  for (int i = 0; i < aa_prs; ++i) {
    const Session s = simulate(m, kBenchmarks, std::vector<double>(kBenchmarks, 0.0),
                               seed_of(model, 40, i), most);
    const BudgetRun run = run_on_budget(s, d, budget);
    bool any_sig = false, any_alarm = false;
    for (const auto& a : run.benchmarks) {
      const Call c = from_benchpr(a);
      any_sig |= c.significant;
      any_alarm |= c.alarm;
      t.aa_decided.add(a.verdict != Verdict::Inconclusive);
      t.aa_unchanged.add(c.unchanged);
      t.aa_coverage.add(covers(c, 0));
    }
    t.aa_any_sig.add(any_sig);
    t.aa_any_alarm.add(any_alarm);
    t.aa_rounds += run.rounds / static_cast<double>(aa_prs);
    t.aa_used += run.used / budget / aa_prs;
  }
  for (std::size_t e = 0; e < 2; ++e) {
    std::vector<double> changes(kBenchmarks, 0.0);
    for (int b = 0; b < kChanged; ++b) changes[static_cast<std::size_t>(b * 10)] = kEffects[e];
    for (int i = 0; i < pr_prs; ++i) {
      const Session s =
          simulate(m, kBenchmarks, changes, seed_of(model, 41 + static_cast<int>(e), i), most);
      const BudgetRun run = run_on_budget(s, d, budget);
      for (std::size_t b = 0; b < changes.size(); ++b) {
        t.decided[e].add(run.benchmarks[b].verdict != Verdict::Inconclusive);
        if (changes[b] != 0) t.power[e].add(detected(from_benchpr(run.benchmarks[b]), changes[b]));
      }
      if (e == 1) t.pr_rounds += run.rounds / static_cast<double>(pr_prs);
    }
  }
  return t;
}

void print_spending(int aa_prs, int pr_prs) {
  using benchpr::SpendingRule;
  const std::array<SpendDesign, 5> designs{{
      {"Bonferroni split, looks at 10/20/30 (before)", true, {}},
      {"O'Brien–Fleming / O'Brien–Fleming",
       false,
       {SpendingRule::OBrienFleming, SpendingRule::OBrienFleming}},
      {"O'Brien–Fleming / Pocock", false, {SpendingRule::OBrienFleming, SpendingRule::Pocock}},
      {"Pocock / O'Brien–Fleming", false, {SpendingRule::Pocock, SpendingRule::OBrienFleming}},
      {"Pocock / Pocock", false, {SpendingRule::Pocock, SpendingRule::Pocock}},
  }};
  for (std::size_t model : {std::size_t{0}, std::size_t{6}, std::size_t{7}}) {
    fmt::print(
        "### α over the looks on a budget of {} full rounds ({}; {} A/A pull requests of 50, {} "
        "with 5 of 50 changed per effect)\n\n",
        kBudgetRounds, kModels[model].name, aa_prs, pr_prs);
    print_header({"design (significance / unchanged)", "A/A any significant", "A/A any label",
                  "A/A decided", "A/A unchanged", "A/A 95% CI coverage", "A/A rounds",
                  "A/A budget used", "power +1%", "power +2%", "decided (+2% PRs)",
                  "rounds (+2% PRs)"});
    for (const SpendDesign& d : designs) {
      const SpendTally t = run_spending(model, d, aa_prs, pr_prs);
      fmt::print("| {} | {} | {} | {} | {} | {} | {:.1f} | {:.0f}% | {} | {} | {} | {:.1f} |\n",
                 d.name, pct(t.aa_any_sig), pct(t.aa_any_alarm), pct(t.aa_decided),
                 pct(t.aa_unchanged), pct(t.aa_coverage), t.aa_rounds, 100 * t.aa_used,
                 pct(t.power[0]), pct(t.power[1]), pct(t.decided[1]), t.pr_rounds);
    }
    fmt::print("\n");
  }
}

// A slowdown whose size is open (`--size-open`): the shipped design closing a `slower` benchmark
// whose estimate reads at or beyond the threshold at the look that reads it (before), against
// keeping it open for rounds to settle its size. Such a benchmark holds the headline at "No clear
// answer yet"; kept open, it takes rounds the others no longer need. Per design: A/A false labels
// and rounds; for pull requests with 5 of 50 benchmarks changed by +1% (half the threshold: a
// regression there is a false one), +2% (the threshold) and +3%,
// how the changed ones end (regression, slower with the size open: the headline's blocker,
// slower below the threshold, inconclusive), how many pull requests end with a size still open,
// the rounds and the budget used.
struct SizeOpenTally {
  Rate aa_alarm, aa_size_open;
  std::array<Rate, 3> regression, size_open, slower_below, inconclusive, pr_size_open;
  double aa_rounds = 0, aa_used = 0;
  std::array<double, 3> rounds{}, used{};
};

void print_size_open(int aa_prs, int pr_prs) {
  // +1%: half the threshold, where a regression would be a false one (its size test's level).
  constexpr std::array<double, 3> kSizeEffects{0.01, 0.02, 0.03};
  const auto open_size = [](const benchpr::BenchmarkAnalysis& a) {
    return benchpr::size_open_slowdown(a);
  };
  for (std::size_t model : {std::size_t{0}, std::size_t{6}, std::size_t{7}}) {
    for (double budget : {double{kBudgetRounds}, 60.0}) {
      fmt::print(
          "### A slowdown whose size is open, on a budget of {:g} full rounds ({}; {} A/A pull "
          "requests of 50, {} with 5 of 50 changed per effect)\n\n",
          budget, kModels[model].name, aa_prs, pr_prs);
      print_header({"design", "A/A any label", "A/A any size open", "A/A rounds", "A/A budget used",
                    "effect", "regression", "slower, size open", "slower, below", "inconclusive",
                    "PRs with a size open", "rounds", "budget used"});
      for (const bool keep : {false, true}) {
        SpendDesign d{keep ? "keeps it open (shipped)" : "closes it at its look (before)",
                      false,
                      {},
                      true,
                      true,
                      true,
                      keep};
        const int most = reachable_rounds(d, budget);
        SizeOpenTally t;
        for (int i = 0; i < aa_prs; ++i) {
          const Session s =
              simulate(kModels[model], kBenchmarks, std::vector<double>(kBenchmarks, 0.0),
                       seed_of(model, 40, i), most);
          const BudgetRun run = run_on_budget(s, d, budget);
          bool alarm = false, size_open = false;
          for (const auto& a : run.benchmarks) {
            alarm |= from_benchpr(a).alarm;
            size_open |= open_size(a);
          }
          t.aa_alarm.add(alarm);
          t.aa_size_open.add(size_open);
          t.aa_rounds += run.rounds / static_cast<double>(aa_prs);
          t.aa_used += run.used / budget / aa_prs;
        }
        for (std::size_t e = 0; e < kSizeEffects.size(); ++e) {
          std::vector<double> changes(kBenchmarks, 0.0);
          for (int b = 0; b < kChanged; ++b)
            changes[static_cast<std::size_t>(b * 10)] = kSizeEffects[e];
          for (int i = 0; i < pr_prs; ++i) {
            const Session s = simulate(kModels[model], kBenchmarks, changes,
                                       seed_of(model, 60 + static_cast<int>(e), i), most);
            const BudgetRun run = run_on_budget(s, d, budget);
            bool any_open = false;
            for (std::size_t b = 0; b < changes.size(); ++b) {
              const benchpr::BenchmarkAnalysis& a = run.benchmarks[b];
              any_open |= open_size(a);
              if (changes[b] == 0) continue;
              t.regression[e].add(a.verdict == Verdict::Regression);
              t.size_open[e].add(open_size(a));
              t.slower_below[e].add(a.verdict == Verdict::Slower && !open_size(a));
              t.inconclusive[e].add(a.verdict == Verdict::Inconclusive);
            }
            t.pr_size_open[e].add(any_open);
            t.rounds[e] += run.rounds / static_cast<double>(pr_prs);
            t.used[e] += run.used / budget / pr_prs;
          }
        }
        for (std::size_t e = 0; e < kSizeEffects.size(); ++e) {
          fmt::print(
              "| {} | {} | {} | {} | {} | +{:.0f}% | {} | {} | {} | {} | {} | {:.1f} | {:.0f}% |\n",
              e == 0 ? d.name : "", e == 0 ? pct(t.aa_alarm) : "",
              e == 0 ? pct(t.aa_size_open) : "", e == 0 ? fmt::format("{:.1f}", t.aa_rounds) : "",
              e == 0 ? fmt::format("{:.0f}%", 100 * t.aa_used) : "", 100 * kSizeEffects[e],
              pct(t.regression[e]), pct(t.size_open[e]), pct(t.slower_below[e]),
              pct(t.inconclusive[e]), pct(t.pr_size_open[e]), t.rounds[e], 100 * t.used[e]);
        }
        std::fflush(stdout);
      }
      fmt::print("\n");
    }
  }
}

// Past the horizon (`--horizon`): one stage that stops at 10 looks' rounds (before) against two
// stages that keep a share of α for looks past it, on today's budget (30 full rounds), on 60, and
// on a long one (150: a fast suite, or a budget raised for a noisy project), where the horizon
// binds.
void print_horizon(int aa_prs, int pr_prs) {
  using benchpr::SpendingPolicy;
  const auto two_stage = [](double share, double growth,
                            benchpr::SpendingRule late_equivalence =
                                benchpr::SpendingRule::Pocock) {
    SpendingPolicy p;
    p.late_share = share;
    p.late_growth = growth;
    p.late_equivalence = late_equivalence;
    return p;
  };
  using benchpr::SpendingRule;
  const std::array<SpendDesign, 8> designs{{
      {"one stage, stops at the horizon (before)", false, {}, false, false},
      {"one stage, stops measuring what cannot settle", false, {}, false, true},
      {"two stages, 20% past the horizon, looks +50%, unchanged O'Brien–Fleming-type past it",
       false, two_stage(0.2, 0.5, SpendingRule::OBrienFleming), true, true},
      {"two stages, 20% past the horizon, looks +25%, unchanged O'Brien–Fleming-type past it",
       false, two_stage(0.2, 0.25, SpendingRule::OBrienFleming), true, true},
      {"two stages, 10% past the horizon, looks +25%", false, two_stage(0.1, 0.25), true, true},
      {"two stages, 20% past the horizon, looks +25%, when the first look's full rounds reach it",
       false, two_stage(0.2, 0.25), true, true},
      {"two stages, 20% past the horizon, looks +25%, when the cheapest rounds reach it (shipped)",
       false, two_stage(0.2, 0.25), true, true, true},
      {"two stages, 30% past the horizon, looks +25%", false, two_stage(0.3, 0.25), true, true},
  }};
  for (std::size_t model : {std::size_t{0}, std::size_t{6}, std::size_t{7}}) {
    // 60 full rounds: the first look cannot afford the horizon at its own price, but the
    // rounds of what stays open can (the case of a suite whose looks close most benchmarks).
    for (double budget : {double{kBudgetRounds}, 60.0, 150.0}) {
      fmt::print(
          "### Past the horizon on a budget of {:g} full rounds ({}; {} A/A pull requests of 50, "
          "{} with 5 of 50 changed per effect)\n\n",
          budget, kModels[model].name, aa_prs, pr_prs);
      print_header({"design", "A/A any significant", "A/A any label", "A/A decided",
                    "A/A 95% CI coverage", "A/A rounds", "A/A budget used", "power +1%",
                    "power +2%", "decided (+2% PRs)", "rounds (+2% PRs)"});
      for (const SpendDesign& d : designs) {
        const SpendTally t = run_spending(model, d, aa_prs, pr_prs, budget);
        fmt::print("| {} | {} | {} | {} | {} | {:.1f} | {:.0f}% | {} | {} | {} | {:.1f} |\n",
                   d.name, pct(t.aa_any_sig), pct(t.aa_any_alarm), pct(t.aa_decided),
                   pct(t.aa_coverage), t.aa_rounds, 100 * t.aa_used, pct(t.power[0]),
                   pct(t.power[1]), pct(t.decided[1]), t.pr_rounds);
        std::fflush(stdout);
      }
      fmt::print("\n");
    }
  }
}

// Processes slowed as a whole (`--bursts`): benchpr's reading of 30 rounds with and without
// leaving out the disturbed processes (core/verdicts/disturbed_runs), on bursts that hit both sides
// alike and on a pull request that slows some of its own processes (what the leaving out can hide).
struct BurstCase {
  const char* name;
  NoiseModel model;
};

void print_bursts(int aa_prs, int pr_prs) {
  constexpr int kBurstRounds = 30;
  NoiseModel plain = kModels[0];
  NoiseModel both = plain;
  both.burst_share = 0.08;  // cctz: 18 of 184 processes, 4.6-49% above their side's others
  NoiseModel spread = kModels[6];
  spread.burst_share = 0.08;
  NoiseModel pr_only = plain;
  pr_only.head_burst_share = 0.1;  // a PR whose code slows a tenth of its processes by 20%
  pr_only.burst_lo = pr_only.burst_hi = 0.2;
  NoiseModel pr_more = pr_only;
  pr_more.head_burst_share = 0.2;
  const std::array<BurstCase, 5> cases{{
      {"plain 1% noise, no bursts", plain},
      {"plain 1% noise, 8% of processes slowed 5–50% as a whole, both sides", both},
      {"noise spread 0.5–2%, 8% of processes slowed 5–50%, both sides", spread},
      {"plain 1% noise, the PR slows 10% of its processes by 20% (mean time +1.8%)", pr_only},
      {"plain 1% noise, the PR slows 20% of its processes by 20% (mean time +3.7%)", pr_more},
  }};
  fmt::print(
      "### Processes slowed as a whole ({} rounds; {} pull requests of 50 benchmarks per row, {} "
      "with 5 of 50 changed by +2%)\n\n",
      kBurstRounds, aa_prs, pr_prs);
  print_header({"case", "disturbed processes", "PRs with any significant", "any label",
                "benchmarks decided", "benchmarks unchanged", "95% CI covers the true change",
                "power +2%", "benchmarks read slower (PR's bursts)", "processes left out"});
  for (const BurstCase& c : cases) {
    const bool pr_effect = c.model.head_burst_share > c.model.burst_share;
    // Kept (shipped); every one left out (the first version); one side's excess left out only
    // while it hides at most a quarter of the threshold (the version before the mean time).
    for (int variant = 0; variant < 3; ++variant) {
      const bool leave_out = variant > 0;
      Rate any_sig, any_alarm, decided, unchanged, coverage, power, slower;
      double left_out = 0, processes = 0;
      const auto read = [&](const Session& s) {
        const benchpr::Results r = to_results(s, kBurstRounds);
        const benchpr::DisturbedRuns d =
            benchpr::disturbed_runs(r, -1, variant == 1 ? -1 : benchpr::kDisturbedHiddenShare);
        if (leave_out) left_out += static_cast<double>(d.runs.size());
        processes += 2.0 * kBurstRounds;
        return benchpr::analyse(leave_out ? benchpr::without_disturbed_runs(r, d) : r);
      };
      for (int i = 0; i < aa_prs; ++i) {
        const Session s = simulate(c.model, kBenchmarks, std::vector<double>(kBenchmarks, 0.0),
                                   seed_of(0, 60, i), kBurstRounds);
        const benchpr::Analysis a = read(s);
        bool sig = false, alarm = false;
        for (const benchpr::BenchmarkAnalysis& b : a.benchmarks) {
          const Call call = from_benchpr(b);
          sig |= call.significant;
          alarm |= call.alarm;
          decided.add(b.verdict != Verdict::Inconclusive);
          unchanged.add(call.unchanged);
          // The PR's bursts are its change: their mean, in logs.
          const double truth =
              pr_effect ? std::expm1(c.model.head_burst_share * std::log1p(c.model.burst_lo)) : 0;
          coverage.add(covers(call, truth));
          slower.add(call.significant && call.change > 0);
        }
        any_sig.add(sig);
        any_alarm.add(alarm);
      }
      if (!pr_effect) {
        std::vector<double> changes(kBenchmarks, 0.0);
        for (int b = 0; b < kChanged; ++b) changes[static_cast<std::size_t>(b * 10)] = 0.02;
        for (int i = 0; i < pr_prs; ++i) {
          const Session s =
              simulate(c.model, kBenchmarks, changes, seed_of(0, 61, i), kBurstRounds);
          const benchpr::Analysis a = read(s);
          for (std::size_t b = 0; b < changes.size(); ++b)
            if (changes[b] != 0) power.add(detected(from_benchpr(a.benchmarks[b]), changes[b]));
        }
      }
      fmt::print(
          "| {} | {} | {} | {} | {} | {} | {} | {} | {} | {:.1f}% |\n", c.name,
          variant == 0 ? "kept (shipped: the mean time counts them)"
          : variant == 1
              ? "all left out (first version)"
              : "one side's excess left out only while it hides ≤ ¼ of the threshold (before)",
          pct(any_sig), pct(any_alarm), pct(decided), pct(unchanged), pct(coverage),
          pr_effect ? "–" : pct(power), pr_effect ? pct(slower) : "–", 100 * left_out / processes);
      std::fflush(stdout);
    }
  }
  fmt::print("\n");
}

// What a PR's own code can do to its runs (`--pr-side`), read as shipped (benchpr::analyse with
// its defaults), beside the same machine behaviour on both sides (A/A). Every benchmark of a
// PR-side model carries the change: its true mean-time change is the expected shift of the log
// mean time, which the 95% CI must cover, and which must never read `unchanged` or "merge" when
// it reaches the threshold.
struct PrSideCase {
  const char* name;
  NoiseModel model;
};

// The true change of the geometric mean time a model's PR side makes (0 for A/A).
double pr_side_truth(const NoiseModel& m) {
  double log_change = 0;
  if (m.mode_share > 0 && m.head_mode_share >= 0)
    log_change += (m.head_mode_share - m.mode_share) * std::log1p(m.mode_shift);
  if (m.head_burst_share >= 0)
    log_change += (m.head_burst_share - m.burst_share) *
                  (std::log1p(m.burst_lo) + std::log1p(m.burst_hi)) / 2;
  return std::expm1(log_change);
}

void print_pr_side(int prs, const std::vector<std::size_t>& only) {
  NoiseModel modes{"", 0, 0, 0, Tail::Normal, 0, 0, 0, 0, 10, 0.3, 0.10};
  NoiseModel moved = modes;
  moved.head_mode_share = 0.6;
  NoiseModel far = kModels[0];
  far.mode_share = 1e-12;  // the base: no slow runs (the mode draw needs a share above 0)
  far.mode_shift = 0.6;
  far.head_mode_share = 0.1;
  NoiseModel far_few = far;
  far_few.head_mode_share = 0.05;
  NoiseModel bursts = kModels[0];
  bursts.burst_share = 0.08;
  NoiseModel own_bursts = kModels[0];
  own_bursts.head_burst_share = 0.2;
  own_bursts.burst_lo = own_bursts.burst_hi = 0.2;
  NoiseModel both = bursts;  // the machine's bursts on both sides, and the PR's own on top
  both.head_burst_share = 0.28;
  both.burst_lo = both.burst_hi = 0.2;
  const std::array<PrSideCase, 7> cases{{
      {"A/A: 30% of runs in a mode 10% slower, both sides", modes},
      {"the PR moves runs into the slow mode: 30% → 60% of runs +10%", moved},
      {"the PR makes 10% of its runs 60% slower (a one-off cost)", far},
      {"the PR makes 5% of its runs 60% slower", far_few},
      {"A/A: 8% of processes slowed 5–50% as a whole, both sides", bursts},
      {"the PR slows 20% of its processes by 20%", own_bursts},
      {"the machine slows 8% of both sides' processes by 20%, the PR 20% more of its own", both},
  }};
  fmt::print(
      "### What the PR's own code can do (`--pr-side`; {} pull requests of 50 benchmarks per row "
      "and length; every benchmark of a PR-side row carries the change)\n\n",
      prs);
  print_header({"case", "true mean-time change", "rounds", "PRs with any significant",
                "PRs recommended to merge", "benchmarks `unchanged`", "read worse (significant)",
                "95% CI covers the true change"});
  for (std::size_t c = 0; c < cases.size(); ++c) {
    if (!only.empty() && std::find(only.begin(), only.end(), c) == only.end()) continue;
    const double truth = pr_side_truth(cases[c].model);
    for (int rounds : {kRounds, kMaxRounds}) {
      Rate any_sig, merge, unchanged, worse, coverage;
      for (int i = 0; i < prs; ++i) {
        const Session s =
            simulate(cases[c].model, kBenchmarks, std::vector<double>(kBenchmarks, 0.0),
                     seed_of(c, 70, i), rounds);
        const benchpr::Analysis a = benchpr::analyse(to_results(s, rounds));
        bool sig = false;
        for (const benchpr::BenchmarkAnalysis& b : a.benchmarks) {
          const Call call = from_benchpr(b);
          sig |= call.significant;
          unchanged.add(call.unchanged);
          worse.add(call.significant && call.change > 0);
          coverage.add(covers(call, truth));
        }
        any_sig.add(sig);
        merge.add(a.recommendation.kind == benchpr::RecommendationKind::Merge);
      }
      fmt::print("| {} | {:+.1f}% | {} | {} | {} | {} | {} | {} |\n", cases[c].name, 100 * truth,
                 rounds, pct(any_sig), pct(merge), pct(unchanged), pct(worse), pct(coverage));
      std::fflush(stdout);
    }
  }
  fmt::print("\n");
}

// The code readings (`--code-readings`, docs/placement.md): time read beside exact instruction
// counts and the hot code's evidence, as shipped (benchpr::analyse applies the readings), on a
// noisy runner (per-benchmark noise SD 3–10%, as cctz's rounds on a shared 2-core VM). Every
// benchmark of a row carries its case: what the counts say, whether its hot code is the same,
// and what the PR does to its time without changing its instructions (a stall, a slow path, a
// placement shift). A time change at the threshold on changed code may read `unchanged` no more
// often than the one-sided 5% of its bound; a placement shift on identical code must never read
// `regression`.
struct CodeReadingCase {
  const char* name;
  double time_change;   // the true change of the benchmark's time
  double count_change;  // of its instructions per iteration
  bool identical;       // its hot code is byte-identical in both builds (moved by 16 bytes)
};

benchpr::Results with_code(benchpr::Results r, const CodeReadingCase& c) {
  benchpr::SuiteConfig suite;
  suite.name = "study";
  suite.instructions = true;
  r.config.suites = {suite};
  const std::size_t timed = r.series.size();
  for (std::size_t b = 0; b < timed; ++b) {
    benchpr::BenchmarkSeries s;
    s.suite = benchpr::instruction_suite_name("study");
    s.name = r.series[b].name;
    s.unit = "instructions";
    s.metric = std::string(benchpr::kInstructionsMetric);
    s.base = {2644, 2644};
    const double head = std::round(2644 * (1 + c.count_change));
    s.head = {head, head};
    r.series.push_back(std::move(s));
    benchpr::HotFunction f;
    f.name = "hot(benchmark::State&)";
    f.share = 0.95;
    f.base_address = 0x4010;
    f.head_address = 0x4020;
    f.base_size = f.head_size = 120;
    f.identical = c.identical;
    r.hot_code.push_back({"study", r.series[b].name, {f}, 0.97, "", ""});
  }
  return r;
}

void print_code_readings(int prs) {
  const NoiseModel noisy{"", 0, 0, 0, Tail::Normal, 0.03, 0.10, 0, 0};
  const std::array<CodeReadingCase, 8> cases{{
      {"A/A: changed code, the same count", 0, 0, false},
      {"A/A: identical code moved by 16 bytes", 0, 0, true},
      {"placement: identical moved code 5% slower", 0.05, 0, true},
      {"the PR's changed code stalls: +2% time, the same count", 0.02, 0, false},
      {"the PR's changed code stalls: +4% time, the same count", 0.04, 0, false},
      {"the PR's changed code: −3% time, the same count", -0.03, 0, false},
      {"the PR's changed code: +3% time, +3% instructions", 0.03, 0.03, false},
      {"the PR's changed code: 0% time, −3% instructions", 0, -0.03, false},
  }};
  fmt::print(
      "### Code readings (`--code-readings`; {} pull requests of 50 benchmarks per row and "
      "length, noise SD 3–10% per benchmark; every benchmark carries its row's case)\n\n",
      prs);
  print_header({"case", "rounds", "decided: time alone", "decided: shipped",
                "`unchanged`: time alone", "`unchanged`: shipped (same work / same count)",
                "`placement`", "`regression`", "PRs recommended to merge"});
  for (std::size_t c = 0; c < cases.size(); ++c) {
    const CodeReadingCase& k = cases[c];
    for (int rounds : {kRounds, kMaxRounds}) {
      Rate decided_time, decided, unchanged_time, unchanged, by_counts, placement, regression,
          merge;
      for (int i = 0; i < prs; ++i) {
        const Session s =
            simulate(noisy, kBenchmarks, std::vector<double>(kBenchmarks, k.time_change),
                     seed_of(c, 80, i), rounds);
        const benchpr::Results plain = to_results(s, rounds);
        const benchpr::Analysis time_alone = benchpr::analyse(plain);
        const benchpr::Analysis a = benchpr::analyse(with_code(plain, k));
        for (const benchpr::BenchmarkAnalysis& b : time_alone.benchmarks) {
          decided_time.add(b.verdict != Verdict::Inconclusive);
          unchanged_time.add(b.verdict == Verdict::Unchanged);
        }
        for (const benchpr::BenchmarkAnalysis& b : a.benchmarks) {
          if (benchpr::is_instruction_analysis(b)) continue;
          // A time row the counts decided is not left open (the count's row carries it).
          decided.add(b.verdict != Verdict::Inconclusive ||
                      b.code_reading == benchpr::CodeReading::CountsDecided);
          unchanged.add(b.verdict == Verdict::Unchanged);
          by_counts.add(b.code_reading == benchpr::CodeReading::SameWork ||
                        b.code_reading == benchpr::CodeReading::SameCount);
          placement.add(b.verdict == Verdict::Placement);
          regression.add(b.verdict == Verdict::Regression);
        }
        merge.add(a.recommendation.kind == benchpr::RecommendationKind::Merge);
      }
      fmt::print("| {} | {} | {} | {} | {} | {} ({}) | {} | {} | {} |\n", k.name, rounds,
                 pct(decided_time), pct(decided), pct(unchanged_time), pct(unchanged),
                 pct(by_counts), pct(placement), pct(regression), pct(merge));
      std::fflush(stdout);
    }
  }
  fmt::print("\n");
}

// The placement control (`--placement`, docs/placement.md): each benchmark's time depends on where
// its code sits, f(offset mod 64) at four 16-byte offsets drawn per benchmark (SD `spread`), the
// same function for both sides' identical code, which the relink put at another offset (the PR's
// program at offset b, the base's at a ≠ b). Without the control every round runs offsets a and
// b: the reading is f(b)/f(a), a placement effect passed off as the PR's. With it, analysed round
// n runs both at +16·slot(n) (core/model/placement_rotation.hpp) and the shipped analysis reads
// whole cycles. And the PR-side case the control cannot average: a change of the PR's build that
// costs the same at every placement (code that moved relative to other code, a longer jump),
// which must still read as the PR's.
struct PlacementCase {
  const char* name;
  double pr_change;  // the PR's own change at every placement
  double spread;     // SD of f over the four offsets
};

void print_placement(int prs) {
  const NoiseModel noisy{"", 0, 0, 0, Tail::Normal, 0.01, 0.03, 0, 0};
  const std::array<PlacementCase, 5> cases{{
      {"A/A: identical code the relink moved, placement SD 5%", 0, 0.05},
      {"A/A: identical code the relink moved, placement SD 2%", 0, 0.02},
      {"the PR: +5% at every placement, placement SD 5%", 0.05, 0.05},
      {"the PR: −5% at every placement, placement SD 5%", -0.05, 0.05},
      {"the PR's build: +3% at every placement, no placement effect", 0.03, 0},
  }};
  fmt::print(
      "### The placement control (`--placement`; {} pull requests of 50 benchmarks per row and "
      "length, noise SD 1–3% per benchmark; analysed as shipped)\n\n",
      prs);
  print_header({"case", "rounds", "control", "`regression`", "`improvement`", "`unchanged`",
                "95% CI covers the PR's change", "PRs recommended to merge"});
  for (std::size_t c = 0; c < cases.size(); ++c) {
    const PlacementCase& k = cases[c];
    for (int rounds : {16, 32}) {
      for (bool control : {false, true}) {
        Rate regression, improvement, unchanged, coverage, merge;
        for (int i = 0; i < prs; ++i) {
          const std::uint64_t seed = seed_of(c, 90, i);
          Session s = simulate(noisy, kBenchmarks, std::vector<double>(kBenchmarks, k.pr_change),
                               seed, rounds);
          std::mt19937_64 rng(seed ^ 0x51ace0ffULL);
          std::normal_distribution<double> effect(0, k.spread);
          std::uniform_int_distribution<int> offset(0, 3), other(1, 3);
          for (std::size_t b = 0; b < s.base.size(); ++b) {
            std::array<double, 4> f{};
            for (double& x : f) x = k.spread > 0 ? effect(rng) : 0;
            const int a = offset(rng);
            const int h = (a + other(rng)) % 4;  // the relink moved the PR's code
            int number = 0;
            for (std::size_t r = 0; r < s.plan.size(); ++r) {
              if (!s.plan[r].warmup) ++number;
              const int slot =
                  control && !s.plan[r].warmup ? benchpr::placement_slot(number, 4) : 0;
              s.base[b][r] *= std::exp(f[static_cast<std::size_t>((a + slot) % 4)]);
              s.head[b][r] *= std::exp(f[static_cast<std::size_t>((h + slot) % 4)]);
            }
          }
          benchpr::Results r = to_results(s, rounds);
          if (control) r.placement_shifts = {0, 16, 32, 48};
          const benchpr::Analysis a = benchpr::analyse(r);
          for (const benchpr::BenchmarkAnalysis& b : a.benchmarks) {
            const Call call = from_benchpr(b);
            regression.add(b.verdict == Verdict::Regression);
            improvement.add(b.verdict == Verdict::Improvement);
            unchanged.add(b.verdict == Verdict::Unchanged);
            coverage.add(covers(call, k.pr_change));
          }
          merge.add(a.recommendation.kind == benchpr::RecommendationKind::Merge);
        }
        fmt::print("| {} | {} | {} | {} | {} | {} | {} | {} |\n", k.name, rounds,
                   control ? "on" : "off", pct(regression), pct(improvement), pct(unchanged),
                   pct(coverage), pct(merge));
        std::fflush(stdout);
      }
    }
  }
  fmt::print("\n");
}

int main(int argc, char** argv) {
  bool quick = false, check = false, targets_only = false, spending = false, horizon = false,
       size_open = false, bursts = false, pr_side = false, code_readings = false, placement = false;
  bool uneven_only = false, robust_only = false;
  int pr_side_prs = 0;                    // --prs N: pull requests per --pr-side row (default 500)
  std::vector<std::size_t> pr_side_only;  // --cases 0,4: only these --pr-side rows
  int divide = 1;                         // --divide N: N times fewer simulations than the full run
  std::vector<std::size_t> uneven_chosen;
  for (std::size_t v = 0; v < kTablePriors; ++v) uneven_chosen.push_back(v);
  std::string svg_path;
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (arg == "--quick") {
      quick = true;
    } else if (arg == "--check") {
      check = true;
    } else if (arg == "--spending") {
      spending = true;
    } else if (arg == "--horizon") {
      horizon = true;
    } else if (arg == "--size-open") {
      size_open = true;
    } else if (arg == "--bursts") {
      bursts = true;
    } else if (arg == "--pr-side") {
      pr_side = true;
    } else if (arg == "--placement") {
      placement = true;
    } else if (arg == "--code-readings") {
      code_readings = true;
    } else if (arg == "--prs" && i + 1 < argc) {
      pr_side_prs = std::max(1, std::atoi(argv[++i]));
    } else if (arg == "--cases" && i + 1 < argc) {
      for (std::string_view list = argv[++i]; !list.empty();) {
        const std::size_t comma = std::min(list.find(','), list.size());
        pr_side_only.push_back(
            static_cast<std::size_t>(std::atoi(std::string(list.substr(0, comma)).c_str())));
        list.remove_prefix(std::min(comma + 1, list.size()));
      }
    } else if (arg == "--targets-only") {
      targets_only = true;
    } else if (arg == "--uneven-only") {
      uneven_only = true;
    } else if (arg == "--robust-only") {
      robust_only = true;
    } else if (arg == "--estimators" && i + 1 < argc) {
      g_estimators.assign(kEstimators.size(), false);
      for (std::string_view list = argv[++i]; !list.empty();) {
        const std::size_t comma = std::min(list.find(','), list.size());
        const auto e =
            static_cast<std::size_t>(std::atoi(std::string(list.substr(0, comma)).c_str()));
        if (e < g_estimators.size()) g_estimators[e] = true;
        list.remove_prefix(std::min(comma + 1, list.size()));
      }
    } else if (arg == "--fixed-prior" && i + 1 < argc) {
      const std::size_t v = static_cast<std::size_t>(std::atoi(argv[++i]));
      if (v < kPriorVariants.size()) g_fixed_options = kPriorVariants[v].options;
    } else if (arg == "--priors" && i + 1 < argc) {
      // --priors 0,2,3: the rows of table 10 to run, by their place in kPriorVariants
      uneven_chosen.clear();
      for (std::string_view list = argv[++i]; !list.empty();) {
        const std::size_t comma = std::min(list.find(','), list.size());
        const std::size_t v =
            static_cast<std::size_t>(std::atoi(std::string(list.substr(0, comma)).c_str()));
        if (v < kPriorVariants.size()) uneven_chosen.push_back(v);
        list.remove_prefix(std::min(comma + 1, list.size()));
      }
    } else if (arg == "--divide" && i + 1 < argc) {
      divide = std::max(1, std::atoi(argv[++i]));
    } else if (arg == "--svg" && i + 1 < argc) {
      svg_path = argv[++i];
    } else {
      std::fprintf(stderr,
                   "usage: method_study [--quick] [--targets-only] [--uneven-only] [--robust-only] "
                   "[--divide N] [--estimators I,J] [--priors LIST] [--fixed-prior N] [--spending] "
                   "[--horizon] [--size-open] [--bursts] [--pr-side [--prs N] [--cases LIST]] "
                   "[--code-readings [--prs N]] "
                   "[--check] "
                   "[--svg FILE]\n");
      return 2;
    }
  }
  const int scale = quick ? 10 : divide;
  const int aa_prs = 2000 / scale, pr_prs = 600 / scale, single_prs = 4000 / scale;
  const MannWhitneyExact mw(kRounds);
  const benchpr::AdaptivePlan adaptive = benchpr::make_adaptive_plan(kRounds, kMaxRounds, kAlpha);

  if (bursts) {
    print_bursts(aa_prs / 4, pr_prs / 4);
    return 0;
  }
  if (code_readings) {
    print_code_readings(pr_side_prs > 0 ? pr_side_prs : aa_prs / 10);
    return 0;
  }
  if (placement) {
    print_placement(pr_side_prs > 0 ? pr_side_prs : aa_prs / 10);
    return 0;
  }
  if (pr_side) {
    print_pr_side(pr_side_prs > 0 ? pr_side_prs : aa_prs / 4, pr_side_only);
    return 0;
  }
  if (size_open) {
    // Sessions here run up to 1,000 rounds, two designs: a tenth of the other tables' counts.
    print_size_open(quick ? aa_prs / 2 : aa_prs / 10, quick ? pr_prs / 2 : pr_prs / 10);
    return 0;
  }
  if (horizon) {
    // Sessions here run up to 1,000 rounds: a tenth of the other tables' counts.
    print_horizon(quick ? aa_prs / 2 : aa_prs / 10, quick ? pr_prs / 2 : pr_prs / 10);
    return 0;
  }
  if (spending) {
    // Each pull request here replays up to 10 looks: a fifth of the other tables' counts.
    print_spending(quick ? aa_prs : aa_prs / 5, quick ? pr_prs : pr_prs / 5);
    return 0;
  }
  if (uneven_only) {
    std::vector<std::vector<UnevenRow>> variants;
    for (std::size_t v : uneven_chosen)
      variants.push_back(run_uneven(aa_prs, pr_prs, kPriorVariants[v].options));
    print_uneven(variants, uneven_chosen, aa_prs, pr_prs);
    return 0;
  }
  if (robust_only) {
    print_robust(run_robust_all(aa_prs, pr_prs), aa_prs, pr_prs);
    return 0;
  }
  const auto start = std::chrono::steady_clock::now();
  std::vector<ModelTally> tallies;
  if (!targets_only) {
    for (std::size_t i = 0; i < kModels.size(); ++i) {
      tallies.push_back(run_model(i, aa_prs, pr_prs, single_prs, mw, adaptive));
    }
  }
  std::vector<TargetTally> targets;
  for (const Variant& v : kVariants) targets.push_back(run_targets(v, aa_prs, pr_prs));
  const std::vector<CurvePoint> curve = run_curve(pr_prs);
  const std::vector<ColdRow> cold = run_cold(pr_prs);
  const std::vector<HeadlinePoint> headline = run_headline(pr_prs);
  std::vector<std::vector<UnevenRow>> uneven_variants;
  for (std::size_t v : uneven_chosen)
    uneven_variants.push_back(run_uneven(aa_prs, pr_prs, kPriorVariants[v].options));
  // The targets are checked on the prior as shipped (when --priors leaves it out: not at all).
  std::vector<UnevenRow> uneven;
  for (std::size_t v = 0; v < uneven_chosen.size(); ++v)
    if (uneven_chosen[v] == kShippedPrior) uneven = uneven_variants[v];
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

  std::string alphas;
  for (double a : adaptive.alpha_per_look)
    alphas += fmt::format("{}{:.3g}%", alphas.empty() ? "" : "/", 100 * a);
  fmt::print("## benchpr method study{}\n\n", quick ? " (quick: 10× fewer simulations)" : "");
  fmt::print(
      "Runs per side: {} (+{} warm-up); threshold {:.0f}%; α {:.0f}%; adaptive looks at "
      "{} rounds with α {}.\n\n",
      kRounds, kWarmup, 100 * kThreshold, 100 * kAlpha, fmt::join(adaptive.looks, "/"), alphas);
  if (!targets_only) print_tables(tallies, aa_prs, pr_prs, single_prs);
  print_targets(targets, curve, cold, aa_prs, pr_prs);
  print_headline(headline, pr_prs);
  print_uneven(uneven_variants, uneven_chosen, aa_prs, pr_prs);
  if (!svg_path.empty()) {
    std::FILE* f = std::fopen(svg_path.c_str(), "w");
    if (!f) {
      std::fprintf(stderr, "method_study: cannot write %s\n", svg_path.c_str());
      return 1;
    }
    const std::string svg = curve_svg(curve);
    std::fwrite(svg.data(), 1, svg.size(), f);
    std::fclose(f);
  }
  std::fprintf(stderr, "method_study: %.1f s\n", seconds);
  if (check) {
    int failed = 0;
    std::vector<Check> checks = target_checks(targets);
    for (std::size_t c = 0; c < headline.size(); ++c)
      checks.push_back(
          {fmt::format("plain merge while +{:g}% shown ≥ 2%", 100 * headline[c].change),
           headline[c].merge_at_threshold.value(), 0, 0, 0, 0});
    for (const ColdRow& r : cold)
      if (std::string_view(r.name).starts_with("no cold round"))
        checks.push_back(
            {std::string("cold-round note: ") + r.name, r.noted.value(), 0, 0.05, 0, 0.09});
    for (std::size_t c = 0; c < uneven.size(); ++c) {
      const std::string at = fmt::format(" ({})", kUneven[c].name);
      checks.push_back({"A/A any significant" + at, uneven[c].any_sig.value(), 0, 0.05, 0, 0.09});
      if (kUneven[c].noisy > 0)
        checks.push_back({"95% CI coverage, noisy" + at, uneven[c].noisy_coverage.value(), 0.93,
                          0.97, 0.90, 0.99});
    }
    for (const Check& c : checks) {
      const double lo = quick ? c.quick_lo : c.lo, hi = quick ? c.quick_hi : c.hi;
      if (c.value >= lo && c.value <= hi) continue;
      ++failed;
      std::fprintf(stderr, "method_study: target missed: %s = %.2f%% (accepted %.1f%%–%.1f%%)\n",
                   c.name.c_str(), 100 * c.value, 100 * lo, 100 * hi);
    }
    if (failed > 0) return 1;
  }
  return 0;
}
