// The round design on measured variance components (docs/method.md, "Rounds designed from the
// noise that is there"): reads what bench/variance_study.py measured (--json) and prints, for
// every candidate min time and repetition count, what a round costs, how many rounds the budget
// affords, and the precision of the mean change they give, with the design benchpr chooses
// (core/plan/round_design) marked. Deterministic arithmetic, no simulation.
//
//   round_design_study components.json [--seconds 600] [--horizon 100]
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "benchpr/core/plan/round_design.hpp"

namespace {

using benchpr::BenchmarkNoise;
using benchpr::RoundDesign;
using benchpr::RoundDesignInput;
using benchpr::SuiteCost;

struct Components {
  std::vector<BenchmarkNoise> noise;
  SuiteCost measured;  // a process at 0.05 s as the study ran it
};

Components read_components(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot read " + path);
  const nlohmann::json doc = nlohmann::json::parse(in);
  Components c;
  for (const auto& b : doc.at("benchmarks")) {
    BenchmarkNoise n;
    double between = 0;
    int count = 0;
    for (const auto& p : b.at("per_min_time")) {
      between += p.at("between").get<double>();
      ++count;
      if (std::abs(p.at("min_time").get<double>() - benchpr::kReferenceMinTime) < 1e-9)
        n.within = p.at("within").get<double>();
    }
    n.between = count > 0 ? between / count : benchpr::kMissing;  // pooled over min times
    c.noise.push_back(n);
  }
  for (const auto& cost : doc.at("costs")) {
    if (std::abs(cost.at("min_time").get<double>() - benchpr::kReferenceMinTime) > 1e-9) continue;
    c.measured = {"cctz",
                  cost.at("wall").get<double>(),
                  true,
                  static_cast<int>(c.noise.size()),
                  benchpr::kReferenceMinTime,
                  doc.at("repetitions").get<int>(),
                  cost.at("cpu").get<double>()};
  }
  return c;
}

void print_table(const std::string& title, const Components& c, const SuiteCost& suite,
                 double seconds, int horizon) {
  RoundDesignInput in;
  in.benchmarks = c.noise;
  in.suites = {suite};
  in.seconds_left = seconds;
  in.max_rounds = horizon;
  in.min_rounds = 10;
  in.current.min_time = benchpr::kPlannedMinTime;
  in.current.repetitions = 3;
  const RoundDesign chosen = benchpr::choose_round_design(in);
  RoundDesignInput today = in;
  today.min_times = {benchpr::kPlannedMinTime};
  today.repetitions = {3};
  const RoundDesign before = benchpr::choose_round_design(today);
  fmt::print("#### {}\n\n", title);
  fmt::print(
      "| min time × repetitions | a round (both sides) | rounds in {:.0f} s (at most {}) | SD of "
      "one "
      "round's change | SE of the mean change | variance against 0.05 s × 3 |\n",
      seconds, horizon);
  fmt::print("|:--|--:|--:|--:|--:|--:|\n");
  for (double m : in.min_times) {
    for (int r : in.repetitions) {
      RoundDesignInput one = in;
      one.min_times = {m};
      one.repetitions = {r};
      one.current.min_time = m;
      one.current.repetitions = r;
      const RoundDesign d = benchpr::choose_round_design(one);
      if (d.rounds < 2) {
        fmt::print("| {:g} s × {} | {:.1f} s | {} | | | |\n", m, r, d.round_seconds, d.rounds);
        continue;
      }
      const double per_round = d.variance * d.rounds;
      const bool mark = m == chosen.min_time && r == chosen.repetitions;
      fmt::print("| {}{:g} s × {}{} | {:.1f} s | {} | {:.1f}% | {:.2f}% | {:.2f} |\n",
                 mark ? "**" : "", m, r, mark ? "** (chosen)" : "", d.round_seconds, d.rounds,
                 100 * std::sqrt(per_round), 100 * std::sqrt(d.variance),
                 d.variance / before.variance);
    }
  }
  fmt::print("\n");
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: round_design_study COMPONENTS.json [--seconds S] [--horizon N]\n");
    return 2;
  }
  double seconds = 600;
  int horizon = 100;
  for (int i = 2; i + 1 < argc; i += 2) {
    const std::string arg = argv[i];
    if (arg == "--seconds") seconds = std::atof(argv[i + 1]);
    if (arg == "--horizon") horizon = std::atoi(argv[i + 1]);
  }
  try {
    const Components c = read_components(argv[1]);
    fmt::print("{} benchmarks; per round: geometric mean over the benchmarks\n\n", c.noise.size());
    print_table(fmt::format("As measured: a process got {:.0f}% of a CPU",
                            100 * c.measured.cpu_seconds / c.measured.run_seconds),
                c, c.measured, seconds, horizon);
    SuiteCost alone = c.measured;  // the same work on a CPU of its own: wall time = CPU time
    alone.run_seconds = alone.cpu_seconds;
    alone.cpu_seconds = 0;
    print_table("The same noise on a CPU of its own", c, alone, seconds, horizon);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "round_design_study: %s\n", e.what());
    return 1;
  }
  return 0;
}
