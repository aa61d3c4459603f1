// The Results a Session starts from in the runner's tests: both revisions' SHAs, `make` as the
// build, one Google Benchmark suite "micro" run as ./bench_bin, and the plan of `rounds` analysed
// rounds after one warm-up round.
#pragma once

#include <cstdint>
#include <string>

#include "benchpr/core/model/model.hpp"
#include "benchpr/core/plan/schedule.hpp"

namespace benchpr::testing {

inline Results one_suite_session(int rounds, std::uint64_t seed = 3) {
  Results results;
  results.base.sha = std::string(40, 'a');
  results.head.sha = std::string(40, 'b');
  results.config.build = "make";
  results.config.rounds = rounds;
  results.config.warmup_rounds = 1;
  results.config.suites = {{"micro", "./bench_bin", FormatKind::GoogleBenchmark, {}, "", {}, 0}};
  results.seed = seed;
  results.plan = make_schedule(rounds, 1, seed);
  return results;
}

}  // namespace benchpr::testing
