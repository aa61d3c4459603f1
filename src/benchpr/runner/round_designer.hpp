// The round designer: what each round of a session runs and how. Which suites a round times and
// which side goes first, when a deadline ends the rounds before an AB/BA block, which benchmarks
// stay open after an adaptive look, and the design the processes run at (the min time benchpr
// appends and the repetitions it asks for, chosen by core/plan/round_design from the noise and
// costs measured so far). Session carries the plan out and tells the designer what the rounds
// showed; nothing here runs a process or touches a file.
#pragma once

#include <array>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "benchpr/core/adaptive/adaptive.hpp"
#include "benchpr/core/model/model.hpp"
#include "benchpr/core/plan/round_design.hpp"
#include "benchpr/core/plan/time_plan.hpp"

namespace benchpr::runner {

// The two sides in the order a round runs them: its first side, then the other.
std::array<Side, 2> sides_in_order(const RoundPlan& round);

// The warm-up rounds of a plan.
int warmup_rounds(const std::vector<RoundPlan>& plan);

// The suites a round times, in the configured order: those measuring time, less `skipped`
// (another shard's, or identical on both sides).
std::vector<const SuiteConfig*> suites_of_round(const Config& config,
                                                const std::set<std::string>& skipped);

// Whether a deadline (a steady-clock time, 0 = none) ends the rounds before round `index` of the
// plan: only an analysed round that starts an AB/BA block, once a round has priced the rest, and
// when two rounds at the mean time so far would end after it. So the budget is kept and the
// orders stay balanced.
struct RoundsSoFar {
  int run = 0;         // rounds run in this session
  double seconds = 0;  // their time
};
bool block_would_overrun(const RoundPlan& round, int index, int warmups, RoundsSoFar so_far,
                         double now, double deadline);

// After an adaptive look: the benchmarks that go on, per suite (every configured suite present,
// empty when none of its benchmarks is open), the selection later rounds run.
std::map<std::string, std::vector<std::string>> open_after_look(
    const Config& config, const std::vector<BenchmarkKey>& runnable);

// A design chosen for the rounds to come, and the line that says it changed (none when it did
// not).
struct Redesign {
  RoundDesign chosen;
  std::optional<std::string> change;
};

class RoundDesigner {
 public:
  // The design in force: the min time benchpr appends (0 = none) and the repetitions it asks
  // for (the config's until a design chose others).
  double min_time() const { return min_time_; }
  int repetitions(const Config& config) const {
    return repetitions_ > 0 ? repetitions_ : config.repetitions;
  }
  void set_min_time(double seconds) { min_time_ = seconds; }
  // A resumed session: the design in force when it stopped (the time plan's, kept at every
  // look); the repetitions only for an adaptive session, which chose them.
  void resume(const Config& config, const std::optional<TimePlan>& plan);

  // Whether benchpr sizes `suite`'s min time: it sets one, the suite is Google Benchmark, and
  // neither the suite's command, --bench-args nor an {out} placeholder left it to the user.
  bool sizes(const Config& config, const SuiteConfig& suite) const;

  // A base-side process's output: each benchmark's within-process variance, read at the min
  // time in force and scaled to the reference min time.
  void note_within(const std::string& suite, const ParsedRun& parsed);
  // A round that ran: the design it ran at (analysed rounds only) and benchpr's own time around
  // its processes.
  void round_ran(const RoundPlan& round, int index, int repetitions, double overhead_seconds);

  // The costs of the processes of rounds [from, to), one side's turn per suite, and what they
  // ran at.
  std::vector<SuiteCost> measured_costs(const Results& results, int from, int to) const;

  // The design for the rounds to come from the noise measured so far (`open`: the benchmarks
  // still open, all when null); adopts it. With no suite benchpr sizes there is nothing to
  // design: the design in force with round_seconds 0 (the caller's estimate of a round stays).
  Redesign redesign(const Results& results, std::vector<SuiteCost> costs,
                    const std::vector<BenchmarkKey>* open, double seconds_left, int max_rounds,
                    int min_rounds);

  // The design every analysed round ran at.
  const std::vector<RoundRan>& rounds_ran() const { return rounds_ran_; }

 private:
  double min_time_ = 0;
  int repetitions_ = 0;
  // Each benchmark's within-process variance at the reference min time, from the base side's
  // runs only (sum and count, by series key).
  std::map<std::string, std::pair<double, int>> within_;
  std::vector<RoundRan> rounds_ran_;
  double overhead_seconds_ = 0;  // benchpr's own time around the rounds' processes
  int rounds_ = 0;               // rounds that time covers
};

}  // namespace benchpr::runner
