#include "benchpr/core/notes/measurement_notes.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <unordered_map>
#include <unordered_set>

#include <fmt/format.h>

#include "benchpr/core/base/series_key.hpp"
#include "benchpr/core/stats/paired_rounds.hpp"
#include "benchpr/core/stats/stats.hpp"
#include "benchpr/core/wording/sentence.hpp"
#include "benchpr/core/wording/wording.hpp"

namespace benchpr {

namespace {

constexpr double kBusyShare = 0.8;         // below this share of a CPU a round may be busy
constexpr double kOthersBusyCpus = 0.5;    // ... when other processes kept this many CPUs busy
constexpr double kLopsidedRatio = 0.5;     // one side got less than half the other's share
constexpr double kConsistentShare = 0.75;  // waiting gap in the same direction in 3 of 4 rounds
constexpr std::size_t kMaxNamedWaiting = 5;
// The stricter bar where busy rounds are used (docs/method.md, "The waiting guard").
constexpr double kBusyWaitAlpha = 0.002;
constexpr double kBusyWaitFactor = 5;         // the waiting change at least 5 thresholds
constexpr double kBusyConsistentShare = 0.9;  // the gap in the same direction in 9 of 10 rounds
// When at least half the rounds were busy, the load came and went all along and the rounds that
// looked quiet are not trusted as quiet either (docs/method.md, "The waiting guard"). At a
// quarter, sessions with a tenth of their runs starved crossed it often and lost a fifth of
// their power to see waiting.
constexpr double kMostlyBusyShare = 0.5;

double at(const std::vector<double>& v, int i) {
  return i >= 0 && static_cast<std::size_t>(i) < v.size() ? v[static_cast<std::size_t>(i)]
                                                          : kMissing;
}
bool usable(double v) { return std::isfinite(v) && v > 0; }

// The configured suites by name: every look-up below is one hash, so the notes stay linear in
// the size of the results (a file can name 100,000 suites, runs and benchmarks).
class SuiteIndex {
 public:
  explicit SuiteIndex(const Results& r) {
    for (const SuiteConfig& s : r.config.suites) by_name_.try_emplace(s.name, &s);
  }
  const SuiteConfig* find(const std::string& name) const {
    const auto it = by_name_.find(name);
    return it == by_name_.end() ? nullptr : it->second;
  }

 private:
  std::unordered_map<std::string, const SuiteConfig*> by_name_;
};

// The series of each analysed benchmark (nullptr where there is none), in the analysis' order.
std::vector<const BenchmarkSeries*> series_of(const Results& results, const Analysis& analysis) {
  std::unordered_map<std::string, const BenchmarkSeries*> by_key;
  for (const BenchmarkSeries& s : results.series)
    by_key.try_emplace(series_key(s.suite, s.name), &s);
  std::vector<const BenchmarkSeries*> out;
  out.reserve(analysis.benchmarks.size());
  for (const BenchmarkAnalysis& b : analysis.benchmarks) {
    const auto it = by_key.find(series_key(b.suite, b.name));
    out.push_back(it == by_key.end() ? nullptr : it->second);
  }
  return out;
}

// Whether the compared value of `series` is wall-clock time, which a busy machine lengthens.
bool compares_wall_time(const SuiteIndex& suites, const BenchmarkSeries& s) {
  if (s.metric == "real_time") return true;
  if (s.metric == "cpu_time") return false;
  const SuiteConfig* c = suites.find(s.suite);
  return c && benchpr::compares_wall_time(c->format, c->metric);
}

// The benchmarks of `missed` by series key.
std::unordered_set<std::string> missed_keys(const std::vector<MissedWork>& missed) {
  std::unordered_set<std::string> keys;
  for (const MissedWork& m : missed) keys.insert(series_key(m.suite, m.name));
  return keys;
}

// Benchmarks compared on wall time because their CPU time missed work have a note of their own.
void metric_notes(const Results& results, Analysis& analysis,
                  const std::vector<MissedWork>& missed) {
  const std::unordered_set<std::string> switched = missed_keys(missed);
  std::map<std::string, std::pair<int, int>> per_suite;  // suite -> (cpu, real)
  std::vector<std::string> order;
  for (const BenchmarkSeries& s : results.series) {
    if (s.metric != "cpu_time" && s.metric != "real_time") continue;
    if (switched.count(series_key(s.suite, s.name)) > 0) continue;
    auto [it, inserted] = per_suite.try_emplace(s.suite, 0, 0);
    if (inserted) order.push_back(s.suite);
    (s.metric == "cpu_time" ? it->second.first : it->second.second)++;
  }
  const SuiteIndex suites(results);
  for (const std::string& suite : order) {
    const auto [cpu, real] = per_suite[suite];
    const SuiteConfig* c = suites.find(suite);
    const bool chosen = c && !c->metric.empty() && c->metric != "auto";
    Sentence text;
    text.text("Suite ").code(suite);
    if (chosen) {
      text.text(
          fmt::format(" compared {} (metric: {}).", cpu > 0 ? "CPU time" : "real time", c->metric));
    } else if (real == 0) {
      text.text(
          " compared CPU time (its benchmarks run on one thread), which a busy machine lengthens "
          "far less than wall time.");
    } else if (cpu == 0) {
      text.text(
          " compared real time (its benchmarks use several threads, UseRealTime or "
          "UseManualTime).");
    } else {
      text.text(fmt::format(
          " compared CPU time for {} and real time for {} (several threads, UseRealTime or "
          "UseManualTime).",
          plural(static_cast<std::size_t>(cpu), "single-threaded benchmark",
                 "single-threaded benchmarks"),
          real));
    }
    analysis.notes.emplace_back(NoteKind::Other, std::move(text).take());
  }
}

// The paired wall-vs-CPU gap ln(real_head/real_base) - ln(cpu_head/cpu_base) of `s` in plan
// round `r`, or NaN.
double paired_gap(const BenchmarkSeries& s, int r) {
  const double rb = at(s.base_real, r), rh = at(s.head_real, r), cb = at(s.base_cpu, r),
               ch = at(s.head_cpu, r);
  if (!usable(rb) || !usable(rh) || !usable(cb) || !usable(ch)) return kMissing;
  return std::log(rh / rb) - std::log(ch / cb);
}

// The median of `sorted` (not empty).
double median_of(const std::vector<double>& sorted) {
  const std::size_t m = sorted.size();
  return m % 2 == 1 ? sorted[m / 2] : 0.5 * (sorted[m / 2 - 1] + sorted[m / 2]);
}

// The median of `sorted` without one element equal to `own` (which it holds).
double median_without(const std::vector<double>& sorted, double own) {
  const auto pos = static_cast<std::size_t>(std::lower_bound(sorted.begin(), sorted.end(), own) -
                                            sorted.begin());
  const std::size_t m = sorted.size() - 1;
  auto nth = [&](std::size_t j) { return sorted[j < pos ? j : j + 1]; };
  return m % 2 == 1 ? nth(m / 2) : 0.5 * (nth(m / 2 - 1) + nth(m / 2));
}

// One benchmark's wall-vs-CPU check, and its place in the list of series it was made for.
struct GapCandidate {
  std::size_t index;
  WaitingCheck check;
};

// The wall-vs-CPU checks of `series` (nullptr: not checked) in two families, each corrected on
// its own: the quiet rounds alone (the plain rule), and, where busy rounds could be judged,
// every round (the stricter rule).
struct GapFamilies {
  std::vector<GapCandidate> quiet;
  std::vector<GapCandidate> all;
};

// Per analysed round, whether it is judged as busy: a neighbour's load is bursty, so under CPU
// hogs held all along a round's share can still come out above the busy bar (a short filtered
// run between two bursts), and four such "quiet" rounds were enough to note a wall-time change
// of -14.5% on an untouched benchmark. On a machine busy in many rounds, every round is judged
// against the suite's other benchmarks.
std::vector<bool> busy_rounds(const Results& results, const std::vector<AnalysedRound>& rounds) {
  std::unordered_set<int> busy_numbers;
  for (const RoundLoad& l : round_loads(results))
    if (round_busy(l)) busy_numbers.insert(l.number);
  std::vector<bool> busy;
  for (const AnalysedRound& r : rounds) busy.push_back(busy_numbers.count(r.number) > 0);
  const auto busy_count = static_cast<double>(std::count(busy.begin(), busy.end(), true));
  if (busy_count > 0 && busy_count >= kMostlyBusyShare * static_cast<double>(busy.size()))
    std::fill(busy.begin(), busy.end(), true);
  return busy;
}

// Per analysed round (empty where it is not busy), each suite's gaps, sorted.
using SuiteGaps = std::map<std::string, std::vector<double>>;
std::vector<SuiteGaps> busy_suite_gaps(const std::vector<const BenchmarkSeries*>& series,
                                       const std::vector<AnalysedRound>& rounds,
                                       const std::vector<bool>& busy) {
  std::vector<SuiteGaps> suite_gaps(rounds.size());
  for (std::size_t k = 0; k < rounds.size(); ++k) {
    if (!busy[k]) continue;
    for (const BenchmarkSeries* s : series) {
      if (!s) continue;
      const double g = paired_gap(*s, rounds[k].round);
      if (!std::isnan(g)) suite_gaps[k][s->suite].push_back(g);
    }
    for (auto& [suite, gaps] : suite_gaps[k]) std::sort(gaps.begin(), gaps.end());
  }
  return suite_gaps;
}

// The rounds one family's check uses, with each round's order and offset.
struct CheckRounds {
  std::vector<int> rounds;
  std::vector<int> signs;
  std::vector<double> offsets;
  void add(const AnalysedRound& r, double offset) {
    rounds.push_back(r.round);
    signs.push_back(r.head_second ? 1 : -1);
    offsets.push_back(offset);
  }
};

WaitingCheck check_on(const BenchmarkSeries& x, const CheckRounds& c) {
  return waiting_check(x.base_real, x.head_real, x.base_cpu, x.head_cpu, c.rounds, c.signs,
                       c.offsets);
}

// At least this many of the suite's other benchmarks make a busy round's reference.
constexpr std::size_t kMinReference = 2;

// `reference` (indexed like `series`; nullptr: not part of it) holds the benchmarks whose gaps
// make a busy round's reference: a benchmark whose gap the PR itself changed does not belong
// there, or two such benchmarks of five move the median of the others' gaps by half their own
// and every untouched one reads as a consistent gap the other way (accepted_stably).
GapFamilies gap_families(const Results& results, const std::vector<const BenchmarkSeries*>& series,
                         const std::vector<const BenchmarkSeries*>& reference) {
  // A neighbour's load stretches the wall time of every benchmark a process runs, so on its own
  // a busy round's gap would pass for waiting. The benchmarks of one process run share that
  // load: on a busy round each benchmark's gap is taken relative to the median gap of the
  // suite's other benchmarks in that round (at least kMinReference of them; else the round is
  // not used). Quiet rounds are used as they are. A PR that adds waiting to most of a suite's
  // benchmarks moves that median too; on a quiet machine it is still seen.
  const std::vector<AnalysedRound> rounds = analysed_rounds(results);
  const std::vector<bool> busy = busy_rounds(results, rounds);
  const std::vector<SuiteGaps> suite_gaps = busy_suite_gaps(reference, rounds, busy);
  GapFamilies out;
  for (std::size_t i = 0; i < series.size(); ++i) {
    if (!series[i]) continue;
    CheckRounds quiet, all;
    int busy_used = 0;
    for (std::size_t k = 0; k < rounds.size(); ++k) {
      if (!busy[k]) {
        quiet.add(rounds[k], 0);
        all.add(rounds[k], 0);
        continue;
      }
      const double own = paired_gap(*series[i], rounds[k].round);
      const auto gaps = suite_gaps[k].find(series[i]->suite);
      const bool in_reference = i < reference.size() && reference[i] != nullptr;
      if (std::isnan(own) || gaps == suite_gaps[k].end() ||
          gaps->second.size() < kMinReference + (in_reference ? 1 : 0))
        continue;
      all.add(rounds[k],
              in_reference ? median_without(gaps->second, own) : median_of(gaps->second));
      ++busy_used;
    }
    const WaitingCheck quiet_check = check_on(*series[i], quiet);
    if (!std::isnan(quiet_check.p)) out.quiet.push_back({i, quiet_check});
    if (busy_used == 0) continue;
    WaitingCheck all_check = check_on(*series[i], all);
    all_check.busy_rounds = busy_used;
    if (!std::isnan(all_check.p)) out.all.push_back({i, all_check});
  }
  return out;
}

// Per series index, the first check (quiet family first) that `rule(check, p_adjusted, index)`
// accepts, Benjamini-Hochberg applied within each family.
template <class Rule>
std::map<std::size_t, WaitingCheck> accepted(const GapFamilies& families, Rule rule) {
  std::map<std::size_t, WaitingCheck> found;
  for (const std::vector<GapCandidate>* family : {&families.quiet, &families.all}) {
    std::vector<double> ps;
    for (const GapCandidate& c : *family) ps.push_back(c.check.p);
    const std::vector<double> adjusted = stats::benjamini_hochberg(ps);
    for (std::size_t k = 0; k < family->size(); ++k) {
      const GapCandidate& c = (*family)[k];
      if (rule(c.check, adjusted[k], c.index)) found.try_emplace(c.index, c.check);
    }
  }
  return found;
}

// accepted() on gap_families(), read again with the benchmarks it accepted left out of the busy
// rounds' references until the accepted set no longer changes (at most kMaxReadings readings;
// the last one stands). A benchmark found only because found ones moved its reference drops out.
template <class Rule>
std::map<std::size_t, WaitingCheck> accepted_stably(
    const Results& results, const std::vector<const BenchmarkSeries*>& series, Rule rule) {
  constexpr int kMaxReadings = 4;
  std::map<std::size_t, WaitingCheck> found = accepted(gap_families(results, series, series), rule);
  for (int reading = 1; reading < kMaxReadings && !found.empty(); ++reading) {
    std::vector<const BenchmarkSeries*> reference = series;
    for (const auto& [i, check] : found) reference[i] = nullptr;
    std::map<std::size_t, WaitingCheck> next =
        accepted(gap_families(results, series, reference), rule);
    const bool same = next.size() == found.size() &&
                      std::equal(next.begin(), next.end(), found.begin(),
                                 [](const auto& a, const auto& b) { return a.first == b.first; });
    found = std::move(next);
    if (same) break;
  }
  return found;
}

// "Wall time moved while CPU time did not: `BM_A` (real time +12.0%, CPU time +0.1%) and ...",
// naming the first kMaxNamedWaiting of `found` (series index -> check).
std::vector<TextPart> waiting_sentence(const std::map<std::size_t, WaitingCheck>& found,
                                       const Analysis& analysis) {
  Sentence text;
  text.text("Wall time moved while CPU time did not: ");
  std::size_t named = 0;
  for (const auto& [benchmark, c] : found) {
    if (named == kMaxNamedWaiting) break;
    if (named > 0) text.text(named + 1 == found.size() ? " and " : ", ");
    text.code(analysis.benchmarks[benchmark].name)
        .text(fmt::format(" (real time {}, CPU time {})", format_signed_percent(c.real_change),
                          format_signed_percent(c.cpu_change)));
    ++named;
  }
  if (found.size() > kMaxNamedWaiting)
    text.text(fmt::format(" and {} more", found.size() - kMaxNamedWaiting));
  text.text(fmt::format(
      ". The PR changed how long {} wait (sleep, I/O, locks), which the compared CPU time does "
      "not count.",
      found.size() == 1 ? "this benchmark spends in" : "these benchmarks spend in"));
  return std::move(text).take();
}

// Flags and names the benchmarks compared on CPU time whose wall time moved by a waiting the
// CPU time does not count (waiting_noted).
void waiting_notes(const Results& results, Analysis& analysis) {
  std::vector<const BenchmarkSeries*> series = series_of(results, analysis);
  for (const BenchmarkSeries*& s : series)
    if (s && s->metric != "cpu_time") s = nullptr;
  const std::map<std::size_t, WaitingCheck> found = accepted_stably(
      results, series, [&](const WaitingCheck& c, double p_adjusted, std::size_t i) {
        return waiting_noted(c, p_adjusted, analysis.benchmarks[i].threshold);
      });
  if (found.empty()) return;
  for (const auto& [benchmark, c] : found)
    analysis.benchmarks[benchmark].add_flag(BenchmarkFlag::Waiting);
  analysis.notes.emplace_back(NoteKind::Waiting, waiting_sentence(found, analysis));
}

// Names the benchmarks compared on wall time because their CPU time missed work, and flags them.
void missed_work_notes(const std::vector<MissedWork>& missed, Analysis& analysis) {
  if (missed.empty()) return;
  const std::unordered_set<std::string> switched = missed_keys(missed);
  for (BenchmarkAnalysis& b : analysis.benchmarks)
    if (switched.count(series_key(b.suite, b.name)) > 0) {
      b.add_flag(BenchmarkFlag::WallTime);
      b.metric = "real_time";  // the results file's series still holds the CPU time
    }
  Sentence text;
  text.text("CPU time missed work: ");
  for (std::size_t i = 0; i < missed.size() && i < kMaxNamedWaiting; ++i) {
    if (i > 0) text.text(i + 1 == missed.size() ? " and " : ", ");
    text.code(missed[i].name)
        .text(fmt::format(" (CPU time {}, wall time {})",
                          format_signed_percent(missed[i].check.cpu_change),
                          format_signed_percent(missed[i].check.real_change)));
  }
  if (missed.size() > kMaxNamedWaiting)
    text.text(fmt::format(" and {} more", missed.size() - kMaxNamedWaiting));
  text.text(fmt::format(
      ". Google Benchmark's CPU time counts only the thread that runs the benchmark loop, and "
      "the wall time did not follow it: the PR moved work to another thread or into waiting. "
      "{} compared on wall time.",
      missed.size() == 1 ? "This benchmark was" : "These benchmarks were"));
  analysis.notes.emplace_back(NoteKind::MissedWork, std::move(text).take());
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
  const SuiteIndex suites(results);
  for (const BenchmarkSeries* s : series_of(results, analysis))
    if (s && compares_wall_time(suites, *s)) ++wall;
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
          " In {} the neighbours left one side less than half the CPU they left the other: "
          "{} left out for the benchmarks compared on wall time.",
          round_ranges(lopsided), lopsided.size() == 1 ? "that round is" : "those rounds are");
    }
  }
  analysis.notes.emplace_back(NoteKind::MachineBusy, std::move(text));
}

}  // namespace

WaitingCheck waiting_check(const std::vector<double>& base_real,
                           const std::vector<double>& head_real,
                           const std::vector<double>& base_cpu, const std::vector<double>& head_cpu,
                           const std::vector<int>& rounds, const std::vector<int>& signs,
                           const std::vector<double>& offsets) {
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
    const double offset = k < offsets.size() ? offsets[k] : 0.0;
    const double real = std::log(rh / rb) - offset;
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
  if (c.busy_rounds > 0) {
    // Busy rounds are judged against the other benchmarks of their runs, which a neighbour's
    // load does not stretch quite alike: a stricter bar keeps its false notes near zero in the
    // method study and still finds waiting that is large beside the CPU time (a sleep, I/O).
    if (p_adjusted >= kBusyWaitAlpha || std::fabs(c.wait_change) < kBusyWaitFactor * threshold)
      return false;
    return c.same_sign_rounds >= kBusyConsistentShare * c.rounds;
  }
  return c.same_sign_rounds >= kConsistentShare * c.rounds;
}

bool cpu_missed_work(const WaitingCheck& c, double p_adjusted, double threshold) {
  if (c.rounds < 3 || std::isnan(p_adjusted) || p_adjusted >= 0.05) return false;
  if (std::fabs(c.cpu_change) < threshold || std::fabs(c.wait_change) < threshold) return false;
  // The wall time moved less than the CPU time, or the other way: the CPU time claims a change
  // the wall time does not show. A gap in the same direction as the CPU change (wall time
  // moved further still) leaves the CPU time's reading on the cautious side.
  if ((c.wait_change > 0) == (c.cpu_change > 0)) return false;
  if (c.busy_rounds > 0) {
    if (p_adjusted >= kBusyWaitAlpha || std::fabs(c.wait_change) < kBusyWaitFactor * threshold)
      return false;
    return c.same_sign_rounds >= kBusyConsistentShare * c.rounds;
  }
  return c.same_sign_rounds >= kConsistentShare * c.rounds;
}

ProcessCpuCheck process_cpu_check(const Results& results, const std::string& suite) {
  // Per plan round, the suite's CPU seconds on each side (a round may hold several runs of a
  // suite: shards merged, or a retry).
  std::unordered_map<int, std::pair<double, double>> per_round;
  for (const RunRecord& run : results.runs) {
    if (run.suite != suite || !run.ok || !usable(run.cpu_seconds)) continue;
    auto& sums = per_round[run.round];
    (run.side == Side::Base ? sums.first : sums.second) += run.cpu_seconds;
  }
  std::vector<double> d;
  std::vector<int> signs;
  for (const AnalysedRound& r : analysed_rounds(results)) {
    const auto found = per_round.find(r.round);
    if (found == per_round.end() || !usable(found->second.first) || !usable(found->second.second))
      continue;
    d.push_back(std::log(found->second.second / found->second.first));
    signs.push_back(r.head_second ? 1 : -1);
  }
  ProcessCpuCheck c;
  c.rounds = static_cast<int>(d.size());
  if (c.rounds < 3) return c;
  const stats::CrossoverFit fit = stats::fit_crossover(d, signs);
  if (!fit.usable()) return c;
  c.change = std::expm1(fit.mu);
  c.p = fit.se_mu > 0 ? fit.p_mu() : (fit.mu != 0 ? 0.0 : 1.0);
  for (double x : d)
    if ((x > 0) == (fit.mu > 0) && x != 0) ++c.same_sign_rounds;
  return c;
}

bool process_cpu_moved(const ProcessCpuCheck& c, double threshold) {
  if (c.rounds < 3 || std::isnan(c.p) || c.p >= 0.05) return false;
  return std::fabs(c.change) >= threshold && c.same_sign_rounds >= kConsistentShare * c.rounds;
}

namespace {

// The waiting guard (waiting_notes) reads its family without the benchmarks compared on wall
// time, so on a busy machine each round's reference (the median gap of the suite's others) can
// differ from the one read above, and the guard can find a gap this reading did not. A gap it
// would note whose CPU time moved the other way by the threshold is missed work, never waiting
// (waiting does not shorten the CPU time): such benchmarks join `found` (of the automatic
// `series`), read again as the guard will until nothing more is found.
void add_waiting_against_cpu(const Results& results,
                             const std::vector<const BenchmarkSeries*>& series,
                             std::map<std::size_t, WaitingCheck>& found) {
  constexpr int kMaxReadings = 4;
  for (int reading = 0; reading < kMaxReadings; ++reading) {
    std::vector<const BenchmarkSeries*> guarded;
    for (std::size_t i = 0; i < results.series.size(); ++i) {
      const BenchmarkSeries& s = results.series[i];
      guarded.push_back(s.metric == "cpu_time" && found.count(i) == 0 ? &s : nullptr);
    }
    const auto threshold = [&](std::size_t i) {
      return results.config.threshold_for(results.series[i].suite, results.series[i].name);
    };
    const std::map<std::size_t, WaitingCheck> noted = accepted_stably(
        results, guarded, [&](const WaitingCheck& c, double p_adjusted, std::size_t i) {
          return waiting_noted(c, p_adjusted, threshold(i));
        });
    bool more = false;
    for (const auto& [i, c] : noted) {
      if (!series[i] || std::fabs(c.cpu_change) < threshold(i) ||
          (c.cpu_change > 0) == (c.real_change > 0))
        continue;
      more = found.try_emplace(i, c).second || more;
    }
    if (!more) return;
  }
}

}  // namespace

std::vector<MissedWork> cpu_time_missing_work(const Results& results) {
  const SuiteIndex suites(results);
  std::vector<const BenchmarkSeries*> series;
  for (const BenchmarkSeries& s : results.series) {
    const SuiteConfig* c = suites.find(s.suite);
    const bool automatic = c && (c->metric.empty() || c->metric == "auto");
    series.push_back(automatic && s.metric == "cpu_time" ? &s : nullptr);
  }
  const auto threshold = [&](std::size_t i) {
    return results.config.threshold_for(series[i]->suite, series[i]->name);
  };
  std::map<std::size_t, WaitingCheck> found = accepted_stably(
      results, series, [&](const WaitingCheck& c, double p_adjusted, std::size_t i) {
        return cpu_missed_work(c, p_adjusted, threshold(i));
      });
  // Where a suite's processes' CPU time moved by the threshold (rusage), work went to (or came
  // from) threads the benchmarks' own CPU time does not count. On a loaded machine the wall
  // time scatters too much to say which benchmark's gap is significant, so each benchmark whose
  // own CPU time moved the other way by the threshold, with a wall time that did not follow it
  // by at least the threshold, is compared on its wall time: a loaded machine may then leave it
  // inconclusive, which is what is known.
  std::map<std::string, double> moved;  // suite -> its processes' CPU change, 0 if none
  for (const BenchmarkSeries* s : series) {
    if (!s || moved.count(s->suite) > 0) continue;
    const ProcessCpuCheck c = process_cpu_check(results, s->suite);
    moved[s->suite] =
        process_cpu_moved(c, results.config.threshold_for(s->suite, "")) ? c.change : 0.0;
  }
  const std::vector<AnalysedRound> rounds = analysed_rounds(results);
  std::vector<int> idx, signs;
  for (const AnalysedRound& r : rounds) {
    idx.push_back(r.round);
    signs.push_back(r.head_second ? 1 : -1);
  }
  for (std::size_t i = 0; i < series.size(); ++i) {
    if (!series[i] || found.count(i) > 0) continue;
    const double process = moved[series[i]->suite];
    if (process == 0.0) continue;
    const BenchmarkSeries& x = *series[i];
    const WaitingCheck c =
        waiting_check(x.base_real, x.head_real, x.base_cpu, x.head_cpu, idx, signs);
    const double t = threshold(i);
    if (c.rounds < 3 || std::isnan(c.wait_change) || std::fabs(c.cpu_change) < t ||
        std::fabs(c.wait_change) < t)
      continue;
    if ((c.cpu_change > 0) != (process > 0) && (c.wait_change > 0) == (process > 0))
      found.try_emplace(i, c);
  }
  add_waiting_against_cpu(results, series, found);
  std::vector<MissedWork> out;
  for (const auto& [i, check] : found) out.push_back({series[i]->suite, series[i]->name, check});
  return out;
}

Results compared_on_wall_time(const Results& results, const std::vector<MissedWork>& missed) {
  if (missed.empty()) return results;
  const std::unordered_set<std::string> switched = missed_keys(missed);
  Results out = results;
  // The compared value is the CPU time in the benchmark's unit; the wall time of the same run
  // in that unit is the value times the run's real/CPU ratio.
  const auto wall = [](std::vector<double>& value, const std::vector<double>& real,
                       const std::vector<double>& cpu) {
    for (std::size_t i = 0; i < value.size(); ++i) {
      const double r = at(real, static_cast<int>(i)), c = at(cpu, static_cast<int>(i));
      value[i] = usable(value[i]) && usable(r) && usable(c) ? value[i] * (r / c) : kMissing;
    }
  };
  for (BenchmarkSeries& s : out.series) {
    if (switched.count(series_key(s.suite, s.name)) == 0) continue;
    wall(s.base, s.base_real, s.base_cpu);
    wall(s.head, s.head_real, s.head_cpu);
    s.metric = "real_time";
  }
  return out;
}

std::vector<RoundLoad> round_loads(const Results& results) {
  // One pass over the runs, summed per plan round, then one per analysed round (a search of
  // every run for every round was a billion steps at 100,000 runs over 10,000 rounds).
  struct Sums {
    double cpu[2] = {0, 0}, wall[2] = {0, 0}, others[2] = {0, 0}, others_wall[2] = {0, 0};
  };
  std::unordered_map<int, Sums> per_round;
  for (const RunRecord& run : results.runs) {
    if (is_missing(run.cpu_seconds) || run.seconds <= 0) continue;
    Sums& sums = per_round[run.round];
    const int side = run.side == Side::Base ? 0 : 1;
    sums.cpu[side] += run.cpu_seconds;
    sums.wall[side] += run.seconds;
    if (!is_missing(run.others_cpus)) {
      sums.others[side] += run.others_cpus * run.seconds;
      sums.others_wall[side] += run.seconds;
    }
  }
  std::vector<RoundLoad> out;
  // Each side's share in the runs no neighbour ran beside: there it is what the side's own
  // waiting made it.
  std::vector<double> quiet[2];
  for (const AnalysedRound& r : analysed_rounds(results)) {
    const auto found = per_round.find(r.round);
    if (found == per_round.end()) continue;
    const Sums& sums = found->second;
    const double(&cpu)[2] = sums.cpu;
    const double(&wall)[2] = sums.wall;
    RoundLoad l;
    l.number = r.number;
    if (wall[0] + wall[1] <= 0) continue;
    l.share = (cpu[0] + cpu[1]) / (wall[0] + wall[1]);
    if (wall[0] > 0) l.base_share = cpu[0] / wall[0];
    if (wall[1] > 0) l.head_share = cpu[1] / wall[1];
    const double others_wall = sums.others_wall[0] + sums.others_wall[1];
    if (others_wall > 0) l.others_cpus = (sums.others[0] + sums.others[1]) / others_wall;
    for (int side = 0; side < 2; ++side) {
      if (wall[side] > 0 && sums.others_wall[side] > 0 &&
          sums.others[side] / sums.others_wall[side] < kOthersBusyCpus)
        quiet[side].push_back(cpu[side] / wall[side]);
    }
    out.push_back(l);
  }
  // What the neighbours left each side: a run's wall time is its CPU time stretched by the
  // neighbours plus its own waiting, which they do not stretch. The waiting per CPU second is
  // read from the side's quiet runs (1 / share - 1 there), and taken off: 1 / left = 1 / share
  // - waiting. Without a quiet run on each side it cannot be told from the neighbours' load,
  // and the shares are compared as they are.
  const bool known = !quiet[0].empty() && !quiet[1].empty();
  double waiting[2] = {0, 0};
  for (int side = 0; known && side < 2; ++side)
    waiting[side] = std::max(0.0, 1 / stats::median(quiet[side]) - 1);
  const auto left = [](double share, double wait) {
    if (is_missing(share) || !(share > 0)) return kMissing;
    const double stretch = 1 / share - wait;
    return stretch > 0 ? std::min(1.0, 1 / stretch) : 1.0;
  };
  for (RoundLoad& l : out) {
    l.base_left = left(l.base_share, waiting[0]);
    l.head_left = left(l.head_share, waiting[1]);
  }
  return out;
}

bool round_busy(const RoundLoad& load) {
  if (is_missing(load.share) || load.share >= kBusyShare) return false;
  return is_missing(load.others_cpus) || load.others_cpus >= kOthersBusyCpus;
}

bool round_lopsided(const RoundLoad& load) {
  if (!round_busy(load)) return false;
  if (is_missing(load.base_left) || is_missing(load.head_left)) return false;
  const double lo = std::min(load.base_left, load.head_left);
  const double hi = std::max(load.base_left, load.head_left);
  return hi > 0 && lo < kLopsidedRatio * hi;
}

ComparedValues values_as_compared(const Results& results) {
  ComparedValues out;
  out.missed = cpu_time_missing_work(results);
  out.compared = compared_on_wall_time(results, out.missed);
  out.fair = without_lopsided_rounds(out.compared);
  return out;
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
  std::unordered_set<int> drop;
  for (const RoundLoad& l : loads)
    if (round_lopsided(l)) drop.insert(l.number);
  // A load that starves one side or the other in many rounds is no passing neighbour: leaving
  // out that many rounds would cost more than it brings, and they stay.
  if (drop.empty() || 4 * drop.size() > loads.size()) return results;
  std::vector<std::size_t> dropped;  // plan rounds
  for (const AnalysedRound& r : analysed_rounds(results))
    if (drop.count(r.number) > 0) dropped.push_back(static_cast<std::size_t>(r.round));
  Results out = results;
  const SuiteIndex suites(results);
  for (BenchmarkSeries& s : out.series) {
    if (!compares_wall_time(suites, s)) continue;
    for (const std::size_t i : dropped) {
      if (i < s.base.size()) s.base[i] = kMissing;
      if (i < s.head.size()) s.head[i] = kMissing;
    }
  }
  return out;
}

// A custom file does not say which direction is better, and lower is assumed: a unit such as
// "B/s" or "req/s" reads like a throughput, where that assumption turns a 15% drop into a 15%
// improvement. Say so per suite, unless the configuration chose a direction.
void direction_notes(const Results& results, Analysis& analysis) {
  struct Suite {
    std::string name;
    std::string first;  // the first benchmark, and its unit
    std::string unit;
    int count = 0;
  };
  std::vector<Suite> suites;
  std::unordered_map<std::string, std::size_t> seen;  // suite -> suites[i]
  const SuiteIndex configured(results);
  for (const BenchmarkAnalysis& b : analysis.benchmarks) {
    const SuiteConfig* suite = configured.find(b.suite);
    if (!suite || suite->format != FormatKind::Custom || configured_better(*suite, b.name))
      continue;
    if (b.unit.size() < 3 || !b.unit.ends_with("/s")) continue;
    const auto [at, added] = seen.try_emplace(b.suite, suites.size());
    if (added) suites.push_back({b.suite, b.name, b.unit, 0});
    ++suites[at->second].count;
  }
  for (const Suite& s : suites) {
    const std::string more = s.count > 1 ? fmt::format(" (and {} more)", s.count - 1) : "";
    Sentence text;
    text.text("Suite ")
        .code(s.name)
        .text(" reports ")
        .code(s.first)
        .text(fmt::format("{} in {}, a per-second unit, but does not set ", more, s.unit))
        .code("better")
        .text(", so lower counts as better: set ")
        .code("better: higher")
        .text(" for a throughput (or ")
        .code("better: lower")
        .text(" to keep this).");
    analysis.notes.emplace_back(NoteKind::Other, std::move(text).take());
  }
}

void add_measurement_notes(const Results& results, Analysis& analysis,
                           const std::vector<MissedWork>& missed) {
  direction_notes(results, analysis);
  metric_notes(results, analysis, missed);
  missed_work_notes(missed, analysis);
  waiting_notes(results, analysis);
  busy_notes(results, analysis);
}

}  // namespace benchpr
