// Reading Callgrind's dumps into instructions per iteration: captured dump files (Callgrind
// 3.19 on a Google Benchmark 1.7.1 binary) and hand-checked groupings.
#include <cmath>
#include <map>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "benchpr/core/base/valid_utf8.hpp"
#include "benchpr/runner/callgrind.hpp"
#include "support/temp_dir.hpp"

namespace benchpr::runner {
namespace {

using Trigger = CallgrindDump::Trigger;

std::string data(const std::string& name) {
  return testing::read_file(std::string(BENCHPR_TEST_DATA_DIR) + "/callgrind/" + name);
}

CallgrindDump pause(double n) { return {Trigger::Pause, n, {}}; }
CallgrindDump finish(double n) { return {Trigger::Finish, n, {}}; }

TEST(CallgrindDump, ReadsTriggerAndSummaryOfRealDumps) {
  const auto f = parse_callgrind_dump(data("finish_dump.txt"));
  ASSERT_TRUE(f);
  EXPECT_EQ(f->trigger, Trigger::Finish);
  EXPECT_EQ(f->instructions, 16812);
  const auto p = parse_callgrind_dump(data("pause_dump.txt"));
  ASSERT_TRUE(p);
  EXPECT_EQ(p->trigger, Trigger::Pause);
  EXPECT_EQ(p->instructions, 20);
  // The profile written at exit is the rest of the process, not a timed segment.
  EXPECT_FALSE(parse_callgrind_dump(data("exit_profile_head.txt")));
  EXPECT_FALSE(parse_callgrind_dump("summary: 12\n"));
  EXPECT_FALSE(parse_callgrind_dump(
      "desc: Trigger: --dump-before=benchmark::State::PauseTiming()\nsummary: x\n"));
}

TEST(CallgrindDump, ReadsTheCacheEventsOfARealCacheSimulationDump) {
  // Callgrind 3.19 with --cache-sim=yes: "events: Ir Dr Dw I1mr D1mr D1mw ILmr DLmr DLmw",
  // "summary: 28686 4097 1 2 4097 1" (a stride walk: every read misses D1). Callgrind leaves
  // the trailing zero columns out.
  const auto d = parse_callgrind_dump(data("cache_sim_dump.txt"));
  ASSERT_TRUE(d);
  EXPECT_EQ(d->trigger, Trigger::Finish);
  EXPECT_EQ(d->instructions, 28686);
  const std::map<std::string, double> expected = {{"Dr", 4097},   {"Dw", 1},   {"I1mr", 2},
                                                  {"D1mr", 4097}, {"D1mw", 1}, {"ILmr", 0},
                                                  {"DLmr", 0},    {"DLmw", 0}};
  EXPECT_EQ(d->events, expected);
  // A dump of Ir alone has no other events.
  EXPECT_TRUE(parse_callgrind_dump(data("finish_dump.txt"))->events.empty());
}

TEST(CallgrindDump, FindsIrByItsPlaceOnTheEventsLine) {
  const std::string pause = "desc: Trigger: --dump-before=benchmark::State::PauseTiming()\n";
  const auto d = parse_callgrind_dump(pause + "events: Dr Ir D1mr\nsummary: 5 100 3\n");
  ASSERT_TRUE(d);
  EXPECT_EQ(d->instructions, 100);
  EXPECT_EQ(d->events, (std::map<std::string, double>{{"Dr", 5}, {"D1mr", 3}}));
  // No Ir among the events: not a count.
  EXPECT_FALSE(parse_callgrind_dump(pause + "events: Dr D1mr\nsummary: 5 3\n"));
  // A column that is there must be a number.
  EXPECT_FALSE(parse_callgrind_dump(pause + "events: Ir D1mr\nsummary: 100 x\n"));
}

TEST(CallgrindPerIteration, LeavesOutTheFirstRepetitionAndFinishsPrologue) {
  // As measured: 3 repetitions of 1 iteration; the first pays lazy binding (4873), the
  // dump after each Finish is FinishKeepRunning's own prologue (20) and is not timed.
  const std::vector<CallgrindDump> dumps = {finish(4873), pause(20),    finish(4017),
                                            pause(20),    finish(4017), pause(20)};
  const PerIteration r = instructions_per_iteration(dumps, 3, 1);
  EXPECT_EQ(r.failure, std::nullopt) << r.failure.value_or("");
  EXPECT_DOUBLE_EQ(r.instructions, 4017);
}

TEST(CallgrindPerIteration, SumsTimedSegmentsAroundPauseTiming) {
  // A loop that pauses its timer: 5 before PauseTiming, 4013 after ResumeTiming, per repetition.
  const std::vector<CallgrindDump> dumps = {pause(828), finish(4880), pause(20),
                                            pause(5),   finish(4013), pause(20),
                                            pause(5),   finish(4013), pause(20)};
  const PerIteration r = instructions_per_iteration(dumps, 3, 1);
  EXPECT_DOUBLE_EQ(r.instructions, 4018);
}

TEST(CallgrindPerIteration, DividesByTheIterationsAndAveragesTheCountedRepetitions) {
  // Iterations(7): (28059 + 28045) / (2 * 7) = 4007.428...
  const std::vector<CallgrindDump> dumps = {finish(28915), pause(20),     finish(28059),
                                            pause(20),     finish(28045), pause(20)};
  const PerIteration r = instructions_per_iteration(dumps, 3, 7);
  EXPECT_NEAR(r.instructions, 56104.0 / 14.0, 1e-9);
}

TEST(CallgrindPerIteration, ExtraRunsBeforeTheRepetitionsAreLeftOut) {
  // A MinTime of the benchmark's own: attempts of 1 and 10 iterations before the reported 100.
  const std::vector<CallgrindDump> dumps = {finish(900),   pause(20), finish(4100),  pause(20),
                                            finish(40100), pause(20), finish(40100), pause(20),
                                            finish(40100), pause(20)};
  const PerIteration r = instructions_per_iteration(dumps, 3, 100);
  EXPECT_DOUBLE_EQ(r.instructions, 401);
}

TEST(CallgrindPerIteration, NoLoopOrNoIterationsIsAFailureWithAReason) {
  const PerIteration none = instructions_per_iteration({}, 3, 1);
  EXPECT_TRUE(is_missing(none.instructions));
  EXPECT_NE(none.failure.value_or("").find("no benchmark loop"), std::string::npos)
      << none.failure.value_or("");
  const PerIteration one = instructions_per_iteration({finish(10), pause(20)}, 3, 1);
  EXPECT_TRUE(is_missing(one.instructions));
  EXPECT_NE(one.failure.value_or("").find("1 run"), std::string::npos) << one.failure.value_or("");
  const PerIteration zero = instructions_per_iteration({finish(10), finish(10)}, 3, 0);
  EXPECT_TRUE(is_missing(zero.instructions));
  EXPECT_TRUE(zero.failure);
}

// Three repetitions as Google Benchmark runs them under Callgrind: a warm-up repetition, then two
// counted ones, each Finish dump followed by FinishKeepRunning's own prologue.
CallgrindRun run_of(double warm_up, double first, double second, long long iterations) {
  return {{finish(warm_up), pause(20), finish(first), pause(20), finish(second), pause(20)},
          iterations};
}

TEST(CallgrindTwoRuns, TheDifferenceTakesOutWhatARepetitionCostsOnce) {
  // A loop of 200 instructions per iteration whose first iteration also pays 10,000 once (the
  // lazy fill of a random generator's state) and 8 of entry and exit. At one iteration per
  // repetition that is 10,208, counted whole as before; at 1,000 iterations 210,008.
  // (210,008 - 10,208) / (1,000 - 1) = 199,800 / 999 = 200.
  const CallgrindRun one = run_of(12000, 10208, 10208, 1);
  const CallgrindRun many = run_of(215000, 210008, 210008, 1000);
  const TwoRunCount c = instructions_per_iteration(one, many, 3);
  EXPECT_EQ(c.failure, std::nullopt) << c.failure.value_or("");
  EXPECT_DOUBLE_EQ(c.instructions, 200);
  EXPECT_DOUBLE_EQ(c.check, 200);  // both repetitions of the second run agree
  // The weights: minus 1/(2 x 999) on each counted dump of the first, plus on the second's.
  const IterationWeights w = iteration_weights(one, many, 3);
  EXPECT_DOUBLE_EQ(w.first[2], -1.0 / 1998);
  EXPECT_DOUBLE_EQ(w.second[4], 1.0 / 1998);
  EXPECT_EQ(w.first[0], 0);   // the warm-up
  EXPECT_EQ(w.second[1], 0);  // a prologue
}

TEST(CallgrindTwoRuns, TheCheckIsTheRepetitionFarthestFromTheMean) {
  // The second run's repetitions differ: 210,008 and 212,006, mean 211,007.
  // Count: (211,007 - 10,208) / 999 = 201; check (the first, as far as the second):
  // (210,008 - 10,208) / 999 = 200.
  const TwoRunCount c =
      instructions_per_iteration(run_of(0, 10208, 10208, 1), run_of(0, 210008, 212006, 1000), 3);
  EXPECT_DOUBLE_EQ(c.instructions, 201);
  EXPECT_DOUBLE_EQ(c.check, 200);
}

TEST(CallgrindTwoRuns, FixedIterationsAverageEveryCountedRepetition) {
  // ->Iterations(7) in both runs: (700 + 700 + 700 + 714) / (4 x 7) = 100.5; the check is the
  // repetition farthest from the second run's mean 707, the first of the two: 700 / 7 = 100.
  const TwoRunCount c =
      instructions_per_iteration(run_of(900, 700, 700, 7), run_of(900, 700, 714, 7), 3);
  EXPECT_DOUBLE_EQ(c.instructions, 100.5);
  EXPECT_DOUBLE_EQ(c.check, 100);
}

// A dump with cache events.
CallgrindDump with_misses(CallgrindDump d, double d1_read_misses, double ll_read_misses) {
  d.events = {{"D1mr", d1_read_misses}, {"DLmr", ll_read_misses}};
  return d;
}

TEST(CallgrindTwoRuns, CacheEventsPerIterationByTheSameDifferenceAndCheck) {
  // Per repetition: a counted dump (Finish) and FinishKeepRunning's prologue (20 instructions,
  // 7 D1 misses, never counted). At one iteration: 1,100 instructions, 30 D1 misses, 2 LL
  // misses; at 11 iterations: 11,100 instructions, and 130 then 150 D1 misses, 12 LL misses.
  // Instructions: (11,100 - 1,100) / 10 = 1,000. D1: (140 - 30) / 10 = 11 (the mean of 130
  // and 150); LL: (12 - 2) / 10 = 1. The check is the first repetition (as far from the mean
  // as the second; both are 11,100 instructions): D1 (130 - 30) / 10 = 10.
  const auto run = [](double warm, double ir, double d1_a, double d1_b, double ll, long long n) {
    return CallgrindRun{{with_misses(finish(warm), 90, 9), with_misses(pause(20), 7, 0),
                         with_misses(finish(ir), d1_a, ll), with_misses(pause(20), 7, 0),
                         with_misses(finish(ir), d1_b, ll), with_misses(pause(20), 7, 0)},
                        n};
  };
  const TwoRunCount c = instructions_per_iteration(run(5000, 1100, 30, 30, 2, 1),
                                                   run(50000, 11100, 130, 150, 12, 11), 3);
  EXPECT_EQ(c.failure, std::nullopt) << c.failure.value_or("");
  EXPECT_DOUBLE_EQ(c.instructions, 1000);
  EXPECT_DOUBLE_EQ(c.events.at("D1mr"), 11);
  EXPECT_DOUBLE_EQ(c.events.at("DLmr"), 1);
  EXPECT_DOUBLE_EQ(c.check_events.at("D1mr"), 10);
  EXPECT_DOUBLE_EQ(c.check_events.at("DLmr"), 1);
  // ->Iterations(2) in both: the mean of all four counted repetitions, D1 (30 + 30 + 130 + 150)
  // / (4 × 2) = 42.5; the check is the second run's first repetition alone: 130 / 2 = 65.
  const TwoRunCount fixed =
      instructions_per_iteration(run(5000, 1100, 30, 30, 2, 2), run(5000, 1100, 130, 150, 2, 2), 3);
  EXPECT_DOUBLE_EQ(fixed.events.at("D1mr"), 42.5);
  EXPECT_DOUBLE_EQ(fixed.check_events.at("D1mr"), 65);
  // Dumps of Ir alone (no cache simulation): no events, the count as before.
  const TwoRunCount plain =
      instructions_per_iteration(run_of(0, 1100, 1100, 1), run_of(0, 11100, 11100, 11), 3);
  EXPECT_DOUBLE_EQ(plain.instructions, 1000);
  EXPECT_TRUE(plain.events.empty());
}

TEST(CallgrindTwoRuns, AnEventSomeCountedDumpLacksIsLeftOut) {
  std::vector<CallgrindDump> dumps = {with_misses(finish(100), 4, 1),
                                      with_misses(finish(100), 6, 1)};
  dumps[1].events.erase("DLmr");
  const std::map<std::string, double> sum = weighted_events(dumps, {1, 1});
  EXPECT_EQ(sum, (std::map<std::string, double>{{"D1mr", 10}}));
  // A dump of weight 0 does not decide.
  EXPECT_EQ(weighted_events(dumps, {1, 0}),
            (std::map<std::string, double>{{"D1mr", 4}, {"DLmr", 1}}));
}

TEST(CallgrindTwoRuns, EitherRunWithoutALoopIsAFailure) {
  const TwoRunCount c = instructions_per_iteration(run_of(0, 10, 10, 1), {{}, 1000}, 3);
  EXPECT_TRUE(c.failure);
  EXPECT_TRUE(std::isnan(c.instructions));
}

TEST(CallgrindFailures, UnsupportedInstructionIsNamed) {
  const std::string log =
      "==1== Callgrind, a call-graph generating cache profiler\n"
      "vex amd64->IR: unhandled instruction bytes: 0x62 0xF1 0x7C 0x48 0x10 0x5 0x0 0x0\n"
      "==1== valgrind: Unrecognised instruction at address 0x401136.\n";
  const std::optional<std::string> why = valgrind_failure(log);
  ASSERT_TRUE(why);
  EXPECT_NE(why->find("Valgrind cannot run it"), std::string::npos) << *why;
  EXPECT_NE(why->find("0x62 0xF1"), std::string::npos) << *why;
  EXPECT_EQ(valgrind_failure("==1== I   refs: 950,417\n"), std::nullopt);
}

TEST(CallgrindArguments, CacheSimulationOfOneFixedGeometryWhenAskedFor) {
  EXPECT_EQ(callgrind_arguments("/w/cg").find("--cache-sim"), std::string::npos);
  const std::string v = callgrind_arguments("/w/cg", true);
  EXPECT_NE(v.find("--cache-sim=yes --I1=32768,8,64 --D1=32768,8,64 --LL=8388608,16,64"),
            std::string::npos)
      << v;
}

// The phrase printed by the code under test, followed by bytes that are not UTF-8 and a
// character the quote's 60 bytes cut in two (found by fuzz_callgrind_dumps): the reason, which
// ends in the results file and the comment, is valid UTF-8.
TEST(CallgrindFailures, TheQuotedOutputIsValidUtf8) {
  const std::string log =
      "unhandled instruction bytes: \xff\xfe" + std::string(57, 'x') + "\xe2\x82\xac and more\n";
  const std::optional<std::string> why = valgrind_failure(log);
  ASSERT_TRUE(why);
  EXPECT_TRUE(is_valid_utf8(*why)) << *why;
  EXPECT_NE(why->find("\xef\xbf\xbd\xef\xbf\xbd" + std::string(57, 'x')), std::string::npos);
}

TEST(CallgrindArguments, TimerBoundariesAndOneIterationPerRepetition) {
  const std::string v = callgrind_arguments("/w/cg");
  EXPECT_NE(v.find("--toggle-collect='benchmark::State::ResumeTiming()' --collect-atstart=yes"),
            std::string::npos)
      << v;
  EXPECT_NE(v.find("--zero-before='benchmark::State::ResumeTiming()'"), std::string::npos);
  EXPECT_NE(v.find("--dump-before='benchmark::State::PauseTiming()'"), std::string::npos);
  EXPECT_NE(v.find("--dump-before='benchmark::State::FinishKeepRunning()'"), std::string::npos);
  EXPECT_NE(v.find("--callgrind-out-file='/w/cg.%p'"), std::string::npos) << v;
  const std::string b = callgrind_benchmark_arguments({"BM_Vec/64"}, "/w/out.json");
  EXPECT_NE(b.find("--benchmark_filter='^(BM_Vec/64)$'"), std::string::npos) << b;
  EXPECT_NE(b.find("--benchmark_min_time=0 "), std::string::npos);
  EXPECT_NE(b.find("--benchmark_repetitions=3"), std::string::npos);
  EXPECT_NE(b.find("--benchmark_out='/w/out.json'"), std::string::npos);
  EXPECT_NE(callgrind_benchmark_arguments({"BM_Vec/64"}, "/w/out.json", kCallgrindLongMinTime)
                .find("--benchmark_min_time=0.05 "),
            std::string::npos);
}

TEST(CallgrindThreads, MultiThreadedBenchmarksAreRecognised) {
  EXPECT_TRUE(is_multithreaded_benchmark("BM_T/threads:2"));
  EXPECT_TRUE(is_multithreaded_benchmark("BM_T/64/threads:8/real_time"));
  EXPECT_FALSE(is_multithreaded_benchmark("BM_T/threads:1"));
  EXPECT_FALSE(is_multithreaded_benchmark("BM_threads:4x"));
  EXPECT_FALSE(is_multithreaded_benchmark("BM_Vec/64"));
  EXPECT_TRUE(is_multithreaded_benchmark("BM_T/threads:x/threads:4"));  // the first valid field
  EXPECT_FALSE(is_multithreaded_benchmark("BM_T/threads:4x/threads:1"));
  EXPECT_TRUE(is_multithreaded_benchmark("BM_T/threads:0010"));
  EXPECT_FALSE(is_multithreaded_benchmark("BM_T/threads:0001/real_time"));
  EXPECT_FALSE(is_multithreaded_benchmark("BM_T/threads:"));
  EXPECT_TRUE(is_multithreaded_benchmark("BM_T/threads:99999999999999999999999"));
}

// A name the code under test makes as long as it likes: a scan, no recursion per character
// (std::regex overflowed the stack here at 200,000 characters).
TEST(CallgrindThreads, AHugeNameIsScannedWithoutRecursion) {
  const std::string huge = "BM_" + std::string(2'000'000, 'a') + "/threads:2";
  EXPECT_TRUE(is_multithreaded_benchmark(huge));
  EXPECT_FALSE(is_multithreaded_benchmark(std::string(2'000'000, '/')));
}

}  // namespace
}  // namespace benchpr::runner
