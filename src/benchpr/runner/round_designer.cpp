#include "benchpr/runner/round_designer.hpp"

#include <algorithm>
#include <cmath>

#include "benchpr/core/base/series_key.hpp"

namespace benchpr::runner {

std::array<Side, 2> sides_in_order(const RoundPlan& round) {
  return {round.first, round.first == Side::Base ? Side::Head : Side::Base};
}

int warmup_rounds(const std::vector<RoundPlan>& plan) {
  int warmups = 0;
  for (const RoundPlan& p : plan) warmups += p.warmup ? 1 : 0;
  return warmups;
}

std::vector<const SuiteConfig*> suites_of_round(const Config& config,
                                                const std::set<std::string>& skipped) {
  std::vector<const SuiteConfig*> suites;
  for (const SuiteConfig& suite : config.suites) {
    if (!Config::measures_time(suite)) continue;
    if (skipped.count(suite.name)) continue;
    suites.push_back(&suite);
  }
  return suites;
}

bool block_would_overrun(const RoundPlan& round, int index, int warmups, RoundsSoFar so_far,
                         double now, double deadline) {
  return deadline > 0 && !round.warmup && (index - warmups) % 2 == 0 && so_far.run > 0 &&
         now + 2 * so_far.seconds / so_far.run > deadline;
}

std::map<std::string, std::vector<std::string>> open_after_look(
    const Config& config, const std::vector<BenchmarkKey>& runnable) {
  std::map<std::string, std::vector<std::string>> open;
  for (const SuiteConfig& s : config.suites) open[s.name];
  for (const BenchmarkKey& key : runnable) open[key.suite].push_back(key.name);
  return open;
}

void RoundDesigner::resume(const Config& config, const std::optional<TimePlan>& plan) {
  if (!plan || plan->min_time_seconds <= 0) return;
  min_time_ = plan->min_time_seconds;
  if (config.budget_seconds && plan->repetitions > 0) repetitions_ = plan->repetitions;
}

bool RoundDesigner::sizes(const Config& config, const SuiteConfig& suite) const {
  // A min time in the suite's own command or in --bench-args is the user's choice, and a
  // command with an {out} placeholder is the user's own argument list: all are left alone.
  const auto sets_min_time = [](const std::string& s) {
    return s.find("--benchmark_min_time") != std::string::npos;
  };
  return min_time_ > 0 && suite.format == FormatKind::GoogleBenchmark &&
         !sets_min_time(suite.run) && !sets_min_time(config.bench_args) &&
         suite.run.find("{out}") == std::string::npos;
}

void RoundDesigner::note_within(const std::string& suite, const ParsedRun& parsed) {
  for (const Measurement& m : parsed.measurements) {
    if (is_missing(m.repetition_log_variance) || !std::isfinite(m.repetition_log_variance))
      continue;
    auto& [sum, count] = within_[series_key(suite, m.name)];
    sum += m.repetition_log_variance * std::pow(min_time_ / kReferenceMinTime, kWithinExponent);
    ++count;
  }
}

void RoundDesigner::round_ran(const RoundPlan& round, int index, int repetitions,
                              double overhead_seconds) {
  overhead_seconds_ += overhead_seconds;
  if (!round.warmup) rounds_ran_.push_back({index, min_time_, repetitions});
  ++rounds_;
}

std::vector<SuiteCost> RoundDesigner::measured_costs(const Results& results, int from,
                                                     int to) const {
  std::vector<SuiteCost> costs;
  for (const SuiteConfig& suite : results.config.suites) {
    SuiteCost cost;
    cost.suite = suite.name;
    int runs = 0;
    int cpu_runs = 0;
    // The cost of one side's turn, which may be several runs (a selection in groups, a rerun).
    std::set<std::pair<int, Side>> turns;
    for (const RunRecord& r : results.runs) {
      if (r.suite != suite.name || r.round < from || r.round >= to) continue;
      cost.run_seconds += r.seconds;
      ++runs;
      turns.insert({r.round, r.side});
      if (!is_missing(r.cpu_seconds)) {
        cost.cpu_seconds += r.cpu_seconds;
        ++cpu_runs;
      }
    }
    if (runs == 0) continue;
    cost.run_seconds /= static_cast<double>(turns.size());
    // Only when every run has one: a mean over some runs would not match the wall time's.
    cost.cpu_seconds = cpu_runs == runs ? cost.cpu_seconds / static_cast<double>(turns.size()) : 0;
    cost.sized = sizes(results.config, suite);
    cost.min_time = min_time_;
    cost.repetitions = repetitions(results.config);
    for (const BenchmarkSeries& s : results.series) {
      if (s.suite != suite.name) continue;
      const auto last = static_cast<std::size_t>(to - 1);
      const bool seen = (s.base.size() > last && !is_missing(s.base[last])) ||
                        (s.head.size() > last && !is_missing(s.head[last]));
      cost.benchmarks += seen ? 1 : 0;
    }
    costs.push_back(cost);
  }
  return costs;
}

Redesign RoundDesigner::redesign(const Results& results, std::vector<SuiteCost> costs,
                                 const std::vector<BenchmarkKey>* open, double seconds_left,
                                 int max_rounds, int min_rounds) {
  Redesign out;
  if (std::none_of(costs.begin(), costs.end(), [](const SuiteCost& c) { return c.sized; })) {
    out.chosen.min_time = min_time_;
    out.chosen.repetitions = repetitions(results.config);
    out.chosen.round_seconds = 0;
    return out;
  }
  RoundDesignInput in;
  in.seconds_left = seconds_left;
  in.max_rounds = max_rounds;
  in.min_rounds = min_rounds;
  in.current.min_time = min_time_;
  in.current.repetitions = repetitions(results.config);
  in.overhead_seconds_per_round =
      rounds_ > 0 ? overhead_seconds_ / static_cast<double>(rounds_) : 0;
  std::set<std::string> still_open;
  if (open)
    for (const BenchmarkKey& k : *open) still_open.insert(series_key(k.suite, k.name));
  std::map<std::string, int> per_suite;
  for (const BenchmarkSeries& s : results.series) {
    const std::string key = series_key(s.suite, s.name);
    if (open && !still_open.count(key)) continue;
    ++per_suite[s.suite];
    const auto w = within_.find(key);
    const double within = w == within_.end() || w->second.second == 0
                              ? kMissing
                              : w->second.first / static_cast<double>(w->second.second);
    in.benchmarks.push_back(estimate_noise(s, rounds_ran_, within));
  }
  for (SuiteCost& c : costs) {
    if (open) c = for_benchmarks(c, per_suite[c.suite]);
  }
  in.suites = std::move(costs);
  out.chosen = choose_round_design(in);
  RoundDesign current = in.current;
  if (out.chosen.min_time != current.min_time || out.chosen.repetitions != current.repetitions) {
    RoundDesignInput only_current = in;
    only_current.min_times = {current.min_time};
    only_current.repetitions = {current.repetitions};
    current = choose_round_design(only_current);
    out.change = "round design: " + describe_design(out.chosen, current);
  }
  min_time_ = out.chosen.min_time;
  repetitions_ = out.chosen.repetitions;
  return out;
}

}  // namespace benchpr::runner
