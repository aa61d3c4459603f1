// Which time was compared, the waiting guard and the busy-machine note, on hand-made results.
#include <cmath>
#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "benchpr/core/adaptive/session_analysis.hpp"
#include "benchpr/core/model/model.hpp"
#include "benchpr/core/notes/measurement_notes.hpp"
#include "support/note_kinds.hpp"

namespace benchpr {
namespace {

using ::testing::HasSubstr;

// A warm-up and `rounds` analysed rounds alternating AB, BA.
Results make_results(int rounds) {
  Results r;
  r.config.suites.push_back({"core", "bench", FormatKind::GoogleBenchmark, {}, "", {}, 0});
  for (int i = 0; i <= rounds; ++i) {
    RoundPlan p;
    p.index = i;
    p.warmup = i == 0;
    p.first = i % 2 == 1 ? Side::Base : Side::Head;
    r.plan.push_back(p);
  }
  r.rounds_done = rounds + 1;
  r.complete = true;
  return r;
}

// CPU time equal on both sides; the PR's real time scaled by `real_factor` per round.
BenchmarkSeries series(const std::string& name, std::vector<double> real_factor,
                       std::vector<double> cpu_factor = {}) {
  BenchmarkSeries s;
  s.suite = "core";
  s.name = name;
  s.unit = "ns";
  s.metric = "cpu_time";
  const std::size_t n = real_factor.size() + 1;
  for (std::size_t i = 0; i < n; ++i) {
    const double jitter = 1.0 + 0.001 * static_cast<double>(i % 3);
    const double cf = i == 0 || cpu_factor.empty() ? 1.0 : cpu_factor[i - 1];
    const double rf = i == 0 ? 1.0 : real_factor[i - 1];
    s.base_cpu.push_back(100 * jitter);
    s.head_cpu.push_back(100 * jitter * cf);
    s.base_real.push_back(100 * jitter);
    s.head_real.push_back(100 * jitter * cf * rf);
  }
  s.base = s.base_cpu;
  s.head = s.head_cpu;
  return s;
}

std::vector<int> analysed(int n) {
  std::vector<int> v;
  for (int i = 1; i <= n; ++i) v.push_back(i);
  return v;
}
std::vector<int> signs(int n) {
  std::vector<int> v;
  for (int i = 1; i <= n; ++i) v.push_back(i % 2 == 1 ? 1 : -1);
  return v;
}

TEST(RoundRanges, NamesRunsOfConsecutiveRounds) {
  EXPECT_EQ(round_ranges({4}), "round 4");
  EXPECT_EQ(round_ranges({2, 3, 4, 5, 6}), "rounds 2–6");
  EXPECT_EQ(round_ranges({1, 3, 5, 6, 7}), "rounds 1, 3 and 5–7");
  EXPECT_EQ(round_ranges({1, 2}), "rounds 1–2");
}

TEST(WaitingCheck, ConsistentWallTimeGapIsNoted) {
  const BenchmarkSeries s = series("BM_Sleep", {1.20, 1.21, 1.19, 1.20, 1.22, 1.18});
  const WaitingCheck c =
      waiting_check(s.base_real, s.head_real, s.base_cpu, s.head_cpu, analysed(6), signs(6));
  EXPECT_EQ(c.rounds, 6);
  // mean of ln(real ratio) = mean(ln 1.20, ln 1.21, ...) ~ ln 1.2: 20% more wall time.
  EXPECT_NEAR(c.real_change, 0.1999, 0.001);
  EXPECT_NEAR(c.cpu_change, 0.0, 1e-12);
  EXPECT_NEAR(c.wait_change, 0.1999, 0.001);
  EXPECT_LT(c.p, 1e-4);
  EXPECT_EQ(c.same_sign_rounds, 6);
  EXPECT_TRUE(waiting_noted(c, c.p, 0.02));
}

TEST(WaitingCheck, ContentionInSingleRoundsIsNotNoted) {
  // Two rounds where the PR's process was preempted (wall x3, x1.8), the rest flat.
  const BenchmarkSeries s = series("BM_Busy", {1.0, 3.0, 1.0, 1.0, 1.8, 1.0, 1.0, 1.0});
  const WaitingCheck c =
      waiting_check(s.base_real, s.head_real, s.base_cpu, s.head_cpu, analysed(8), signs(8));
  EXPECT_EQ(c.same_sign_rounds, 2);
  EXPECT_FALSE(waiting_noted(c, c.p, 0.02));
}

TEST(WaitingCheck, SmallGapBelowThresholdIsNotNoted) {
  const BenchmarkSeries s = series("BM_Small", {1.01, 1.01, 1.01, 1.01, 1.01, 1.01});
  const WaitingCheck c =
      waiting_check(s.base_real, s.head_real, s.base_cpu, s.head_cpu, analysed(6), signs(6));
  EXPECT_FALSE(waiting_noted(c, c.p, 0.02));
}

TEST(WaitingCheck, CpuChangeThatExplainsTheWallChangeIsNotWaiting) {
  // Both times 20% up: the PR does more work, which the compared CPU time shows itself.
  const BenchmarkSeries s = series("BM_Work", {1, 1, 1, 1, 1, 1}, {1.2, 1.2, 1.2, 1.2, 1.2, 1.2});
  const WaitingCheck c =
      waiting_check(s.base_real, s.head_real, s.base_cpu, s.head_cpu, analysed(6), signs(6));
  EXPECT_NEAR(c.real_change, 0.2, 1e-9);
  EXPECT_NEAR(c.wait_change, 0.0, 1e-9);
  EXPECT_FALSE(waiting_noted(c, 0.0, 0.02));
}

TEST(MeasurementNotes, SuiteSaysWhichTimeWasCompared) {
  Results r = make_results(4);
  r.series.push_back(series("BM_A", {1, 1, 1, 1}));
  BenchmarkSeries threaded = series("BM_T/threads:4", {1, 1, 1, 1});
  threaded.metric = "real_time";
  r.series.push_back(threaded);
  const Analysis a = analyse_session(r);
  EXPECT_THAT(
      plain_texts(a.notes),
      ::testing::Contains("Suite `core` compared CPU time for 1 single-threaded benchmark and "
                          "real time for 1 (several threads, UseRealTime or UseManualTime)."));
}

TEST(MeasurementNotes, SleepAddedIsFlaggedAndNoted) {
  Results r = make_results(6);
  r.series.push_back(series("BM_Sleep", {1.3, 1.31, 1.29, 1.3, 1.32, 1.28}));
  r.series.push_back(series("BM_Flat", {1, 1, 1, 1, 1, 1}));
  const Analysis a = analyse_session(r);
  ASSERT_EQ(a.benchmarks.size(), 2u);
  for (const BenchmarkAnalysis& b : a.benchmarks) {
    const bool waiting = b.has_flag(BenchmarkFlag::Waiting);
    EXPECT_EQ(waiting, b.name == "BM_Sleep") << b.name;
  }
  // One waiting note, naming the benchmark that sleeps and no other.
  EXPECT_EQ(testing::names_in_notes(a.notes, NoteKind::Waiting),
            (std::vector<std::vector<std::string>>{{"BM_Sleep"}}))
      << ::testing::PrintToString(plain_texts(a.notes));
}

void add_run(Results& r, int round, Side side, double seconds, double cpu, double others) {
  RunRecord x;
  x.round = round;
  x.suite = "core";
  x.side = side;
  x.seconds = seconds;
  x.cpu_seconds = cpu;
  x.others_cpus = others;
  r.runs.push_back(x);
}

TEST(MeasurementNotes, BusyRoundsAreNamedWithTheShareTheBenchmarksGot) {
  Results r = make_results(6);
  r.series.push_back(series("BM_A", {1, 1, 1, 1, 1, 1}));
  for (int round = 0; round <= 6; ++round) {
    const bool busy = round >= 2 && round <= 5;
    // base: 0.5 s CPU in 1 s, PR: 0.46 s in 1 s -> 48% of a CPU over the round.
    add_run(r, round, Side::Base, 1.0, busy ? 0.50 : 0.99, busy ? 1.5 : 0.1);
    add_run(r, round, Side::Head, 1.0, busy ? 0.46 : 0.99, busy ? 1.5 : 0.1);
  }
  const Analysis a = analyse_session(r);
  EXPECT_EQ(testing::notes_of_kind(a.notes, NoteKind::MachineBusy).size(), 1u);
  EXPECT_THAT(plain_texts(a.notes),
              ::testing::Contains(HasSubstr(
                  "The machine was busy: the benchmark processes got about 48% of a CPU "
                  "in rounds 2–5 (other processes kept about 1.5 CPUs busy). CPU time was "
                  "compared")));
}

TEST(MeasurementNotes, SleepingBenchmarkOnAQuietMachineIsNotBusy) {
  Results r = make_results(4);
  r.series.push_back(series("BM_A", {1, 1, 1, 1}));
  for (int round = 0; round <= 4; ++round) {
    add_run(r, round, Side::Base, 1.0, 0.2, 0.05);
    add_run(r, round, Side::Head, 1.0, 0.2, 0.05);
  }
  const std::vector<RoundLoad> loads = round_loads(r);
  ASSERT_FALSE(loads.empty());
  for (const RoundLoad& l : loads) EXPECT_FALSE(round_busy(l)) << "round " << l.number;
}

TEST(MeasurementNotes, WallTimeComparisonsAreToldWhatContentionDoes) {
  Results r = make_results(4);
  BenchmarkSeries s = series("BM_T/threads:2", {1, 1, 1, 1});
  s.metric = "real_time";
  s.head[2] *= 3;  // the starved round's wall time
  r.series.push_back(s);
  for (int round = 1; round <= 4; ++round) {
    const bool starved = round == 2;
    add_run(r, round, Side::Base, 1.0, starved ? 0.2 : 0.99, starved ? 1.8 : 0.1);
    add_run(r, round, Side::Head, 1.0, starved ? 0.9 : 0.99, starved ? 1.0 : 0.1);
  }
  const Analysis a = analyse_session(r);
  EXPECT_THAT(plain_texts(a.notes),
              ::testing::Contains(
                  AllOf(HasSubstr("in round 2"), HasSubstr("1 benchmark compared wall time"),
                        HasSubstr("In round 2 the neighbours left one side less than half "
                                  "the CPU they left the other: that round is left out"))));
  ASSERT_EQ(a.benchmarks.size(), 1u);
  EXPECT_EQ(a.benchmarks[0].rounds_used, 3);
}

TEST(MeasurementNotes, SideStarvedInMostRoundsIsThePullRequestAndStays) {
  Results r = make_results(4);
  BenchmarkSeries s = series("BM_T/threads:2", {1, 1, 1, 1});
  s.metric = "real_time";
  r.series.push_back(s);
  for (int round = 1; round <= 4; ++round) {
    add_run(r, round, Side::Base, 1.0, 0.7, 1.0);
    add_run(r, round, Side::Head, 1.0, 0.2, 1.0);
  }
  const Analysis a = analyse_session(r);
  ASSERT_EQ(a.benchmarks.size(), 1u);
  EXPECT_EQ(a.benchmarks[0].rounds_used, 4);
  for (const std::string& n : plain_texts(a.notes))
    EXPECT_THAT(n, ::testing::Not(HasSubstr("left out")));
}

TEST(MeasurementNotes, StarvedRoundsAreJudgedOnWhatTheNeighboursLeftEachSide) {
  // The PR waits more: alone (rounds 1 and 8) its processes get 60% of a CPU, the base's all
  // of it; under the neighbours 35% against the base's 60%. In round 3 a neighbour took a
  // little more from the PR (26%), in round 6 most of the base's (20%). Judged on the raw
  // shares, round 3 looked starved too (26% < half of 60%): the drop then picked the PR's
  // slowest rounds, which the PR's own waiting made look starved.
  Results r = make_results(8);
  BenchmarkSeries s = series("BM_T/threads:2", {1.6, 2.2, 2.5, 2.2, 2.2, 1.0, 2.2, 1.6});
  s.metric = "real_time";
  s.base = s.base_real;
  s.head = s.head_real;
  r.series.push_back(s);
  for (int round = 1; round <= 8; ++round) {
    const bool quiet = round == 1 || round == 8;
    add_run(r, round, Side::Base, 1.0, quiet ? 1.0 : round == 6 ? 0.2 : 0.6, quiet ? 0.1 : 1.5);
    add_run(r, round, Side::Head, 1.0, quiet ? 0.6 : round == 3 ? 0.26 : 0.35, quiet ? 0.1 : 1.5);
  }
  const std::vector<RoundLoad> loads = round_loads(r);
  ASSERT_EQ(loads.size(), 8u);
  // The PR's waiting per CPU second, from its quiet runs: 1 / 0.6 - 1.
  EXPECT_NEAR(loads[2].head_left, 1 / (1 / 0.26 - (1 / 0.6 - 1)), 1e-9);
  EXPECT_NEAR(loads[2].base_left, 0.6, 1e-9);
  EXPECT_FALSE(round_lopsided(loads[2]));
  EXPECT_TRUE(round_lopsided(loads[5]));
  const Analysis a = analyse_session(r);
  ASSERT_EQ(a.benchmarks.size(), 1u);
  EXPECT_EQ(a.benchmarks[0].rounds_used, 7);
  EXPECT_THAT(plain_texts(a.notes),
              ::testing::Contains(HasSubstr("In round 6 the neighbours left one side")));
}

void all_rounds_busy(Results& r, int rounds) {
  for (int round = 1; round <= rounds; ++round) {
    add_run(r, round, Side::Base, 1.0, 0.5, 1.5);
    add_run(r, round, Side::Head, 1.0, 0.5, 1.5);
  }
}

// What the neighbours did to the PR's wall time against the base's, round by round: the same
// for every benchmark of a process run.
const std::vector<double> kContention = {1.5, 0.7, 1.2, 0.8, 1.4, 0.75};

std::vector<double> times(const std::vector<double>& a, double f) {
  std::vector<double> out;
  for (double x : a) out.push_back(x * f);
  return out;
}

TEST(MeasurementNotes, OnBusyRoundsWaitingIsSeenAgainstTheSuitesOtherBenchmarks) {
  Results r = make_results(6);
  r.series.push_back(series("BM_Sleep", times(kContention, 1.3)));
  r.series.push_back(series("BM_A", kContention));
  r.series.push_back(series("BM_B", times(kContention, 1.01)));
  r.series.push_back(series("BM_C", times(kContention, 0.99)));
  all_rounds_busy(r, 6);
  const Analysis a = analyse_session(r);
  for (const BenchmarkAnalysis& b : a.benchmarks) {
    const bool waiting = b.has_flag(BenchmarkFlag::Waiting);
    EXPECT_EQ(waiting, b.name == "BM_Sleep") << b.name;
  }
  // The real-time change named is the one beyond the neighbours' load.
  EXPECT_THAT(plain_texts(a.notes),
              ::testing::Contains(HasSubstr(
                  "Wall time moved while CPU time did not: `BM_Sleep` (real time +30.0%")));
}

TEST(MeasurementNotes, ContentionThatStretchesTheWholeRunIsNotWaiting) {
  Results r = make_results(6);
  r.series.push_back(series("BM_A", kContention));
  r.series.push_back(series("BM_B", times(kContention, 1.01)));
  r.series.push_back(series("BM_C", times(kContention, 0.99)));
  // Every round's PR run stretched by 40% more than the base's: a neighbour that kept running
  // in one side's slots, the same for all three benchmarks.
  r.series.push_back(series("BM_D", times(kContention, 1.0)));
  for (BenchmarkSeries& s : r.series)
    for (std::size_t i = 1; i < s.head_real.size(); ++i) s.head_real[i] *= 1.4;
  all_rounds_busy(r, 6);
  const Analysis a = analyse_session(r);
  for (const BenchmarkAnalysis& b : a.benchmarks) EXPECT_TRUE(b.flags.empty()) << b.name;
}

TEST(MeasurementNotes, RoundsThatLookQuietOnAMostlyBusyMachineAreNotTrustedAsQuiet) {
  // CPU hogs all along, but four short rounds came out above the busy bar, and in those the
  // PR's side of BM_A happened to run between bursts: 15% less wall time, CPU time the same.
  // Judged as quiet, those four rounds alone noted waiting; the load came and went all along.
  std::vector<double> contention;
  for (int k = 0; k < 12; ++k) contention.push_back(kContention[static_cast<std::size_t>(k % 6)]);
  std::vector<double> a = contention;
  for (int k = 8; k < 12; ++k) a[static_cast<std::size_t>(k)] = 0.85;
  std::vector<double> flat = contention;
  for (int k = 8; k < 12; ++k) flat[static_cast<std::size_t>(k)] = 1.0;
  Results r = make_results(12);
  r.series.push_back(series("BM_A", a));
  r.series.push_back(series("BM_B", times(flat, 1.01)));
  r.series.push_back(series("BM_C", times(flat, 0.99)));
  r.series.push_back(series("BM_D", flat));
  for (int round = 1; round <= 12; ++round) {
    const bool busy = round <= 8;
    add_run(r, round, Side::Base, 1.0, busy ? 0.5 : 0.95, busy ? 1.5 : 1.5);
    add_run(r, round, Side::Head, 1.0, busy ? 0.5 : 0.95, busy ? 1.5 : 1.5);
  }
  const Analysis an = analyse_session(r);
  for (const BenchmarkAnalysis& b : an.benchmarks) EXPECT_TRUE(b.flags.empty()) << b.name;
}

TEST(MeasurementNotes, BusyRoundsWithoutOtherBenchmarksToCompareWithAreNotJudged) {
  // The PR's wall time is up 30% in every round, but every round was busy and the suite has
  // no other benchmarks to tell the neighbours' share from waiting: no note.
  Results r = make_results(6);
  r.series.push_back(series("BM_Sleep", {1.3, 1.31, 1.29, 1.3, 1.32, 1.28}));
  for (int round = 1; round <= 6; ++round) {
    add_run(r, round, Side::Base, 1.0, 0.5, 1.5);
    add_run(r, round, Side::Head, 1.0, 0.5, 1.5);
  }
  const Analysis a = analyse_session(r);
  EXPECT_TRUE(a.benchmarks[0].flags.empty());
}

// The PR moves half of BM_Work's work to a helper thread it waits for: the calling thread's CPU
// time halves, the wall time stays (times `wall`).
Results helper_thread_results(double wall) {
  Results r = make_results(6);
  std::vector<double> cpu = {0.50, 0.51, 0.49, 0.50, 0.52, 0.50};
  std::vector<double> real;
  for (double c : cpu) real.push_back(wall / c);
  r.series.push_back(series("BM_Work", real, cpu));
  r.series.push_back(series("BM_Flat", {1, 1.01, 0.99, 1, 1, 1}));
  return r;
}

TEST(CpuMissedWork, CpuTimeThatHalvesWhileWallTimeStaysIsNotCalledFaster) {
  const Results r = helper_thread_results(1.0);
  const std::vector<MissedWork> missed = cpu_time_missing_work(r);
  ASSERT_EQ(missed.size(), 1u);
  EXPECT_EQ(missed[0].name, "BM_Work");
  EXPECT_NEAR(missed[0].check.cpu_change, -0.497, 0.005);
  EXPECT_NEAR(missed[0].check.real_change, 0.0, 0.001);
  const Analysis a = analyse_session(r);
  const BenchmarkAnalysis& work = a.benchmarks[0];
  ASSERT_EQ(work.name, "BM_Work");
  // Compared on wall time: unchanged, not 49.8% faster.
  EXPECT_EQ(work.metric, "real_time");
  EXPECT_NE(work.verdict, Verdict::Improvement);
  EXPECT_NE(work.verdict, Verdict::Faster);
  EXPECT_NEAR(work.change, 0.0, 0.005);
  EXPECT_THAT(work.flags, ::testing::Contains(BenchmarkFlag::WallTime));
  EXPECT_THAT(work.flags, ::testing::Not(::testing::Contains(BenchmarkFlag::Waiting)));
  EXPECT_TRUE(a.benchmarks[1].flags.empty());
  EXPECT_EQ(testing::names_in_notes(a.notes, NoteKind::MissedWork),
            (std::vector<std::vector<std::string>>{{"BM_Work"}}))
      << ::testing::PrintToString(plain_texts(a.notes));
  // The suite's note counts only the benchmark still compared on CPU time.
  EXPECT_THAT(plain_texts(a.notes),
              ::testing::Contains("Suite `core` compared CPU time (its benchmarks run on one "
                                  "thread), which a busy machine lengthens far less than wall "
                                  "time."));
}

TEST(CpuMissedWork, WallTimeThatGotWorseIsARegression) {
  // Half the work on a helper thread and the wall time 5% worse: "49.8% faster" before.
  const Analysis a = analyse_session(helper_thread_results(1.05));
  EXPECT_EQ(a.benchmarks[0].verdict, Verdict::Regression);
  EXPECT_NEAR(a.benchmarks[0].change, 0.05, 0.005);
  EXPECT_EQ(a.recommendation.kind, RecommendationKind::DoNotMerge);
}

TEST(CpuMissedWork, WorkThatGotFasterOnBothClocksKeepsCpuTime) {
  // Both times 30% down: a real speed-up, which the CPU time shows as it is.
  Results r = make_results(6);
  r.series.push_back(series("BM_Fast", {1, 1, 1, 1, 1, 1}, {0.7, 0.71, 0.69, 0.7, 0.7, 0.7}));
  EXPECT_TRUE(cpu_time_missing_work(r).empty());
  const Analysis a = analyse_session(r);
  EXPECT_TRUE(a.benchmarks[0].flags.empty());
  EXPECT_EQ(a.benchmarks[0].verdict, Verdict::Improvement);
}

TEST(CpuMissedWork, AddedWaitingWithTheSameCpuTimeStaysTheWaitingGuards) {
  Results r = make_results(6);
  r.series.push_back(series("BM_Sleep", {1.3, 1.31, 1.29, 1.3, 1.32, 1.28}));
  EXPECT_TRUE(cpu_time_missing_work(r).empty());
}

TEST(CpuMissedWork, AMetricTheConfigurationChoseIsKept) {
  Results r = helper_thread_results(1.0);
  r.config.suites[0].metric = "cpu_time";
  EXPECT_TRUE(cpu_time_missing_work(r).empty());
  EXPECT_TRUE(analyse_session(r).benchmarks[0].flags.empty());
}

TEST(CpuMissedWork, WallTimeValuesKeepTheComparedUnit) {
  // The compared value in microseconds, both times in nanoseconds: the wall time comes out in
  // microseconds too.
  Results r = helper_thread_results(1.0);
  BenchmarkSeries& s = r.series[0];
  s.unit = "us";
  for (double& v : s.base) v /= 1000;
  for (double& v : s.head) v /= 1000;
  const Results compared = compared_on_wall_time(r, cpu_time_missing_work(r));
  for (std::size_t i = 0; i < s.base.size(); ++i) {
    EXPECT_NEAR(compared.series[0].base[i], s.base_real[i] / 1000, 1e-9);
    EXPECT_NEAR(compared.series[0].head[i], s.head_real[i] / 1000, 1e-9);
  }
}

// A loaded machine: every round busy, the wall times scattered by the neighbours. BM_Work's PR
// moves half its work to a helper thread; in two rounds its wall time even came out shorter
// than its calling thread's CPU time halved. `process_cpu` is the PR's processes' CPU time
// against the base's (rusage: the helper thread's CPU time counts there).
Results loaded_helper_thread_results(double process_cpu) {
  const std::vector<double> contention = {1.2, 0.85, 1.1, 0.9, 1.15, 0.88, 1.05, 0.95};
  std::vector<double> cpu(8, 0.5);
  std::vector<double> real;
  for (std::size_t k = 0; k < 8; ++k) real.push_back((k == 2 || k == 7 ? 0.45 : 1.0) / 0.5);
  Results r = make_results(8);
  r.series.push_back(series("BM_Work", times(real, 1.0), cpu));
  for (std::size_t k = 0; k < 8; ++k) r.series[0].head_real[k + 1] *= contention[k];
  r.series.push_back(series("BM_A", contention));
  r.series.push_back(series("BM_B", times(contention, 1.01)));
  r.series.push_back(series("BM_C", times(contention, 0.99)));
  for (int round = 1; round <= 8; ++round) {
    add_run(r, round, Side::Base, 1.0, 0.5, 1.5);
    add_run(r, round, Side::Head, 1.0, 0.5 * process_cpu * (round % 3 == 0 ? 1.02 : 1.0), 1.5);
  }
  return r;
}

TEST(CpuMissedWork, OnALoadedMachineTheProcessesCpuTimeShowsTheHelperThread) {
  const Results r = loaded_helper_thread_results(1.3);
  const ProcessCpuCheck c = process_cpu_check(r, "core");
  EXPECT_EQ(c.rounds, 8);
  EXPECT_NEAR(c.change, 0.305, 0.01);
  EXPECT_TRUE(process_cpu_moved(c, 0.02));
  const std::vector<MissedWork> missed = cpu_time_missing_work(r);
  ASSERT_EQ(missed.size(), 1u);
  EXPECT_EQ(missed[0].name, "BM_Work");
  const Analysis a = analyse_session(r);
  EXPECT_THAT(a.benchmarks[0].flags, ::testing::Contains(BenchmarkFlag::WallTime));
  EXPECT_NE(a.benchmarks[0].verdict, Verdict::Improvement);
}

// A loaded machine, every round busy: BM_Half moves half its work to a helper thread (CPU time
// -50%, wall time the same); BM_Worse moves some too and does more (CPU time -5%, wall time
// +7.1%). Four untouched benchmarks take the neighbours' load in turns: their wall-vs-CPU gaps
// are +12%, -12%, +4% and -4% (log), a different one each round. Each busy round's gap is read
// against the median of the suite's others: 0.04 while BM_Half is among them, 0 once it is
// compared on wall time, so BM_Worse's gap reads 8% in the first reading and 12% in the waiting
// guard's (its bar: 10%). Before, the guard then noted "waiting" beside a CPU-time "improvement".
Results two_helper_threads_on_a_loaded_machine() {
  constexpr int kRounds = 12;
  const std::vector<double> turns = {0.12, -0.12, 0.04, -0.04};
  Results r = make_results(kRounds);
  std::vector<double> half_real, half_cpu, worse_real, worse_cpu;
  for (int k = 0; k < kRounds; ++k) {
    const double jitter = 0.004 * static_cast<double>(k % 3 - 1);
    half_cpu.push_back(0.5);
    half_real.push_back(std::exp(std::log(2.0) + jitter));
    worse_cpu.push_back(0.95);
    worse_real.push_back(std::exp(0.12 + jitter));
  }
  r.series.push_back(series("BM_Half", half_real, half_cpu));
  r.series.push_back(series("BM_Worse", worse_real, worse_cpu));
  for (int b = 0; b < 4; ++b) {
    std::vector<double> real;
    for (int k = 0; k < kRounds; ++k)
      real.push_back(std::exp(turns[static_cast<std::size_t>((k + b) % 4)]));
    r.series.push_back(series("BM_Same" + std::to_string(b), real));
  }
  all_rounds_busy(r, kRounds);
  return r;
}

TEST(CpuMissedWork, AGapTheWaitingGuardWouldNoteAgainstItsCpuTimeIsMissedWork) {
  const Results r = two_helper_threads_on_a_loaded_machine();
  std::vector<std::string> names;
  for (const MissedWork& m : cpu_time_missing_work(r)) names.push_back(m.name);
  EXPECT_THAT(names, ::testing::UnorderedElementsAre("BM_Half", "BM_Worse"));
  const Analysis a = analyse_session(r);
  for (const BenchmarkAnalysis& b : a.benchmarks) {
    const bool helper = b.name == "BM_Half" || b.name == "BM_Worse";
    EXPECT_EQ(b.has_flag(BenchmarkFlag::WallTime), helper) << b.name;
    EXPECT_FALSE(b.has_flag(BenchmarkFlag::Waiting)) << b.name;
    if (helper) {
      EXPECT_NE(b.verdict, Verdict::Improvement) << b.name << ": " << b.reason;
      EXPECT_NE(b.verdict, Verdict::Faster) << b.name << ": " << b.reason;
    }
  }
}

// The case a loaded runner produced: of five benchmarks, the PR moved work off the calling thread
// in two (BM_Half: CPU time -50%, wall time the same; BM_Worse: CPU time -25%, wall time +25%).
// BM_SameB's code moved in memory: CPU and wall time both +2.5%, its gap 0. Read against the
// median gap of its four neighbours, two of which the PR changed, its gap came out -29% in every
// busy round, and it was compared on a wall time that scattered by ±25%.
TEST(CpuMissedWork, BenchmarksThePrChangedDoNotMakeTheOthersReference) {
  constexpr int kRounds = 10;
  const std::vector<double> turns = {0.06, -0.06, 0.02, -0.02};
  Results r = make_results(kRounds);
  std::vector<double> half_real, half_cpu, worse_real, worse_cpu;
  for (int k = 0; k < kRounds; ++k) {
    const double jitter = 0.004 * static_cast<double>(k % 3 - 1);
    half_cpu.push_back(0.5);
    half_real.push_back(std::exp(std::log(2.0) + jitter));
    worse_cpu.push_back(0.75);
    worse_real.push_back(std::exp(std::log(1.25 / 0.75) + jitter));
  }
  r.series.push_back(series("BM_Half", half_real, half_cpu));
  r.series.push_back(series("BM_Worse", worse_real, worse_cpu));
  for (int b = 0; b < 3; ++b) {
    std::vector<double> real;
    for (int k = 0; k < kRounds; ++k)
      real.push_back(std::exp(turns[static_cast<std::size_t>((k + b) % 4)]));
    r.series.push_back(series(std::string("BM_Same") + static_cast<char>('A' + b), real,
                              std::vector<double>(kRounds, b == 1 ? 1.025 : 1.0)));
  }
  all_rounds_busy(r, kRounds);
  std::vector<std::string> names;
  for (const MissedWork& m : cpu_time_missing_work(r)) names.push_back(m.name);
  EXPECT_THAT(names, ::testing::UnorderedElementsAre("BM_Half", "BM_Worse"));
  const Analysis a = analyse_session(r);
  for (const BenchmarkAnalysis& b : a.benchmarks) {
    const bool helper = b.name == "BM_Half" || b.name == "BM_Worse";
    EXPECT_EQ(b.has_flag(BenchmarkFlag::WallTime), helper) << b.name;
    EXPECT_FALSE(b.has_flag(BenchmarkFlag::Waiting)) << b.name;
  }
}

TEST(CpuMissedWork, OnALoadedMachineAScatteredGapAloneIsNotEnough) {
  // The same rounds, but the processes' CPU time did not move: the gap alone, 6 of 8 rounds on
  // busy rounds, is below the bar a neighbour's load cannot reach.
  const Results r = loaded_helper_thread_results(1.0);
  EXPECT_FALSE(process_cpu_moved(process_cpu_check(r, "core"), 0.02));
  EXPECT_TRUE(cpu_time_missing_work(r).empty());
}

}  // namespace
}  // namespace benchpr
