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
#include <limits>
#include <random>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "benchpr/core/adaptive.hpp"
#include "benchpr/core/analysis.hpp"
#include "benchpr/core/model.hpp"
#include "benchpr/core/schedule.hpp"
#include "benchpr/core/stats.hpp"

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
};

constexpr std::array<NoiseModel, 6> kModels{{
    {"plain 1% noise", 0, 0, 0, Tail::Normal},
    {"5% linear drift", 0.05, 0, 0, Tail::Normal},
    {"5% mid-session step", 0, 0.05, 0, Tail::Normal},
    {"2% second-run penalty", 0, 0, 0.02, Tail::Normal},
    {"heavy tails: t(3), SD 1%", 0, 0, 0, Tail::StudentT3},
    {"heavy tails: 5% outliers ×10", 0, 0, 0, Tail::Outliers},
}};

// Drift keeps its rate past the fixed session (adaptive sessions run longer); the step happens
// once, halfway through the fixed session.
double machine_log_factor(const NoiseModel& m, int slot) {
  double f = std::log1p(m.drift) * slot / (kSlotsPerSession - 1);
  if (slot >= kSlotsPerSession / 2) f += std::log1p(m.step);
  return f;
}

double draw_noise(const NoiseModel& m, std::mt19937_64& rng) {
  std::normal_distribution<double> normal(0, 1);
  switch (m.tail) {
    case Tail::Normal:
      return kNoiseSd * normal(rng);
    case Tail::StudentT3: {
      std::student_t_distribution<double> t3(3);
      return kNoiseSd / std::sqrt(3.0) * t3(rng);  // t(3) has variance 3: SD stays 1%
    }
    case Tail::Outliers: {
      std::uniform_real_distribution<double> u(0, 1);
      const double sd = u(rng) < 0.05 ? 10 * kNoiseSd : kNoiseSd;
      return sd * normal(rng);
    }
  }
  return 0;
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
                 std::uint64_t seed) {
  Session s;
  s.plan = benchpr::make_schedule(kMaxRounds, kWarmup, seed);
  s.true_change = true_change;
  std::mt19937_64 rng(seed ^ 0x9e3779b97f4a7c15ULL);
  std::uniform_real_distribution<double> level(std::log(10.0), std::log(1e6));  // 10 ns .. 1 ms
  const std::size_t rounds = s.plan.size();
  for (int b = 0; b < benchmarks; ++b) {
    const double true_log = level(rng);
    const double effect = std::log1p(true_change[static_cast<std::size_t>(b)]);
    std::vector<double> eb(rounds), eh(rounds);
    for (std::size_t r = 0; r < rounds; ++r) {
      eb[r] = draw_noise(m, rng);
      eh[r] = draw_noise(m, rng);
    }
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
constexpr std::array<const char*, 5> kKinds{"significant", "unchanged", "inconclusive: order",
                                            "inconclusive: unstable", "inconclusive: no signal"};

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
  auto flagged = [&](const char* f) {
    return std::find(a.flags.begin(), a.flags.end(), f) != a.flags.end();
  };
  if (c.significant) {
    c.kind = 0;
  } else if (c.unchanged) {
    c.kind = 1;
  } else if (flagged("order")) {
    c.kind = 2;
  } else if (flagged("unstable")) {
    c.kind = 3;
  } else {
    c.kind = 4;
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
    // The runner's path, look by look, must agree with the replay.
    for (std::size_t k = 0; k < adaptive.looks.size(); ++k) {
      results.rounds_done = kWarmup + adaptive.looks[k];
      const benchpr::LookDecision d = benchpr::decide_at_look(
          results, adaptive, static_cast<int>(k), std::numeric_limits<double>::infinity(), 1.0);
      if (d.stop) {
        if (d.rounds != looks.rounds) throw std::logic_error("adaptive: stop rounds differ");
        break;
      }
    }
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

}  // namespace

int main(int argc, char** argv) {
  bool quick = false;
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (arg == "--quick") {
      quick = true;
    } else {
      std::fprintf(stderr, "usage: method_study [--quick]\n");
      return 2;
    }
  }
  const int scale = quick ? 10 : 1;
  const int aa_prs = 2000 / scale, pr_prs = 600 / scale, single_prs = 4000 / scale;
  const MannWhitneyExact mw(kRounds);
  const benchpr::AdaptivePlan adaptive = benchpr::make_adaptive_plan(kRounds, kMaxRounds, kAlpha);

  const auto start = std::chrono::steady_clock::now();
  std::vector<ModelTally> tallies;
  for (std::size_t i = 0; i < kModels.size(); ++i) {
    tallies.push_back(run_model(i, aa_prs, pr_prs, single_prs, mw, adaptive));
  }
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
  print_tables(tallies, aa_prs, pr_prs, single_prs);
  std::fprintf(stderr, "method_study: %.1f s\n", seconds);
  return 0;
}
