// Golden files and the raw rounds they are rendered from. A golden comment is rendered from
// Results through the real analysis (never from a hand-written Analysis, which can claim what
// the statistics would not), compared byte for byte with tests/golden/<name>, and checked for
// injected markup. BENCHPR_UPDATE_GOLDEN=1 rewrites the files instead (then read the diff).
#pragma once

#include <cstdint>
#include <string>

#include "benchpr/core/model/model.hpp"

namespace benchpr::testing {

// Compares `actual` with tests/golden/<name> (or rewrites the file under BENCHPR_UPDATE_GOLDEN=1).
void expect_golden(const std::string& name, const std::string& actual);

// expect_golden for a markdown comment, which must also pass markdown_problems().
void expect_golden_comment(const std::string& name, const std::string& markdown);

// A finished session like the default configuration: one warm-up round, then `rounds` analysed
// rounds in ABBA blocks, 2% threshold, on a named machine.
Results golden_session(int rounds = 10);

// How one benchmark behaves over a session, for simulated_series().
struct SimulatedBenchmark {
  std::string name;
  double level = 100;   // the base's value in the first round
  double effect = 0;    // the PR's value is level × (1 + effect) within each round
  double noise = 0.01;  // relative noise, uniform in ±noise, on each side of each round
  std::uint64_t seed = 1;
  double drift = 0;            // both sides drift by this fraction per round (warming, throttling)
  double order_effect = 0;     // the PR's extra change in rounds where it runs second
  double position_effect = 0;  // either side's extra change when it runs second (no PR effect)
  std::string suite = "core";
  std::string unit = "ns";
  Better better = Better::Lower;
};

// A value per round of `session`'s plan (the warm-up included) for both sides, from a fixed
// pseudo-random sequence (the same numbers on every platform).
BenchmarkSeries simulated_series(const Results& session, const SimulatedBenchmark& b);

// golden_session(10) with known effects, for the reports that draw them: BM_Tls/4096 +7.5% (a
// regression), BM_Copy/65536 -69% (an improvement), Tls.roundTrip:payload=256 10% fewer ops/ms
// (a regression, higher is better), BM_Same and a hostile name unchanged, BM_Crash crashed on
// the PR side, then `extra` unchanged BM_Extra/N. The base's subject holds markup to escape.
Results known_effects_session(int extra = 0);

}  // namespace benchpr::testing
