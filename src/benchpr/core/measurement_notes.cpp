#include "benchpr/core/measurement_notes.hpp"

#include <algorithm>
#include <cmath>
#include <map>

#include <fmt/format.h>

#include "benchpr/core/paired_rounds.hpp"
#include "benchpr/core/stats.hpp"
#include "benchpr/core/wording.hpp"

namespace benchpr {

namespace {

constexpr double kBusyShare = 0.8;         // below this share of a CPU a round may be busy
constexpr double kOthersBusyCpus = 0.5;    // ... when other processes kept this many CPUs busy
constexpr double kLopsidedRatio = 0.5;     // one side got less than half the other's share
constexpr double kConsistentShare = 0.75;  // waiting gap in the same direction in 3 of 4 rounds
constexpr std::size_t kMaxNamedWaiting = 5;

double at(const std::vector<double>& v, int i) {
  return i >= 0 && static_cast<std::size_t>(i) < v.size() ? v[static_cast<std::size_t>(i)]
                                                          : kMissing;
}
bool usable(double v) { return std::isfinite(v) && v > 0; }

std::string plural(std::size_t n, const char* one, const char* many) {
  return fmt::format("{} {}", n, n == 1 ? one : many);
}

const SuiteConfig* suite_config(const Results& r, const std::string& name) {
  for (const SuiteConfig& s : r.config.suites)
    if (s.name == name) return &s;
  return nullptr;
}

// Whether the compared value of `series` is wall-clock time, which a busy machine lengthens.
bool compares_wall_time(const Results& r, const BenchmarkSeries& s) {
  if (s.metric == "real_time") return true;
  if (s.metric == "cpu_time") return false;
  const SuiteConfig* c = suite_config(r, s.suite);
  if (!c) return false;
  if (c->format == "command") return c->metric.empty() || c->metric == "wall_time";
  if (c->format == "hyperfine") return c->metric != "user" && c->metric != "system";
  return c->format == "jmh";
}

void metric_notes(const Results& results, Analysis& analysis) {
  std::map<std::string, std::pair<int, int>> per_suite;  // suite -> (cpu, real)
  std::vector<std::string> order;
  for (const BenchmarkSeries& s : results.series) {
    if (s.metric != "cpu_time" && s.metric != "real_time") continue;
    auto [it, inserted] = per_suite.try_emplace(s.suite, 0, 0);
    if (inserted) order.push_back(s.suite);
    (s.metric == "cpu_time" ? it->second.first : it->second.second)++;
  }
  for (const std::string& suite : order) {
    const auto [cpu, real] = per_suite[suite];
    const SuiteConfig* c = suite_config(results, suite);
    const bool chosen = c && !c->metric.empty() && c->metric != "auto";
    std::string text;
    if (chosen) {
      text = fmt::format("Suite `{}` compared {} (metric: {}).", suite,
                         cpu > 0 ? "CPU time" : "real time", c->metric);
    } else if (real == 0) {
      text = fmt::format(
          "Suite `{}` compared CPU time (its benchmarks run on one thread), which a busy "
          "machine lengthens far less than wall time.",
          suite);
    } else if (cpu == 0) {
      text = fmt::format(
          "Suite `{}` compared real time (its benchmarks use several threads, UseRealTime or "
          "UseManualTime).",
          suite);
    } else {
      text = fmt::format(
          "Suite `{}` compared CPU time for {} and real time for {} (several threads, "
          "UseRealTime or UseManualTime).",
          suite,
          plural(static_cast<std::size_t>(cpu), "single-threaded benchmark",
                 "single-threaded benchmarks"),
          real);
    }
    analysis.notes.push_back(std::move(text));
  }
}

void waiting_notes(const Results& results, Analysis& analysis) {
  // Only rounds where the machine was not busy: there a neighbour's load would pass for waiting,
  // and the study shows the guard has no power left under it anyway.
  const std::vector<AnalysedRound> rounds = analysed_rounds(results);
  const std::vector<RoundLoad> loads = round_loads(results);
  std::vector<int> idx;
  std::vector<int> signs;
  for (const AnalysedRound& r : rounds) {
    const auto load = std::find_if(loads.begin(), loads.end(),
                                   [&](const RoundLoad& l) { return l.number == r.number; });
    if (load != loads.end() && round_busy(*load)) continue;
    idx.push_back(r.round);
    signs.push_back(r.head_second ? 1 : -1);
  }
  struct Candidate {
    std::size_t benchmark;
    WaitingCheck check;
  };
  std::vector<Candidate> candidates;
  std::vector<double> ps;
  for (std::size_t i = 0; i < analysis.benchmarks.size(); ++i) {
    const BenchmarkAnalysis& b = analysis.benchmarks[i];
    const auto s = std::find_if(
        results.series.begin(), results.series.end(),
        [&](const BenchmarkSeries& x) { return x.suite == b.suite && x.name == b.name; });
    if (s == results.series.end() || s->metric != "cpu_time") continue;
    const WaitingCheck c =
        waiting_check(s->base_real, s->head_real, s->base_cpu, s->head_cpu, idx, signs);
    if (std::isnan(c.p)) continue;
    candidates.push_back({i, c});
    ps.push_back(c.p);
  }
  const std::vector<double> adjusted = stats::benjamini_hochberg(ps);
  std::vector<std::string> named;
  std::size_t noted = 0;
  for (std::size_t k = 0; k < candidates.size(); ++k) {
    const WaitingCheck& c = candidates[k].check;
    if (!waiting_noted(c, adjusted[k], results.config.threshold)) continue;
    BenchmarkAnalysis& b = analysis.benchmarks[candidates[k].benchmark];
    b.flags.push_back("waiting");
    ++noted;
    if (named.size() < kMaxNamedWaiting) {
      named.push_back(fmt::format("`{}` (real time {}, CPU time {})", b.name,
                                  format_signed_percent(c.real_change),
                                  format_signed_percent(c.cpu_change)));
    }
  }
  if (noted == 0) return;
  std::string list;
  for (std::size_t i = 0; i < named.size(); ++i) {
    if (i > 0) list += i + 1 == named.size() ? " and " : ", ";
    list += named[i];
  }
  if (noted > named.size()) list += fmt::format(" and {} more", noted - named.size());
  analysis.notes.push_back(fmt::format(
      "Wall time moved while CPU time did not: {}. The PR changed how long {} wait (sleep, I/O, "
      "locks), which the compared CPU time does not count.",
      list, noted == 1 ? "this benchmark spends in" : "these benchmarks spend in"));
}

void busy_notes(const Results& results, Analysis& analysis) {
  const std::vector<RoundLoad> loads = round_loads(results);
  std::vector<int> busy;
  std::vector<double> shares;
  std::vector<double> others;
  std::vector<int> lopsided;
  for (const RoundLoad& l : loads) {
    if (!round_busy(l)) continue;
    busy.push_back(l.number);
    shares.push_back(l.share);
    if (!is_missing(l.others_cpus)) others.push_back(l.others_cpus);
    if (round_lopsided(l)) lopsided.push_back(l.number);
  }
  if (busy.empty()) return;
  std::string text =
      fmt::format("The machine was busy: the benchmark processes got about {:.0f}% of a CPU in {}",
                  stats::median(shares) * 100, round_ranges(busy));
  if (!others.empty())
    text += fmt::format(" (other processes kept about {:.1f} CPUs busy)", stats::median(others));
  text += ".";
  std::size_t wall = 0;
  for (const BenchmarkAnalysis& b : analysis.benchmarks) {
    const auto s = std::find_if(
        results.series.begin(), results.series.end(),
        [&](const BenchmarkSeries& x) { return x.suite == b.suite && x.name == b.name; });
    if (s != results.series.end() && compares_wall_time(results, *s)) ++wall;
  }
  if (wall == 0) {
    text +=
        " CPU time was compared, which a neighbour's load lengthens far less than wall time; "
        "the spread of the rounds shows what it did.";
  } else {
    text += fmt::format(
        " {} compared wall time, which the load lengthens at random: their rounds spread more, "
        "so fewer of them reach a verdict, but both sides ran under it in alternating order, so "
        "it favours neither.",
        wall == 1 ? std::string("1 benchmark") : fmt::format("{} benchmarks", wall));
    if (!lopsided.empty() && 4 * lopsided.size() <= loads.size()) {
      text += fmt::format(
          " In {} one side got less than half the CPU the other got: {} left out for the "
          "benchmarks compared on wall time.",
          round_ranges(lopsided), lopsided.size() == 1 ? "that round is" : "those rounds are");
    }
  }
  analysis.notes.push_back(std::move(text));
}

}  // namespace

WaitingCheck waiting_check(const std::vector<double>& base_real,
                           const std::vector<double>& head_real,
                           const std::vector<double>& base_cpu, const std::vector<double>& head_cpu,
                           const std::vector<int>& rounds, const std::vector<int>& signs) {
  WaitingCheck c;
  std::vector<double> w;
  std::vector<int> s;
  double real_sum = 0;
  double cpu_sum = 0;
  for (std::size_t k = 0; k < rounds.size(); ++k) {
    const int r = rounds[k];
    const double rb = at(base_real, r), rh = at(head_real, r), cb = at(base_cpu, r),
                 ch = at(head_cpu, r);
    if (!usable(rb) || !usable(rh) || !usable(cb) || !usable(ch)) continue;
    const double real = std::log(rh / rb);
    const double cpu = std::log(ch / cb);
    w.push_back(real - cpu);
    s.push_back(k < signs.size() ? signs[k] : 1);
    real_sum += real;
    cpu_sum += cpu;
  }
  c.rounds = static_cast<int>(w.size());
  if (c.rounds < 3) return c;
  const stats::CrossoverFit fit = stats::fit_crossover(w, s);
  if (!fit.usable()) return c;
  const double n = static_cast<double>(c.rounds);
  c.wait_change = std::expm1(fit.mu);
  c.real_change = std::expm1(real_sum / n);
  c.cpu_change = std::expm1(cpu_sum / n);
  c.p = fit.se_mu > 0 ? fit.p_mu() : (fit.mu != 0 ? 0.0 : 1.0);
  for (double x : w)
    if ((x > 0) == (fit.mu > 0) && x != 0) ++c.same_sign_rounds;
  return c;
}

bool waiting_noted(const WaitingCheck& c, double p_adjusted, double threshold) {
  if (c.rounds < 3 || std::isnan(p_adjusted) || p_adjusted >= 0.05) return false;
  if (std::fabs(c.wait_change) < threshold || std::fabs(c.real_change) < threshold) return false;
  if ((c.wait_change > 0) != (c.real_change > 0)) return false;
  return c.same_sign_rounds >= kConsistentShare * c.rounds;
}

std::vector<RoundLoad> round_loads(const Results& results) {
  std::vector<RoundLoad> out;
  for (const AnalysedRound& r : analysed_rounds(results)) {
    RoundLoad l;
    l.number = r.number;
    double cpu[2] = {0, 0}, wall[2] = {0, 0}, others = 0, others_wall = 0;
    for (const RunRecord& run : results.runs) {
      if (run.round != r.round || is_missing(run.cpu_seconds) || run.seconds <= 0) continue;
      const int side = run.side == Side::Base ? 0 : 1;
      cpu[side] += run.cpu_seconds;
      wall[side] += run.seconds;
      if (!is_missing(run.others_cpus)) {
        others += run.others_cpus * run.seconds;
        others_wall += run.seconds;
      }
    }
    if (wall[0] + wall[1] <= 0) continue;
    l.share = (cpu[0] + cpu[1]) / (wall[0] + wall[1]);
    if (wall[0] > 0) l.base_share = cpu[0] / wall[0];
    if (wall[1] > 0) l.head_share = cpu[1] / wall[1];
    if (others_wall > 0) l.others_cpus = others / others_wall;
    out.push_back(l);
  }
  return out;
}

bool round_busy(const RoundLoad& load) {
  if (is_missing(load.share) || load.share >= kBusyShare) return false;
  return is_missing(load.others_cpus) || load.others_cpus >= kOthersBusyCpus;
}

bool round_lopsided(const RoundLoad& load) {
  if (!round_busy(load)) return false;
  if (is_missing(load.base_share) || is_missing(load.head_share)) return false;
  const double lo = std::min(load.base_share, load.head_share);
  const double hi = std::max(load.base_share, load.head_share);
  return hi > 0 && lo < kLopsidedRatio * hi;
}

std::string round_ranges(const std::vector<int>& numbers) {
  std::vector<std::string> parts;
  for (std::size_t i = 0; i < numbers.size();) {
    std::size_t j = i;
    while (j + 1 < numbers.size() && numbers[j + 1] == numbers[j] + 1) ++j;
    parts.push_back(j == i ? std::to_string(numbers[i])
                           : fmt::format("{}–{}", numbers[i], numbers[j]));
    i = j + 1;
  }
  std::string out = numbers.size() == 1 ? "round " : "rounds ";
  for (std::size_t i = 0; i < parts.size(); ++i) {
    if (i > 0) out += i + 1 == parts.size() ? " and " : ", ";
    out += parts[i];
  }
  return out;
}

Results without_lopsided_rounds(const Results& results) {
  const std::vector<RoundLoad> loads = round_loads(results);
  std::vector<int> drop;
  for (const RoundLoad& l : loads)
    if (round_lopsided(l)) drop.push_back(l.number);
  // A side that is starved in most rounds is the PR's own doing (it waits more, or less), not
  // a neighbour's: those rounds are the measurement, and stay.
  if (drop.empty() || 4 * drop.size() > loads.size()) return results;
  Results out = results;
  for (const AnalysedRound& r : analysed_rounds(results)) {
    if (std::find(drop.begin(), drop.end(), r.number) == drop.end()) continue;
    const auto i = static_cast<std::size_t>(r.round);
    for (BenchmarkSeries& s : out.series) {
      if (!compares_wall_time(results, s)) continue;
      if (i < s.base.size()) s.base[i] = kMissing;
      if (i < s.head.size()) s.head[i] = kMissing;
    }
  }
  return out;
}

void add_measurement_notes(const Results& results, Analysis& analysis) {
  metric_notes(results, analysis);
  waiting_notes(results, analysis);
  busy_notes(results, analysis);
}

}  // namespace benchpr
