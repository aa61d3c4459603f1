#include "support/golden.hpp"

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <vector>

#include <gtest/gtest.h>

#include "support/markdown_check.hpp"

namespace benchpr::testing {

namespace {

std::string read_if_present(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// A reproducible uniform number in [-1, 1) (an LCG, so every platform gets the same rounds).
struct Noise {
  std::uint64_t state;
  double next() {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return static_cast<double>(state >> 11) / static_cast<double>(1ULL << 52) - 1.0;
  }
};

}  // namespace

void expect_golden(const std::string& name, const std::string& actual) {
  const std::string path = std::string(BENCHPR_GOLDEN_DIR) + "/" + name;
  const char* update = std::getenv("BENCHPR_UPDATE_GOLDEN");
  if (update != nullptr && std::string(update) == "1") {
    std::ofstream(path, std::ios::binary) << actual;
    return;
  }
  const std::string expected = read_if_present(path);
  ASSERT_FALSE(expected.empty()) << path << " is missing; run with BENCHPR_UPDATE_GOLDEN=1";
  EXPECT_EQ(actual, expected) << "rendered output differs from " << path;
}

void expect_golden_comment(const std::string& name, const std::string& markdown) {
  const std::vector<std::string> problems = markdown_problems(markdown);
  std::string listed;
  for (const std::string& p : problems) listed += "\n  " + p;
  EXPECT_TRUE(problems.empty()) << name << " has injected or broken markup:" << listed;
  expect_golden(name, markdown);
}

Results golden_session(int rounds) {
  static constexpr Side kFirsts[] = {Side::Base, Side::Head, Side::Head, Side::Base, Side::Base,
                                     Side::Head, Side::Head, Side::Base, Side::Base, Side::Head};
  Results r;
  r.tool_version = "0.1.0";
  r.base = {"main", "abc1234def5678abc1234def5678abc1234def56", "Merge pull request #41"};
  r.head = {"refs/pull/42/head", "def5678abc1234def5678abc1234def5678abc12", "Batch TLS input"};
  r.machine = {"AMD EPYC 7763 64-Core Processor", 2, "6.1.0-18-amd64", "g++ 12.2.0"};
  r.config.threshold = 0.02;
  r.config.rounds = rounds;
  r.plan.push_back({0, true, Side::Base});
  for (int i = 0; i < rounds; ++i) r.plan.push_back({i + 1, false, kFirsts[i % 10]});
  r.rounds_done = rounds + 1;
  r.complete = true;
  r.stop = {StopKind::PlanDone, 10, {}};
  r.measuring_seconds = 300;
  return r;
}

BenchmarkSeries simulated_series(const Results& session, const SimulatedBenchmark& b) {
  BenchmarkSeries s;
  s.suite = b.suite;
  s.name = b.name;
  s.unit = b.unit;
  s.better = b.better;
  Noise n{b.seed};
  for (std::size_t i = 0; i < session.plan.size(); ++i) {
    const double level = b.level * (1 + b.drift * static_cast<double>(i));
    const bool head_second = session.plan[i].head_second();
    const double order = head_second ? 1 + b.order_effect : 1;
    const double base_position = head_second ? 1 : 1 + b.position_effect;
    const double head_position = head_second ? 1 + b.position_effect : 1;
    s.base.push_back(level * base_position * (1 + b.noise * n.next()));
    s.head.push_back(level * (1 + b.effect) * order * head_position * (1 + b.noise * n.next()));
  }
  return s;
}

Results known_effects_session(int extra) {
  Results r = golden_session(10);
  r.base.subject = "Merge <b>#41</b>";
  std::uint64_t seed = 1;
  auto add = [&](std::string name, double level, double effect, std::string unit = "ns",
                 Better better = Better::Lower) {
    r.series.push_back(simulated_series(r, {.name = std::move(name),
                                            .level = level,
                                            .effect = effect,
                                            .noise = 0.004,
                                            .seed = seed++,
                                            .unit = std::move(unit),
                                            .better = better}));
  };
  add("BM_Tls/4096", 45100, 0.075);
  add("BM_Copy/65536", 1.63e6, -0.69);
  add("BM_Same", 812, 0);
  add("<img src=x onerror=alert(1)> | @octocat", 100, 0);
  add("Tls.roundTrip:payload=256", 126, -0.10, "ops/ms", Better::Higher);
  for (int i = 0; i < extra; ++i) add("BM_Extra/" + std::to_string(i), 100, 0);
  BenchmarkSeries failed;
  failed.suite = "core";
  failed.name = "BM_Crash";
  failed.unit = "ns";
  failed.base.assign(r.plan.size(), 500);
  failed.head.assign(r.plan.size(), kMissing);
  failed.head_failure = "killed by signal 11 (SIGSEGV)";
  r.series.push_back(failed);
  return r;
}

}  // namespace benchpr::testing
