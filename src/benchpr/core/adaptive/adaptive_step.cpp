#include "benchpr/core/adaptive/adaptive_step.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "benchpr/core/adaptive/undecided.hpp"

namespace benchpr {

double RoundPrice::of(int open) const {
  if (!std::isfinite(full) || !(full > 0) || family <= 0) return NAN;
  return full * (fixed_share + (1 - fixed_share) * std::max(0, open) / family);
}

RoundPrice RoundPrice::measured(double seconds_per_round, int open, int family,
                                double fixed_share) {
  RoundPrice p;
  p.family = std::max(1, family);
  p.fixed_share = fixed_share;
  const double share = fixed_share + (1 - fixed_share) * std::clamp(open, 1, p.family) / p.family;
  p.full =
      std::isfinite(seconds_per_round) && seconds_per_round > 0 ? seconds_per_round / share : NAN;
  return p;
}

StoppingRule StoppingRule::every(int step) {
  StoppingRule r;
  r.step = std::max(2, step + step % 2);
  r.horizon = kHorizonInFirstLooks * r.step;
  return r;
}

int StoppingRule::last_round(const std::vector<LookRecord>& looks) const {
  if (!two_stages) return horizon;
  return !looks.empty() && looks.front().horizon_share < 1 ? std::max(horizon, most_rounds)
                                                           : horizon;
}

LookPlan plan_look(const StoppingRule& rule, const std::vector<LookRecord>& looks,
                   int analysed_done, double seconds_left, const RoundPrice& price, int open) {
  // The most rounds still to read: past the horizon only in a two-stage design (whether this
  // session has two stages is fixed at its first look, by next_look).
  const int most =
      (rule.two_stages ? std::max(rule.horizon, rule.most_rounds) : rule.horizon) - analysed_done;
  const double per_round = price.of(open);
  // Without a price (no warm-up priced a round) the first look counts on the horizon.
  const int affordable =
      std::isfinite(per_round) && per_round > 0
          ? static_cast<int>(std::min<double>(std::max(0.0, seconds_left) / per_round + 1e-9, most))
          : (seconds_left > 0 ? std::min(rule.horizon, most) : 0);
  int reachable = -1;
  if (looks.empty() && rule.two_stages && rule.cheapest_reach)
    reachable = rounds_within_reach(seconds_left, per_round, rule.step, price.family,
                                    price.fixed_share, most);
  LookPlan out;
  out.look = next_look(looks, analysed_done, rule.step, affordable, rule.policy,
                       rule.two_stages ? rule.horizon : 0, reachable);
  if (out.look)
    out.look->keeps_size_open = looks.empty() ? rule.keep_size_open : looks.front().keeps_size_open;
  if (!out.look) {
    const int last = rule.last_round(looks);
    out.stop_reason = analysed_done >= last ? StopReason{StopKind::MostRounds, last, {}}
                                            : StopReason{StopKind::BudgetSpent, 0, {}};
  }
  return out;
}

LookStep step_after_look(const StoppingRule& rule, const std::vector<LookRecord>& looks,
                         const LookReadings& readings, bool cut, double seconds_left,
                         const RoundPrice& price) {
  LookStep out;
  for (std::size_t i = 0; i < readings.decided_at.size(); ++i)
    if (readings.decided_at[i] < 0) out.open.push_back(i);
  const int still = static_cast<int>(out.open.size());
  const int last = rule.last_round(looks);
  // The rounds the budget still affords, each at the price of a round of one benchmark (the
  // others may close): what an open benchmark could still get.
  const double one = price.of(1);
  const double reach =
      std::isfinite(one) && one > 0
          ? std::min<double>(last - readings.rounds, std::max(0.0, seconds_left) / one)
          : last - readings.rounds;
  for (std::size_t i : out.open) {
    if (rule.stop_unsettlable &&
        cannot_settle(readings.benchmarks[i], readings.rounds + static_cast<int>(reach)))
      continue;
    out.runnable.push_back(i);
  }
  out.unsettled = still - static_cast<int>(out.runnable.size());
  const LookRecord* look =
      readings.look >= 0 && static_cast<std::size_t>(readings.look) < looks.size()
          ? &looks[static_cast<std::size_t>(readings.look)]
          : nullptr;
  const double information = look ? look->information : 1.0;
  out.stop = true;
  if (still == 0) {
    out.outcome = "every benchmark is decided";
    out.stop_reason = {StopKind::Decided, readings.rounds, {}};
    return out;
  }
  if (out.runnable.empty() && !cut && !readings.cut_short && information < 1) {
    out.outcome = "stopping";
    out.stop_reason = {StopKind::CannotSettle, still, {}};
    return out;
  }
  if (cut || readings.cut_short || information >= 1) {
    const bool at_horizon = !cut && !readings.cut_short && look && look->rounds >= last;
    out.outcome = at_horizon ? "the most rounds the plan looks at" : "the budget is spent";
    out.stop_reason = at_horizon ? StopReason{StopKind::MostRounds, last, {}}
                                 : StopReason{StopKind::BudgetSpent, 0, {}};
    return out;
  }
  out.stop = false;
  out.outcome = "measuring only those";
  return out;
}

}  // namespace benchpr
