#include "benchpr/core/plan/time_plan.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "benchpr/core/base/duration.hpp"

namespace benchpr {

namespace {

double sized_part(const SuiteCost& s, double min_time, int repetitions) {
  return s.benchmarks * repetitions * kMinTimeCost * min_time;
}

double run_seconds(const SuiteCost& s, double min_time, int repetitions) {
  if (!s.sized) return s.run_seconds;
  const double warmup_sized = sized_part(s, s.min_time, std::max(1, s.repetitions));
  if (s.cpu_seconds > 0 && s.cpu_seconds < s.run_seconds) {
    const double share = s.cpu_seconds / s.run_seconds;
    const double fixed_cpu = std::max(0.0, s.cpu_seconds - warmup_sized);
    return (fixed_cpu + sized_part(s, min_time, repetitions)) / share;
  }
  const double fixed = std::max(0.0, s.run_seconds - warmup_sized);
  return fixed + sized_part(s, min_time, repetitions);
}

std::string min_time_text(double m) { return fmt::format("{:g}s", m); }

}  // namespace

double round_seconds(const std::vector<SuiteCost>& suites, double min_time, int repetitions) {
  double total = 0;
  for (const SuiteCost& s : suites) total += 2 * run_seconds(s, min_time, repetitions);
  return total;
}

std::string describe_time_plan(const TimePlan& p, bool sized) {
  const double left = std::max(0.0, p.budget_seconds - p.spent_before);
  const double total = p.rounds * p.round_seconds;
  const std::string min_time =
      sized ? fmt::format(" at --benchmark_min_time={}", min_time_text(p.min_time_seconds)) : "";
  if (p.fits) {
    return fmt::format("plan: {} rounds of about {} each{}, done in about {} ({} spent, budget {})",
                       p.rounds, format_duration(p.round_seconds), min_time, format_duration(total),
                       format_duration(p.spent_before), format_duration(p.budget_seconds));
  }
  const int could = p.round_seconds > 0 ? static_cast<int>(left / p.round_seconds) : 0;
  const double needed = p.spent_before + p.rounds * p.round_seconds;
  return fmt::format(
      "plan: even {} rounds{} (about {} each) overrun the budget of {}: {} is left, which "
      "fits {}; running {} rounds anyway, done in about {} (set budget: {} or more, or "
      "fewer suites)",
      p.rounds, min_time, format_duration(p.round_seconds), format_duration(p.budget_seconds),
      format_duration(left), could == 1 ? std::string("1 round") : fmt::format("{} rounds", could),
      p.rounds, format_duration(total), format_duration(std::ceil(needed / 60) * 60));
}

TimePlan plan_time(const TimePlanInput& in) {
  TimePlan p;
  p.budget_seconds = in.budget_seconds;
  p.spent_before = in.spent_seconds;
  p.repetitions = std::max(1, in.repetitions);
  const bool any_sized =
      std::any_of(in.suites.begin(), in.suites.end(), [](const SuiteCost& s) { return s.sized; });
  const double left = std::max(0.0, in.budget_seconds - in.spent_seconds);
  const int step = std::max(2, in.rounds_step + in.rounds_step % 2);
  const int wanted = std::max(step, (in.rounds + step - 1) / step * step);
  const int fewest = (kMinRounds + step - 1) / step * step;

  auto fits = [&](double m, int rounds) {
    return rounds * round_seconds(in.suites, m, p.repetitions) <= left;
  };
  // Shortest first: the configured rounds at the planned min time, then a shorter min time.
  std::vector<double> min_times = {kPlannedMinTime};
  if (any_sized) {
    for (double m : {0.02, kShortestMinTime}) min_times.push_back(m);
  }
  p.rounds = wanted;
  p.min_time_seconds = any_sized ? kPlannedMinTime : 0;
  bool found = false;
  for (double m : min_times) {
    if (fits(m, wanted)) {
      p.min_time_seconds = any_sized ? m : 0;
      found = true;
      break;
    }
  }
  const double shortest = any_sized ? kShortestMinTime : 0;
  if (!found && !in.rounds_fixed) {
    const double per_round = round_seconds(in.suites, shortest, p.repetitions);
    const int affordable =
        per_round > 0 ? static_cast<int>(left / per_round) / step * step : wanted;
    p.min_time_seconds = shortest;
    p.rounds = std::clamp(affordable, fewest, wanted);
    found = affordable >= fewest;
  } else if (!found) {
    p.min_time_seconds = shortest;
  }
  p.fits = found;
  p.round_seconds =
      round_seconds(in.suites, any_sized ? p.min_time_seconds : kPlannedMinTime, p.repetitions);
  p.summary = describe_time_plan(p, any_sized);
  return p;
}

}  // namespace benchpr
