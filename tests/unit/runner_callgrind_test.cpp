// Reading Callgrind's dumps into instructions per iteration: captured dump files (Callgrind
// 3.19 on a Google Benchmark 1.7.1 binary) and hand-checked groupings.
#include <cmath>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "benchpr/core/valid_utf8.hpp"
#include "benchpr/runner/callgrind.hpp"
#include "support/temp_dir.hpp"

namespace benchpr::runner {
namespace {

using Trigger = CallgrindDump::Trigger;

std::string data(const std::string& name) {
  return testing::read_file(std::string(BENCHPR_TEST_DATA_DIR) + "/callgrind/" + name);
}

CallgrindDump pause(double n) { return {Trigger::Pause, n}; }
CallgrindDump finish(double n) { return {Trigger::Finish, n}; }

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
