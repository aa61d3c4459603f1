// Monte Carlo study of measuring on a busy machine and of splitting a fixed time budget, for the
// choices behind `metric: auto`, the waiting guard, the busy-machine note and the time plan
// (docs/method.md, "Contention and the time plan"). Simulates single-threaded benchmarks whose
// processes are preempted by neighbours at random, analyses them with benchpr's own code, and
// prints markdown tables. Deterministic (fixed seeds). Usage: contention_study [--quick]
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "benchpr/core/adaptive/session_analysis.hpp"
#include "benchpr/core/model/model.hpp"
#include "benchpr/core/notes/measurement_notes.hpp"
#include "benchpr/core/plan/schedule.hpp"
#include "benchpr/core/stats/paired_rounds.hpp"
#include "benchpr/core/verdicts/analysis.hpp"

namespace {

using benchpr::Verdict;

constexpr double kThreshold = 0.02;

// How neighbours take the CPU. Each process run (one suite, one side, one round) is busy with
// probability `busy`; a busy run gets a share of a CPU drawn from [share_lo, share_hi], and each
// benchmark inside it a share around that (the load changes while the process runs). Busy runs
// also cost a little CPU time (caches and memory bandwidth are shared): up to `cpu_cost`.
struct Contention {
  const char* name;
  double busy;
  double share_lo, share_hi;
  double cpu_cost;
};

constexpr std::array<Contention, 4> kContention{{
    {"quiet", 0.0, 1, 1, 0},
    {"two CPU spinners all along (share 35–65%)", 1.0, 0.35, 0.65, 0.01},
    {"half the runs preempted (share 30–90%)", 0.5, 0.30, 0.90, 0.01},
    {"10% of runs starved (share 10–30%)", 0.1, 0.10, 0.30, 0.02},
}};

// Noise of the benchmark itself: between processes (code layout, frequency) and within a run
// (shrinks with the min time and the repetitions).
struct Noise {
  double between = 0.01;     // SD of ln value between processes
  double within_05 = 0.005;  // SD within one run at min time 0.5 s and 1 repetition
  double drift = 0.0;        // machine slows down by this much over the session
};

struct Truth {
  double cpu_change = 0;  // the PR's change of CPU time (and wall time with it)
  double wait = 0;        // extra wall time the PR spends waiting, as a fraction of CPU time
  // Share of the PR's work moved to a helper thread the benchmark waits for: the wall time
  // still counts it, the calling thread's CPU time (Google Benchmark's cpu_time) does not.
  double offload = 0;
};

struct Run {
  std::vector<double> cpu, real;  // per benchmark
  double share = 1;   // the process's CPU time over its wall time, the PR's waiting included
  bool busy = false;  // a neighbour ran beside it
};

struct Sim {
  std::vector<benchpr::RoundPlan> plan;
  // [side][round] -> run
  std::vector<Run> base, head;
};

Sim simulate(const Contention& c, const Noise& n, const std::vector<Truth>& truth, int rounds,
             double min_time, int repetitions, std::uint64_t seed) {
  Sim s;
  s.plan = benchpr::make_schedule(rounds, 1, seed);
  std::mt19937_64 rng(seed * 0x9e3779b97f4a7c15ULL + 1);
  std::normal_distribution<double> z(0, 1);
  std::uniform_real_distribution<double> u(0, 1);
  std::vector<double> level;
  for (std::size_t b = 0; b < truth.size(); ++b) level.push_back(std::log(20.0) + 13 * u(rng));
  const double within =
      n.within_05 * std::sqrt(0.5 / min_time) / std::sqrt(static_cast<double>(repetitions));
  const std::size_t total = s.plan.size();
  for (std::size_t r = 0; r < total; ++r) {
    for (int side = 0; side < 2; ++side) {
      const bool head = (side == 1);
      const int slot = 2 * static_cast<int>(r) + ((s.plan[r].head_second() == head) ? 1 : 0);
      const double drift = std::log1p(n.drift) * slot / (2.0 * static_cast<double>(total));
      Run run;
      const bool busy = u(rng) < c.busy;
      run.busy = busy;
      run.share = busy ? c.share_lo + (c.share_hi - c.share_lo) * u(rng) : 1.0;
      double cpu_sum = 0, wall_sum = 0;
      for (std::size_t b = 0; b < truth.size(); ++b) {
        const Truth& t = truth[b];
        double ln_cpu = level[b] + drift + n.between * z(rng) + within * z(rng);
        if (head) ln_cpu += std::log1p(t.cpu_change);
        if (busy) ln_cpu += c.cpu_cost * u(rng);
        const double cpu = std::exp(ln_cpu);
        const double share =
            busy ? std::clamp(run.share * std::exp(0.15 * z(rng)), 0.05, 1.0) : 1.0;
        const double wait = head ? t.wait * std::exp(level[b]) : 0.0;
        const double real = cpu / share * std::exp(0.002 * z(rng)) + wait;
        run.cpu.push_back(head ? cpu * (1 - t.offload) : cpu);
        run.real.push_back(real);
        cpu_sum += cpu;
        // The process's wall time includes the PR's waiting, as the runner measures it: a PR
        // that waits more gets a lower share in every round.
        wall_sum += cpu / share + wait;
      }
      run.share = cpu_sum / wall_sum;
      (head ? s.head : s.base).push_back(std::move(run));
    }
  }
  return s;
}

enum class Metric { Real, Cpu };

// Results as the runner writes them: the compared metric in base/head, both times kept, and
// one run record per side and round with the CPU share. `drop_lopsided` leaves out rounds where
// one side got less than half the other's share (the alternative to flagging them).
benchpr::Results to_results(const Sim& s, std::size_t benchmarks, Metric metric) {
  benchpr::Results r;
  r.config.threshold = kThreshold;
  r.config.warmup_rounds = 1;
  r.plan = s.plan;
  r.config.rounds = static_cast<int>(s.plan.size()) - 1;
  r.rounds_done = static_cast<int>(s.plan.size());
  r.complete = true;
  for (std::size_t b = 0; b < benchmarks; ++b) {
    benchpr::BenchmarkSeries x;
    x.suite = "study";
    x.name = fmt::format("BM_{}", b);
    x.unit = "ns";
    x.metric = metric == Metric::Cpu ? "cpu_time" : "real_time";
    for (std::size_t k = 0; k < s.plan.size(); ++k) {
      x.base_cpu.push_back(s.base[k].cpu[b]);
      x.head_cpu.push_back(s.head[k].cpu[b]);
      x.base_real.push_back(s.base[k].real[b]);
      x.head_real.push_back(s.head[k].real[b]);
    }
    x.base = metric == Metric::Cpu ? x.base_cpu : x.base_real;
    x.head = metric == Metric::Cpu ? x.head_cpu : x.head_real;
    r.series.push_back(std::move(x));
  }
  // One run record per side and round, with the CPU share it got, as the runner records them.
  for (std::size_t k = 0; k < s.plan.size(); ++k) {
    for (int side = 0; side < 2; ++side) {
      const Run& run = side == 0 ? s.base[k] : s.head[k];
      benchpr::RunRecord rec;
      rec.round = static_cast<int>(k);
      rec.suite = "study";
      rec.side = side == 0 ? benchpr::Side::Base : benchpr::Side::Head;
      rec.seconds = 1;
      rec.cpu_seconds = run.share;
      rec.others_cpus = run.busy ? 1.5 : 0.0;
      r.runs.push_back(rec);
    }
  }
  return r;
}

struct Rate {
  long hits = 0, total = 0;
  void add(bool hit) {
    hits += hit;
    ++total;
  }
};
std::string pct(const Rate& r) {
  return r.total ? fmt::format("{:.1f}%", 100.0 * static_cast<double>(r.hits) / r.total) : "–";
}

bool significant(Verdict v) {
  return v == Verdict::Regression || v == Verdict::Improvement || v == Verdict::Slower ||
         v == Verdict::Faster;
}
bool has_flag(const benchpr::BenchmarkAnalysis& a, benchpr::BenchmarkFlag f) {
  return a.has_flag(f);
}

// --- Table 1: which time to compare, under contention ----------------------------------------

void metric_table(int prs) {
  std::puts("### Real time vs CPU time on a busy machine\n");
  std::puts(
      "20 single-threaded benchmarks per pull request, 10 rounds + 1 warm-up, threshold 2%; "
      "per benchmark: A/A = share of unchanged benchmarks called significant (any of "
      "regression, improvement, slower, faster) / called `unchanged`; +2%, +10% = share called "
      "significant in the right direction (+10%: `regression`). `metric: auto` compares CPU "
      "time for these benchmarks.\n");
  std::puts("| machine | time | A/A significant | A/A unchanged | +2% found | +10% regression |");
  std::puts("|:--|:--|--:|--:|--:|--:|");
  for (const Contention& c : kContention) {
    for (Metric m : {Metric::Real, Metric::Cpu}) {
      Rate aa_sig, aa_unch, p2, p10;
      for (int pr = 0; pr < prs; ++pr) {
        std::vector<Truth> truth(20);
        for (int b = 0; b < 4; ++b) truth[static_cast<std::size_t>(b)].cpu_change = 0.02;
        for (int b = 4; b < 8; ++b) truth[static_cast<std::size_t>(b)].cpu_change = 0.10;
        const Sim s = simulate(c, Noise{}, truth, 10, 0.05, 3, 1000 + static_cast<unsigned>(pr));
        const benchpr::Analysis a = benchpr::analyse(to_results(s, truth.size(), m));
        for (std::size_t b = 0; b < truth.size(); ++b) {
          const auto& x = a.benchmarks[b];
          const bool up = std::isfinite(x.change) && x.change > 0;
          if (b < 4) {
            p2.add(significant(x.verdict) && up);
          } else if (b < 8) {
            p10.add(x.verdict == Verdict::Regression);
          } else {
            aa_sig.add(significant(x.verdict));
            aa_unch.add(x.verdict == Verdict::Unchanged);
          }
        }
      }
      std::printf("| %s | %s | %s | %s | %s | %s |\n", c.name,
                  m == Metric::Real ? "real" : "CPU (auto)", pct(aa_sig).c_str(),
                  pct(aa_unch).c_str(), pct(p2).c_str(), pct(p10).c_str());
    }
  }
  std::puts("");
}

// --- Table 2: the waiting guard ----------------------------------------------------------------

void waiting_table(int prs) {
  std::puts("### The waiting guard (wall time moved, CPU time did not)\n");
  std::puts(
      "Share of benchmarks that get the note, CPU time compared. False notes: no change, and a "
      "real +10% change of the work (wall time follows CPU time). Found: the PR adds waiting "
      "worth 5%, 20% or 100% of the benchmark's CPU time (a sleep, I/O), CPU time unchanged. "
      "24 benchmarks per pull request: 4 with more work, 2 with each amount of waiting, 14 "
      "unchanged.\n");
  std::puts(
      "| machine | false: no change | false: +10% work | found: +5% waiting | found: +20% waiting "
      "| found: +100% waiting |");
  std::puts("|:--|--:|--:|--:|--:|--:|");
  for (const Contention& c : kContention) {
    Rate none, work, w5, w20, w100;
    for (int pr = 0; pr < prs; ++pr) {
      std::vector<Truth> truth(24);
      for (int b = 0; b < 4; ++b) truth[static_cast<std::size_t>(b)].cpu_change = 0.10;
      for (int b = 4; b < 6; ++b) truth[static_cast<std::size_t>(b)].wait = 0.05;
      for (int b = 6; b < 8; ++b) truth[static_cast<std::size_t>(b)].wait = 0.20;
      for (int b = 8; b < 10; ++b) truth[static_cast<std::size_t>(b)].wait = 1.0;
      const Sim s = simulate(c, Noise{}, truth, 10, 0.05, 3, 5000 + static_cast<unsigned>(pr));
      const benchpr::Results r = to_results(s, truth.size(), Metric::Cpu);
      benchpr::Analysis a = benchpr::analyse(r);
      benchpr::add_measurement_notes(r, a);
      for (std::size_t b = 0; b < truth.size(); ++b) {
        const bool noted = has_flag(a.benchmarks[b], benchpr::BenchmarkFlag::Waiting);
        if (b < 4) {
          work.add(noted);
        } else if (b < 6) {
          w5.add(noted);
        } else if (b < 8) {
          w20.add(noted);
        } else if (b < 10) {
          w100.add(noted);
        } else {
          none.add(noted);
        }
      }
    }
    std::printf("| %s | %s | %s | %s | %s | %s |\n", c.name, pct(none).c_str(), pct(work).c_str(),
                pct(w5).c_str(), pct(w20).c_str(), pct(w100).c_str());
  }
  std::puts("");
}

// --- Table 3: rounds where one side was starved ------------------------------------------------

void lopsided_table(int prs) {
  std::puts("### Rounds where one side was starved: keep and flag, or leave out\n");
  std::puts(
      "Real time compared (where contention matters), 10 rounds. \"Leave out\" is benchpr's rule "
      "(`without_lopsided_rounds`): drop the busy rounds in which the neighbours left one side "
      "less than half the CPU share they left the other (each side's own waiting, read from its "
      "runs without neighbours, taken out), unless more than a quarter of the rounds are "
      "such.\n");
  std::puts("| machine | rounds | A/A significant | A/A unchanged | +5% found | rounds left |");
  std::puts("|:--|:--|--:|--:|--:|--:|");
  for (std::size_t ci = 1; ci < kContention.size(); ++ci) {
    const Contention& c = kContention[ci];
    for (bool drop : {false, true}) {
      Rate sig, unch, p5;
      double left = 0;
      for (int pr = 0; pr < prs; ++pr) {
        std::vector<Truth> truth(20);
        for (int b = 0; b < 5; ++b) truth[static_cast<std::size_t>(b)].cpu_change = 0.05;
        const Sim s = simulate(c, Noise{}, truth, 10, 0.05, 3, 9000 + static_cast<unsigned>(pr));
        const benchpr::Results r = to_results(s, truth.size(), Metric::Real);
        const benchpr::Analysis a =
            benchpr::analyse(drop ? benchpr::without_lopsided_rounds(r) : r);
        for (std::size_t b = 0; b < truth.size(); ++b) {
          const auto& x = a.benchmarks[b];
          if (b < 5) {
            p5.add(significant(x.verdict) && x.change > 0);
          } else {
            sig.add(significant(x.verdict));
            unch.add(x.verdict == Verdict::Unchanged);
          }
        }
        left += a.benchmarks[0].rounds_used;
      }
      std::printf("| %s | %s | %s | %s | %s | %.1f |\n", c.name, drop ? "leave out" : "keep",
                  pct(sig).c_str(), pct(unch).c_str(), pct(p5).c_str(), left / prs);
    }
  }
  std::puts("");
}

// --- Table 3b: CPU time that misses the work -------------------------------------------------

void missed_work_table(int prs) {
  std::puts("### CPU time that misses the work (helper threads)\n");
  std::puts(
      "`metric: auto`, 10 rounds, 24 benchmarks per pull request: 14 unchanged, 2 each with "
      "+10% work (wall time follows), waiting worth 20% of the CPU time (CPU time unchanged), "
      "half the work moved to a helper thread the benchmark waits for (calling thread's CPU "
      "time −50%, wall time unchanged), and half moved with 5% more work (CPU time −50%, wall "
      "time +5%). Switched = compared on wall time with the note (`cpu_time_missing_work`). "
      "Faster = called `faster`/`improvement`; the last two columns before → now.\n");
  std::puts(
      "| machine | switched: unchanged | switched: +10% work | switched: +20% waiting | switched: "
      "helper | switched: helper, wall +5% | helper called faster | helper, wall +5%: "
      "`regression` |");
  std::puts("|:--|--:|--:|--:|--:|--:|--:|--:|");
  for (const Contention& c : kContention) {
    Rate none, work, wait, helper, worse, helper_faster_before, helper_faster, worse_reg_before,
        worse_reg;
    for (int pr = 0; pr < prs; ++pr) {
      std::vector<Truth> truth(24);
      for (int b = 0; b < 2; ++b) truth[static_cast<std::size_t>(b)].cpu_change = 0.10;
      for (int b = 2; b < 4; ++b) truth[static_cast<std::size_t>(b)].wait = 0.20;
      for (int b = 4; b < 6; ++b) truth[static_cast<std::size_t>(b)].offload = 0.5;
      for (int b = 6; b < 8; ++b) truth[static_cast<std::size_t>(b)] = {0.05, 0, 1 - 0.5 / 1.05};
      const Sim s = simulate(c, Noise{}, truth, 10, 0.05, 3, 40000 + static_cast<unsigned>(pr));
      benchpr::Results r = to_results(s, truth.size(), Metric::Cpu);
      r.config.suites.push_back(
          {"study", "bench", benchpr::FormatKind::GoogleBenchmark, {}, "", {}, 0});
      const benchpr::Analysis before = benchpr::analyse(r);
      const benchpr::Analysis now = benchpr::analyse_session(r);
      for (std::size_t b = 0; b < truth.size(); ++b) {
        const bool switched = has_flag(now.benchmarks[b], benchpr::BenchmarkFlag::WallTime);
        const auto faster = [](const benchpr::BenchmarkAnalysis& x) {
          return x.verdict == Verdict::Faster || x.verdict == Verdict::Improvement;
        };
        if (b < 2) {
          work.add(switched);
        } else if (b < 4) {
          wait.add(switched);
        } else if (b < 6) {
          helper.add(switched);
          helper_faster_before.add(faster(before.benchmarks[b]));
          helper_faster.add(faster(now.benchmarks[b]));
        } else if (b < 8) {
          worse.add(switched);
          worse_reg_before.add(before.benchmarks[b].verdict == Verdict::Regression);
          worse_reg.add(now.benchmarks[b].verdict == Verdict::Regression);
        } else {
          none.add(switched);
        }
      }
    }
    std::printf("| %s | %s | %s | %s | %s | %s | %s → %s | %s → %s |\n", c.name, pct(none).c_str(),
                pct(work).c_str(), pct(wait).c_str(), pct(helper).c_str(), pct(worse).c_str(),
                pct(helper_faster_before).c_str(), pct(helper_faster).c_str(),
                pct(worse_reg_before).c_str(), pct(worse_reg).c_str());
  }
  std::puts("");
}

// --- Table 4: leaving out starved rounds when the PR changes its own waiting ------------------

// The rule before: busy rounds where one side's raw CPU share was below half the other's. For
// wall-time metrics the share is CPU time over wall time, which the PR's own waiting lowers in
// every round, so it selects the PR's slowest rounds.
benchpr::Results without_rounds_by_raw_share(const benchpr::Results& r) {
  const std::vector<benchpr::RoundLoad> loads = benchpr::round_loads(r);
  std::vector<int> drop;
  for (const benchpr::RoundLoad& l : loads) {
    if (!benchpr::round_busy(l)) continue;
    const double lo = std::min(l.base_share, l.head_share);
    const double hi = std::max(l.base_share, l.head_share);
    if (hi > 0 && lo < 0.5 * hi) drop.push_back(l.number);
  }
  if (drop.empty() || 4 * drop.size() > loads.size()) return r;
  benchpr::Results out = r;
  for (const benchpr::AnalysedRound& a : benchpr::analysed_rounds(r)) {
    if (std::find(drop.begin(), drop.end(), a.number) == drop.end()) continue;
    for (benchpr::BenchmarkSeries& x : out.series) {
      x.base[static_cast<std::size_t>(a.round)] = benchpr::kMissing;
      x.head[static_cast<std::size_t>(a.round)] = benchpr::kMissing;
    }
  }
  return out;
}

void own_waiting_table(int prs) {
  constexpr double kWait = 0.247;  // the PR's waiting, as a fraction of the CPU time
  std::puts("### Leaving out starved rounds when the PR changes its own waiting\n");
  std::puts(
      "Real time compared, 10 rounds, 20 benchmarks per pull request. The PR adds waiting worth "
      "24.7% of the CPU time to every benchmark of the suite (a sleep in shared code): on a "
      "quiet machine the wall time is +24.7%, and the process's CPU share falls in every round "
      "(0.80 of what it was). Estimate = geometric mean of the estimated change over benchmarks "
      "and pull requests; found = share called significant upwards; rounds left = mean analysed "
      "rounds used. \"keep\" is the unbiased reference (both sides ran under the same random "
      "load in alternating order); \"raw shares\" is the rule before (one side's CPU share "
      "below half the other's); \"neighbours' share\" is benchpr's rule (`round_lopsided`: "
      "what the neighbours left each side, its own waiting taken out as read from its runs "
      "without neighbours).\n");
  std::puts("| machine | rounds | estimate | found | rounds left |");
  std::puts("|:--|:--|--:|--:|--:|");
  enum class Rule { Keep, Raw, Own };
  for (std::size_t ci = 1; ci < kContention.size(); ++ci) {
    const Contention& c = kContention[ci];
    for (Rule rule : {Rule::Keep, Rule::Raw, Rule::Own}) {
      Rate found;
      double log_sum = 0, left = 0;
      long n = 0;
      for (int pr = 0; pr < prs; ++pr) {
        std::vector<Truth> truth(20);
        for (Truth& t : truth) t.wait = kWait;
        const Sim s = simulate(c, Noise{}, truth, 10, 0.05, 3, 30000 + static_cast<unsigned>(pr));
        const benchpr::Results r = to_results(s, truth.size(), Metric::Real);
        const benchpr::Analysis a =
            benchpr::analyse(rule == Rule::Keep  ? r
                             : rule == Rule::Raw ? without_rounds_by_raw_share(r)
                                                 : benchpr::without_lopsided_rounds(r));
        for (const benchpr::BenchmarkAnalysis& x : a.benchmarks) {
          found.add(significant(x.verdict) && x.change > 0);
          if (std::isfinite(x.change)) {
            log_sum += std::log1p(x.change);
            ++n;
          }
        }
        left += a.benchmarks[0].rounds_used;
      }
      std::printf("| %s | %s | %+.1f%% | %s | %.1f |\n", c.name,
                  rule == Rule::Keep  ? "keep"
                  : rule == Rule::Raw ? "leave out, raw shares (before)"
                                      : "leave out, neighbours' share (now)",
                  100 * std::expm1(log_sum / static_cast<double>(n)), pct(found).c_str(),
                  left / prs);
    }
  }
  std::puts("");
}

// --- Table 5: many short rounds or few long ones ------------------------------------------------

struct Split {
  double min_time;
  int repetitions;
};

void split_table(int prs) {
  constexpr double kBudget = 480;  // seconds of measuring, after builds
  constexpr double kFixed = 1.0;   // per process run: start, set-up, slow benchmarks
  constexpr int kBenchmarks = 40;
  std::puts("### Many short rounds or few long ones, in a fixed time\n");
  fmt::print(
      "{} benchmarks in one executable, {:.0f} s of measuring (both sides), {:.0f} s fixed cost "
      "per "
      "process run, a run costing fixed + benchmarks × repetitions × 1.5 × min time; CPU time "
      "compared; 1% noise between processes, 0.5% within a run at 0.5 s (growing as "
      "1/√(min time × repetitions)). Rounds = what fits, at most 120. Power = share of +2% "
      "changes called significant upwards; A/A = share of unchanged benchmarks called "
      "significant.\n\n",
      kBenchmarks, kBudget, kFixed);
  const std::array<Split, 7> splits{
      {{0.01, 1}, {0.02, 1}, {0.05, 1}, {0.05, 3}, {0.1, 3}, {0.2, 3}, {0.5, 3}}};
  std::puts("| machine | min time × repetitions | rounds | +2% found | A/A significant |");
  std::puts("|:--|:--|--:|--:|--:|");
  struct Machine {
    const char* name;
    Contention c;
    Noise n;
  };
  const std::array<Machine, 3> machines{{
      {"quiet", kContention[0], Noise{}},
      {"5% drift", kContention[0], Noise{0.01, 0.005, 0.05}},
      {"half the runs preempted", kContention[2], Noise{}},
  }};
  for (const Machine& m : machines) {
    for (const Split& sp : splits) {
      const double run = kFixed + kBenchmarks * sp.repetitions * 1.5 * sp.min_time;
      int rounds = static_cast<int>(kBudget / (2 * run));
      rounds = std::min(120, rounds - rounds % 2);
      if (rounds < 4) continue;
      Rate p2, aa;
      for (int pr = 0; pr < prs; ++pr) {
        std::vector<Truth> truth(kBenchmarks);
        for (int b = 0; b < 8; ++b) truth[static_cast<std::size_t>(b)].cpu_change = 0.02;
        const Sim s = simulate(m.c, m.n, truth, rounds, sp.min_time, sp.repetitions,
                               20000 + static_cast<unsigned>(pr));
        const benchpr::Analysis a = benchpr::analyse(to_results(s, truth.size(), Metric::Cpu));
        for (std::size_t b = 0; b < truth.size(); ++b) {
          const auto& x = a.benchmarks[b];
          if (b < 8) {
            p2.add(significant(x.verdict) && x.change > 0);
          } else {
            aa.add(significant(x.verdict));
          }
        }
      }
      std::printf("| %s | %g s × %d | %d | %s | %s |\n", m.name, sp.min_time, sp.repetitions,
                  rounds, pct(p2).c_str(), pct(aa).c_str());
    }
  }
  std::puts("");
}

}  // namespace

int main(int argc, char** argv) {
  const bool quick = argc > 1 && std::string(argv[1]) == "--quick";
  const int prs = quick ? 10 : 200;
  metric_table(prs);
  waiting_table(prs);
  missed_work_table(prs);
  lopsided_table(prs);
  own_waiting_table(prs);
  split_table(quick ? 5 : 100);
  return 0;
}
