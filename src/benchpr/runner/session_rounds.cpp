// The rounds and their plan: the fixed design (warm-up, the time plan sizing the rest), the
// adaptive one (looks while the budget lasts, only the open benchmarks after each), and the
// rounds themselves, each running every suite for both sides in the planned order. What each
// round runs and at which design is the round designer's (runner/round_designer.hpp).
#include <algorithm>
#include <array>
#include <cmath>
#include <utility>

#include <fmt/format.h>

#include "benchpr/core/adaptive/adaptive.hpp"
#include "benchpr/core/adaptive/adaptive_step.hpp"
#include "benchpr/core/adaptive/session_analysis.hpp"
#include "benchpr/core/adaptive/undecided.hpp"
#include "benchpr/core/base/duration.hpp"
#include "benchpr/core/evidence/instruction_analysis.hpp"
#include "benchpr/core/model/placement_rotation.hpp"
#include "benchpr/core/plan/schedule.hpp"
#include "benchpr/core/plan/time_plan.hpp"
#include "benchpr/core/wording/wording.hpp"
#include "benchpr/runner/session.hpp"
#include "benchpr/runner/session_words.hpp"

namespace benchpr::runner {

using namespace session_detail;

namespace {

int analysed_index_to_plan(const Results& r, int analysed) {
  return r.config.warmup_rounds + analysed;
}

// Seconds the builds took (both sides run in parallel or in turn; their sum is what they cost).
double build_seconds(const Results& results) {
  double total = 0;
  for (const BuildResult& b : results.builds) total += b.seconds;
  return total;
}

}  // namespace

bool Session::run_planned(Results& results) {
  const int warmups = warmup_rounds(results.plan);
  const int from = resume_from_;
  const int all = static_cast<int>(results.plan.size());
  if (setup_.budget_seconds <= 0 || warmups == 0)
    return run_rounds(results, from, all) != RoundsEnd::Interrupted;
  if (from < warmups) {
    if (run_rounds(results, from, warmups) == RoundsEnd::Interrupted) return false;
    make_time_plan(results, warmups);
  }
  return run_rounds(results, std::max(from, warmups), all) != RoundsEnd::Interrupted;
}

RoundDesign Session::redesign_rounds(const Results& results, std::vector<SuiteCost> costs,
                                     const std::vector<BenchmarkKey>* open, double seconds_left,
                                     int max_rounds, int min_rounds) {
  const Redesign design =
      designer_.redesign(results, std::move(costs), open, seconds_left, max_rounds, min_rounds);
  if (design.change) progress_(*design.change);
  return design.chosen;
}

void Session::make_time_plan(Results& results, int warmup_rounds) {
  TimePlanInput in;
  // The fixed plan's budget, or the adaptive one's (whose first look these rounds become).
  in.budget_seconds = setup_.budget_seconds > 0
                          ? setup_.budget_seconds
                          : results.config.budget_seconds.value_or(kDefaultBudgetSeconds);
  in.spent_seconds = now_seconds() - started_;
  in.rounds = results.config.rounds;
  in.rounds_fixed = setup_.rounds_fixed;
  in.rounds_step = whole_placement_cycles(1, results.placement_shifts.size());
  in.repetitions = designer_.repetitions(results.config);
  in.suites = designer_.measured_costs(results, 0, warmup_rounds);
  TimePlan plan = plan_time(in);
  if (plan.min_time_seconds > 0) designer_.set_min_time(plan.min_time_seconds);
  if (results.config.budget_seconds && plan.fits && designer_.min_time() > 0) {
    // Adaptive: the rounds' min time and repetitions from the warm-up's within-process noise and
    // costs (the between-process noise is the prior until the first look measures it).
    const int first_look = round_up_even(std::max(plan.rounds, 2));
    const RoundDesign design =
        redesign_rounds(results, in.suites, nullptr, in.budget_seconds - in.spent_seconds,
                        kHorizonInFirstLooks * first_look, first_look);
    plan.min_time_seconds = design.min_time;
    plan.repetitions = design.repetitions;
    if (design.round_seconds > 0) plan.round_seconds = design.round_seconds;
    // Stated after the design, at the min time and cost the rounds will have.
    plan.summary = describe_time_plan(plan, true);
  }
  progress_(plan.summary);
  if (plan.rounds != results.config.rounds) {
    // Same seed: the warm-up and the first blocks are those of the configured schedule.
    results.plan = make_schedule(plan.rounds, warmup_rounds, results.seed);
    results.config.rounds = plan.rounds;
  }
  results.time_plan = std::move(plan);
}

Session::RoundsEnd Session::run_rounds(Results& results, int from, int to, double deadline) {
  const int total = std::min(to, static_cast<int>(results.plan.size()));
  // One numbering with the comment's: warm-up rounds apart, analysed rounds from 1 to the plan's
  // count; the time left is estimated from every round run so far, the warm-up included.
  const int warmups = warmup_rounds(results.plan);
  const int analysed = static_cast<int>(results.plan.size()) - warmups;
  for (int i = from; i < total; ++i) {
    const RoundPlan& round = results.plan[static_cast<std::size_t>(i)];
    const double round_started = now_seconds();
    // A deadline ends the rounds before an AB/BA block that would not fit (at the mean time of
    // the rounds so far), so the budget is kept and the orders stay balanced.
    if (block_would_overrun(round, i, warmups, {rounds_run_, rounds_seconds_}, round_started,
                            deadline))
      return RoundsEnd::Cut;
    const int left = static_cast<int>(results.plan.size()) - i;
    const bool adaptive = results.config.budget_seconds.has_value();
    // Adaptive: the plan ends at the next look, and the budget (not the plan) says when it ends.
    const std::string eta = rounds_run_ > 0
                                ? fmt::format(", about {} left{}",
                                              format_duration(rounds_seconds_ / rounds_run_ * left),
                                              adaptive ? " to the next look" : "")
                                : "";
    const std::string label =
        round.warmup ? fmt::format("warm-up round {} of {}", i + 1, warmups)
        : adaptive   ? fmt::format("round {} (next look after {})", i - warmups + 1, analysed)
                     : fmt::format("round {} of {}", i - warmups + 1, analysed);
    progress_(fmt::format("{} ({} first), elapsed {}{}", label, side_name(round.first),
                          format_duration(now_seconds() - started_), eta));
    const std::array<Side, 2> order = sides_in_order(round);
    // Fresh copies of both sides' executables for every round: nothing fixed per file can
    // stay with one side for the whole comparison. Under the placement control, the round's
    // placement: each AB/BA block runs one (core/plan/schedule.hpp).
    if (files_)
      files_->begin_round(
          placement_slot_of_round(results.plan, round.index, results.placement_shifts.size()));
    for (const SuiteConfig* suite : suites_of_round(results.config, skipped_suites_)) {
      for (int pos = 0; pos < 2 && !exec::interrupt_requested(); ++pos) {
        run_suite(results, round, *suite, order[static_cast<std::size_t>(pos)], pos);
      }
    }
    if (files_) files_->end_round();
    if (exec::interrupt_requested()) {
      mark_interrupted(results, i);
      finish_failures(results);
      persist(results);
      return RoundsEnd::Interrupted;
    }
    results.rounds_done = i + 1;
    results.measuring_seconds = now_seconds() - started_;
    rounds_seconds_ += now_seconds() - round_started;
    // benchpr's own time around the round's processes (copies, checks), for the round design.
    double processes = 0;
    for (auto r = results.runs.rbegin(); r != results.runs.rend() && r->round == i; ++r)
      processes += r->seconds;
    designer_.round_ran(round, i, designer_.repetitions(results.config),
                        std::max(0.0, now_seconds() - round_started - processes));
    ++rounds_run_;
    persist(results, false);
  }
  return RoundsEnd::Done;
}

void Session::run_adaptive(Results& results) {
  const int warmup = results.config.warmup_rounds;
  int done = resume_from_;
  if (warmup > 0 && done < warmup) {
    // (A resumed session past its warm-up keeps the file's plan and looks: same seed, same
    // rounds, same levels.) The warm-up prices a round; the time plan then sizes the first look
    // (its rounds and min time) to the budget left after the builds.
    results.plan = make_schedule(results.config.rounds, warmup, results.seed);
    if (run_rounds(results, done, warmup) == RoundsEnd::Interrupted) return;
    make_time_plan(results, warmup);
    done = warmup;
  }
  const double budget = *results.config.budget_seconds;
  const double deadline = started_ + budget;
  // Looks every `step` analysed rounds (the time plan's rounds, the first look) while the
  // budget lasts, up to the horizon; past it, when the first look found the budget long enough,
  // on the share of α kept for it, each look a quarter again the rounds done, up to
  // kMostLookedRounds. The rule is the core's (core/adaptive/adaptive_step.hpp): the method study
  // measures this same rule.
  const StoppingRule rule = StoppingRule::every(round_up_even(std::max(results.config.rounds, 2)));
  // The benchmarks the rounds time (instruction counts are not measured in rounds).
  const int timed = static_cast<int>(
      std::count_if(results.series.begin(), results.series.end(),
                    [](const BenchmarkSeries& s) { return !is_instruction_series(s); }));
  // What a round costs: the time plan's estimate of a whole round at first, then the last
  // block's measured rounds.
  RoundPrice price =
      RoundPrice::measured(results.time_plan && results.time_plan->round_seconds > 0
                               ? results.time_plan->round_seconds
                               : (rounds_run_ > 0 ? rounds_seconds_ / rounds_run_ : NAN),
                           timed, timed, kFixedRoundShare);
  int open = timed;
  progress_(fmt::format(
      "plan: {} warm-up round(s), then a look every {} rounds (α spent {} over the rounds the "
      "budget allows); after each, only the benchmarks still open go on, until all are decided, "
      "the {} budget is spent or {} rounds are reached ({:.0f}% of α kept for looks past them "
      "when the budget affords more, up to {} rounds)",
      warmup, rule.step, to_string(rule.policy.significance), format_duration(budget), rule.horizon,
      100 * rule.policy.late_share, std::max(rule.horizon, rule.most_rounds)));
  for (std::size_t k = 0;; ++k) {
    if (k >= results.looks.size()) {
      const int analysed_done = k == 0 ? 0 : results.looks[k - 1].rounds;
      const LookPlan next =
          plan_look(rule, results.looks, analysed_done, deadline - now_seconds(), price, open);
      if (!next.look) {
        results.complete = true;
        results.stop = next.stop_reason;
        break;
      }
      results.looks.push_back(*next.look);
      // Same seed: the rounds already run keep their order, the new ones extend it.
      results.plan = make_schedule(next.look->rounds, warmup, results.seed);
    }
    const LookRecord& look = results.looks[k];
    const int to = analysed_index_to_plan(results, look.rounds);
    const double t0 = now_seconds();
    const int from = done;
    // Looks a resumed session already passed are read again (they name the open benchmarks).
    const RoundsEnd ended = to > done ? run_rounds(results, done, to, deadline) : RoundsEnd::Done;
    if (ended == RoundsEnd::Interrupted) return;
    const bool cut = ended == RoundsEnd::Cut;
    done = std::max(done, results.rounds_done);
    const double look_started = now_seconds();
    const AdaptivePlan plan = plan_of(results);
    // On the values the comment will show (core/adaptive/session_analysis.hpp, as_compared).
    const LookReadings r = read_looks(as_compared(results), plan, static_cast<int>(k));
    looks_seconds_ += now_seconds() - look_started;
    if (done > from)
      price =
          RoundPrice::measured((look_started - t0) / (done - from), open, timed, kFixedRoundShare);
    const LookStep step =
        step_after_look(rule, results.looks, r, cut, deadline - now_seconds(), price);
    const int still = static_cast<int>(step.open.size());
    const double spent = now_seconds() - started_;
    const std::string line = fmt::format(
        "look {} after {} rounds (α {:.2g}%, unchanged at {} CI; information {:.0f}%): {} "
        "decided, {} still open{}; spent {} of {} (builds {}, instruction counts {}, rounds {}, "
        "looks {}): {}",
        k + 1, r.rounds, 100 * look.alpha, format_level(1 - 2 * look.equivalence_alpha),
        100 * look.information, r.decided_per_look.empty() ? 0 : r.decided_per_look.back(), still,
        step.unsettled > 0
            ? fmt::format(" ({} of them cannot settle in the rounds left)", step.unsettled)
            : "",
        format_duration(spent), format_duration(budget), format_duration(build_seconds(results)),
        format_duration(counting_seconds(results)), format_duration(rounds_seconds_),
        format_duration(looks_seconds_), step.outcome);
    progress_(line);
    if (step.stop) {
      results.complete = true;
      results.stop = step.stop_reason;
      break;
    }
    std::vector<BenchmarkKey> runnable;
    for (std::size_t i : step.runnable)
      runnable.push_back({results.series[i].suite, results.series[i].name});
    open = static_cast<int>(runnable.size());
    // The round design prices the open benchmarks' rounds on the last block's processes and
    // chooses the next rounds' min time and repetitions from the noise measured so far.
    const int last_round = rule.last_round(results.looks);
    if (done > from && designer_.min_time() > 0 && last_round - look.rounds >= 2) {
      // The next look takes what the budget affords at the chosen design (plan_look), so the
      // design need only leave room for one block.
      const RoundDesign design =
          redesign_rounds(results, designer_.measured_costs(results, from, done), &runnable,
                          deadline - now_seconds(), last_round - look.rounds, 2);
      if (design.round_seconds > 0)
        price = RoundPrice::measured(design.round_seconds, open, timed, kFixedRoundShare);
      // The file holds the design in force, so a resumed session runs its rounds the same way.
      if (results.time_plan) {
        results.time_plan->min_time_seconds = designer_.min_time();
        results.time_plan->repetitions = designer_.repetitions(results.config);
      }
    }
    // Later rounds run only the benchmarks still open (a filter for Google Benchmark suites;
    // other formats run whole and their decided benchmarks' new values are ignored).
    open_ = open_after_look(results.config, runnable);
  }
  // The schedule ends where the rounds did: no "of N planned" for rounds the budget never had.
  if (static_cast<int>(results.plan.size()) > results.rounds_done)
    results.plan.resize(static_cast<std::size_t>(results.rounds_done));
}

}  // namespace benchpr::runner
