// Adaptive rounds within a time budget: looks every few rounds for as long as the budget lasts,
// each tested at the increment of an α-spending function over the information fraction (rounds
// done over the rounds the budget allows), more rounds only for benchmarks that are still open,
// and a stop when everything is decided or the budget is spent. Each look's levels are fixed
// (and recorded in the results) before its rounds run. Pure: the runner asks at each look and
// runs what it is told; the final reading is replayed from the results alone, so a results file
// always reproduces its comment.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "benchpr/core/model/model.hpp"
#include "benchpr/core/verdicts/analysis.hpp"

namespace benchpr {

// Pre-registered looks. alpha_per_look[k] is the BH q of look k over the whole family of
// benchmarks (those decided earlier count as p = 1, so the open ones are tested at
// q * open / family); the levels sum to the overall alpha, so with no true change anywhere a
// pull request sees any significant change at some look with probability at most alpha.
struct AdaptivePlan {
  std::vector<int> looks;              // analysed rounds at each look: even, increasing
  std::vector<double> alpha_per_look;  // same length as looks
  // The level of "unchanged" at each look; empty: the same as alpha_per_look.
  std::vector<double> equivalence_alpha_per_look;
  // A slowdown whose size is open stays open (LookRecord::keeps_size_open).
  bool keep_size_open = false;
};

// --- α-spending over an open-ended number of looks ----------------------------------------
//
// The share of α spent once a fraction t of the information is in (Lan & DeMets 1983); each
// look is tested at the increment since the previous one, so the levels of all looks add up to
// at most α whatever their number and timing (and a benchmark with no true change is called
// changed at some look with probability at most α).
enum class SpendingRule {
  OBrienFleming,  // 2 − 2Φ(z_{1−α/2} / √t): almost nothing early, most at the end
  Pocock,         // α ln(1 + (e − 1) t): nearly even over the looks
};
double spent_alpha(SpendingRule rule, double information, double alpha);
std::string_view to_string(SpendingRule rule);

// What benchpr spends, chosen by power at equal A/A error in `method_study --spending`
// (docs/method.md, "Adaptive rounds").
// Significance Pocock-type: the most power at +1% and +2% for the same nominal α; "unchanged"
// O'Brien–Fleming-type: it keeps most of its level for the late looks, where the intervals are
// narrow enough to show equivalence, and decides the most benchmarks within the budget.
struct SpendingPolicy {
  SpendingRule significance = SpendingRule::Pocock;
  SpendingRule equivalence = SpendingRule::OBrienFleming;
  double alpha = 0.05;
  double equivalence_alpha = 0.05;
  // The share of both levels kept for looks past the horizon, spent only when the budget at the
  // first look affords the horizon's rounds (a fast suite, a long budget): the looks up to the
  // horizon spend the rest on the same functions, and the later ones this share, on the same
  // functions over the rounds the budget affords past the horizon. Chosen in `method_study
  // --spending` (docs/method.md, "Past the horizon").
  double late_share = 0.2;
  // Past the horizon a look reads this share of the rounds done more (at least a step), so the
  // looks stay few (each is tested at its increment) however long the budget. A quarter decided
  // as much as a half in the study, in 11% fewer rounds.
  double late_growth = 0.25;
  // The spending functions past the horizon. Pocock-type for "unchanged" too: a benchmark still
  // open at the horizon has narrow intervals already, and an O'Brien–Fleming-type share would
  // keep nearly all of its level for the last look the budget allows, so a benchmark that is
  // unchanged would run to the end of the budget (docs/method.md, "Past the horizon").
  SpendingRule late_significance = SpendingRule::Pocock;
  SpendingRule late_equivalence = SpendingRule::Pocock;
};

// The spending of a session in two stages: a share c (LookRecord::horizon_share) of the
// information scale and of α up to the horizon on `rule`, the rest past it on `late_rule`. c = 1
// is one stage.
double spent_alpha(SpendingRule rule, SpendingRule late_rule, double information, double alpha,
                   double horizon_share);

// The next look, given the looks so far, the analysed rounds done, the rounds between looks
// (`step`), the rounds the budget still allows after `rounds_done` at the current cost of a
// round (`affordable`) and the horizon (analysed rounds the first stage looks at; 0: none, the
// budget alone). The next look reads min(step, affordable) more rounds, all of the
// affordable ones when fewer than half a step would be left after it; its information fraction
// moves from the previous look's toward the end of its stage by the share of the stage's
// affordable rounds it uses, so it never decreases however the estimate of what the budget allows
// changes. A look that takes every round the budget affords has all the information (the rest of
// α). The first look fixes the stages: when the budget affords the horizon's rounds, the looks up
// to it spend 1 - late_share of α and the looks past it (every late_growth of the rounds done,
// at least a step) the rest; otherwise the horizon ends the looks with all of α spent. Whether
// the budget affords the horizon is read on `reachable`: the rounds it would afford if the
// cheapest rounds (one benchmark open) followed the first look (-1: `affordable`), since most
// sessions close benchmarks as they go (method_study --horizon, "Two stages on the cheapest
// rounds"). Nothing when fewer than 2 rounds are affordable or the previous look already had all
// the information.
std::optional<LookRecord> next_look(const std::vector<LookRecord>& looks, int rounds_done, int step,
                                    int affordable, const SpendingPolicy& policy = {},
                                    int horizon = 0, int reachable = -1);

// `reachable` for next_look at the first look: the analysed rounds `seconds_left` could buy if
// the first look's `step` rounds cost `per_round` each (a round of every one of `benchmarks`)
// and every later round the cheapest (one benchmark open; `fixed_share` of a round's cost is the
// processes' start, which no closed benchmark saves), at most `most`. -1 without a price.
int rounds_within_reach(double seconds_left, double per_round, int step, int benchmarks,
                        double fixed_share, int most);

// The most analysed rounds the first stage of an adaptive session looks at, in first looks'
// rounds: beyond 10 times the first look's rounds a benchmark's interval has shrunk by √10, and
// spreading all of α over more looks would starve the early ones. A budget that affords more
// goes on past it on the late share (SpendingPolicy::late_share).
inline constexpr int kHorizonInFirstLooks = 10;
// The most analysed rounds any adaptive session looks at: past them a benchmark's noise is what
// keeps it open, not its rounds.
inline constexpr int kMostLookedRounds = 1000;

// The recorded looks as a plan (for replay), or, in a file without them, adaptive_plan_for.
AdaptivePlan plan_of(const Results& results);

// Looks every `first_look_rounds` analysed rounds (rounded up to even, so AB/BA blocks stay
// whole) up to `max_rounds`; the last look lands on max_rounds. The weights decrease linearly
// (K looks: K, K-1, ..., 1, normalised): three looks get 1/2, 1/3 and 1/6 of alpha. Early looks
// carry most of the level because most benchmarks settle there.
AdaptivePlan make_adaptive_plan(int first_look_rounds, int max_rounds, double alpha);

// The plan of results files written before looks were recorded: looks at rounds, 2x and 3x
// rounds, α split 3 : 2 : 1 (weighted Bonferroni).
inline constexpr int kAdaptiveLookCount = 3;
AdaptivePlan adaptive_plan_for(const Config& config, double alpha = 0.05);

// Analysis options for look k (alpha of that look, default power).
AnalysisOptions look_options(const AdaptivePlan& plan, int look_index);

// A benchmark as the runner's filter names it: its suite and its name.
struct BenchmarkKey {
  std::string suite;
  std::string name;
  bool operator==(const BenchmarkKey&) const = default;
};

// A benchmark more rounds would not change: every verdict except inconclusive, and except a
// benchmark that failed only because no analysed round holds a value of it yet (every round so
// far left out as lopsided on a busy machine): it failed nothing, and the next rounds may
// measure it.
bool is_decided(const BenchmarkAnalysis& benchmark);

// A timed benchmark that is `slower` with its estimate at or beyond its threshold: the sign is
// settled, its size is not (regression needs the change shown beyond half the threshold). The
// comment cannot recommend a merge over it ("whether it exceeds the 2.0% threshold is not
// settled: about 18 more rounds would settle it"), so a session that keeps such benchmarks open
// (AdaptivePlan::keep_size_open) spends its rounds on them until they settle, as on an
// inconclusive one, rather than on benchmarks that do not hold the answer back.
bool size_open_slowdown(const BenchmarkAnalysis& benchmark);

// Every look up to `last_look`, replayed from the results alone (so a results file always
// reproduces its comment): each benchmark's reading at the look that decided it, or at the last
// look it was open at. Replaying stops early when nothing is open, or at a look the session did
// not reach (it then reads the rounds done so far, at that look's level, once).
struct LookReadings {
  std::vector<BenchmarkAnalysis> benchmarks;  // per series of the results, in order
  // Per series: the look index that closed it, -1 while still open. An instruction count is
  // closed at the first look whatever it reads (rounds cannot change it).
  std::vector<int> decided_at;
  std::vector<int> decided_per_look;  // per look read: the timed benchmarks it decided
  int look = -1;                      // the last look read
  int rounds = 0;                     // analysed rounds that look saw
  bool cut_short = false;             // it saw fewer rounds than planned
  Analysis last_analysis;             // that look's analysis (of the benchmarks open at it)
};
LookReadings read_looks(const Results& results, const AdaptivePlan& plan, int last_look);

// The final reading of an adaptive session: each benchmark as judged at the look that decided
// it; those still open as judged at the last look reached (or on the rounds done so far, at the
// next look's level, when the session was cut short). Suites, notes and the recommendation are
// computed over these verdicts; a note says how many benchmarks each look decided.
Analysis adaptive_analysis(const Results& results, const AdaptivePlan& plan);

// What the session's time went to, from the results: " Spent 14m52s of the 15m budget: builds
// 2m3s, instruction counts 1m2s, 46 rounds 12m31s, benchpr's own work (copies, looks) 18s." (""
// without a budget or a time).
std::string spending_sentence(const Results& results);

// The wall time the instruction counts took: as the session clocked it (Results::
// counting_seconds: the listings, both sides, the base counted again), or in a file that did
// not record it, from the first Callgrind process's start to the last one's end; 0 without.
double counting_seconds(const Results& results);

}  // namespace benchpr
