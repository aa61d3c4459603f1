// The live-machine tests' decisions, asserted on their captured rounds: the per-round values a
// real comparison measured beside CPU spinners (busy_machine_live_test) and beside a load that
// switches on and off (noisy_machine_live_test), kept in tests/data/live-rounds/ and read back
// through the same reader and analysis `publish` uses. The live tests still run (label `live`)
// and can capture new rounds (tests/data/live-rounds/README.md); here the decision on fixed
// values is checked every time, with no retry and no second seed.
#include <cmath>
#include <stdexcept>
#include <string>

#include <gtest/gtest.h>

#include "benchpr/core/adaptive/session_analysis.hpp"
#include "benchpr/core/model/benchmark_flag.hpp"
#include "benchpr/core/model/model.hpp"
#include "benchpr/core/notes/measurement_notes.hpp"
#include "benchpr/core/results_file/results_json.hpp"
#include "support/temp_dir.hpp"

namespace benchpr {
namespace {

Results captured(const std::string& name) {
  return results_from_string(
      testing::read_file(std::string(BENCHPR_TEST_DATA_DIR) + "/live-rounds/" + name + ".json"));
}

const BenchmarkAnalysis& named(const Analysis& a, const std::string& name) {
  for (const BenchmarkAnalysis& b : a.benchmarks)
    if (b.name == name) return b;
  throw std::runtime_error("no benchmark " + name);
}

bool has_flag(const BenchmarkAnalysis& b, BenchmarkFlag flag) {
  for (const BenchmarkFlag f : b.flags)
    if (f == flag) return true;
  return false;
}

// Spinners on every core for the whole comparison, the defaults (metric: auto), 10 rounds.
TEST(LiveRoundsReplay, BusyMachineKnownEffectsFoundAndUnchangedNeverCalled) {
  const Results results = captured("busy_machine_known_effects");
  const Analysis a = analyse_session(results);
  // metric: auto chose CPU time for every series, as it must on a busy machine.
  for (const BenchmarkSeries& s : results.series) EXPECT_EQ(s.metric, "cpu_time") << s.name;
  // Every analysed round was busy: the comment says so (measurement_notes' busy note).
  const std::vector<RoundLoad> loads = round_loads(results);
  ASSERT_FALSE(loads.empty());
  for (const RoundLoad& l : loads) EXPECT_TRUE(round_busy(l)) << "round " << l.number;
  // +10% a regression, -20% an improvement.
  EXPECT_EQ(named(a, "BM_Plus10").verdict, Verdict::Regression);
  EXPECT_EQ(named(a, "BM_Minus20").verdict, Verdict::Improvement);
  // +3%: anything but faster.
  EXPECT_NE(named(a, "BM_Plus3").verdict, Verdict::Improvement);
  EXPECT_NE(named(a, "BM_Plus3").verdict, Verdict::Faster);
  // Untouched: never a label that blocks or recommends a merge, nor a small change at the
  // threshold.
  for (const char* name : {"BM_SameA", "BM_SameB", "BM_SameC"}) {
    const BenchmarkAnalysis& b = named(a, name);
    EXPECT_NE(b.verdict, Verdict::Regression) << name;
    EXPECT_NE(b.verdict, Verdict::Improvement) << name;
    if (b.verdict == Verdict::Slower || b.verdict == Verdict::Faster) {
      EXPECT_LT(std::fabs(b.change), 0.02) << name;
    }
  }
  // Contention must not read as waiting.
  for (const BenchmarkAnalysis& b : a.benchmarks)
    EXPECT_FALSE(has_flag(b, BenchmarkFlag::Waiting)) << b.name;
}

// A load switching on and off every 5 s, CPU time, adaptive looks within a 2-minute budget: one
// comparison per seed the live test ran. The unchanged benchmarks are never called; +10% is
// found slower at least.
TEST(LiveRoundsReplay, NoisyMachineTenPercentFoundAndUnchangedNeverFlagged) {
  for (const char* seed : {"7", "8"}) {
    SCOPED_TRACE(seed);
    const Analysis a = analyse_session(captured(std::string("noisy_machine_seed_") + seed));
    for (const char* name : {"BM_SameA", "BM_SameB"}) {
      EXPECT_NE(named(a, name).verdict, Verdict::Regression) << name;
      EXPECT_NE(named(a, name).verdict, Verdict::Improvement) << name;
    }
    const Verdict slowed = named(a, "BM_Slowed").verdict;
    EXPECT_TRUE(slowed == Verdict::Regression || slowed == Verdict::Slower) << to_string(slowed);
  }
}

// A PR that only adds sleep to one benchmark, with spinners on every core: it alone gets the
// waiting flag, and every round was busy.
TEST(LiveRoundsReplay, AddedSleepBesideSpinnersIsFlaggedWaiting) {
  const Results results = captured("busy_machine_added_sleep");
  const Analysis a = analyse_session(results);
  for (const RoundLoad& l : round_loads(results)) EXPECT_TRUE(round_busy(l)) << l.number;
  EXPECT_TRUE(has_flag(named(a, "BM_Sleep"), BenchmarkFlag::Waiting));
  for (const char* name : {"BM_SameA", "BM_SameB", "BM_SameC"})
    EXPECT_FALSE(has_flag(named(a, name), BenchmarkFlag::Waiting)) << name;
}

}  // namespace
}  // namespace benchpr
