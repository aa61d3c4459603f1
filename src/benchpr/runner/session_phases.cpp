// The phases around the rounds: Callgrind's instruction counts before them (so the time plan
// sizes the rounds to what is left); after them, the hot code of benchmarks whose time moved on
// unmoved counts, and the function-level profiles of the changed benchmarks.
#include <algorithm>

#include <fmt/format.h>

#include "benchpr/core/adaptive/session_analysis.hpp"
#include "benchpr/core/base/duration.hpp"
#include "benchpr/core/evidence/instruction_analysis.hpp"
#include "benchpr/core/evidence/placement.hpp"
#include "benchpr/runner/code_evidence.hpp"
#include "benchpr/runner/counting_share.hpp"
#include "benchpr/runner/instruction_counts.hpp"
#include "benchpr/runner/profiles.hpp"
#include "benchpr/runner/session.hpp"

namespace benchpr::runner {

bool Session::count_instructions_phase(Results& results) {
  const auto& suites = results.config.suites;
  if (std::none_of(suites.begin(), suites.end(),
                   [&](const SuiteConfig& s) { return results.config.counts_instructions(s); }))
    return true;
  InstructionSetup is;
  is.base_dir = setup_.base_dir;
  is.head_dir = setup_.head_dir;
  is.work_dir = setup_.out_dir + "/instructions";
  is.log_dir = setup_.log_dir;
  is.parallel = results.machine.cores > 0 ? results.machine.cores : 1;
  is.started = now_seconds() - started_;
  is.only = &open_;  // a shard counts its own share only
  is.skipped_suites = &skipped_suites_;
  is.sealed = &sealed_runs_;
  is.clock = &clock_;
  // A side's own counting runs may change its own files; the base counted again after the PR's
  // runs must find its programs and tracked files as they were.
  is.after_side = [this](Side side) {
    if (files_) files_->after_run(side);
  };
  is.before_base_again = [this, &results] {
    if (!files_) return;
    for (const SuiteConfig& s : results.config.suites)
      if (results.config.counts_instructions(s) && !skipped_suites_.count(s.name))
        files_->verify(s.name, Side::Base);
  };
  // Counts nobody asked for (on by default) may take a share of the budget: the time rounds
  // judge what users pay, and the counts must leave them their room.
  const Config& c = results.config;
  const bool only_by_default = std::all_of(suites.begin(), suites.end(), [&](const SuiteConfig& s) {
    return !c.counts_instructions(s) || c.counts_by_default(s);
  });
  const double budget =
      setup_.budget_seconds > 0 ? setup_.budget_seconds : c.budget_seconds.value_or(0);
  // A quarter of the budget (3m45s of 15 minutes), or half where the start-ups the base's
  // listings measure make a quarter too little for both sides (runner/counting_share.hpp).
  if (only_by_default && budget > 0) {
    is.deadline_seconds = default_counting_share(budget);
    is.budget_seconds = budget;
  }
  const double t0 = now_seconds();
  const bool done = count_instructions(processes_, results, is, progress_);
  child_seconds_ += now_seconds() - t0;
  results.counting_seconds = now_seconds() - t0;
  // Nothing to count (every counted suite skipped: identical programs, another shard's) says
  // nothing rather than "counted instructions in 0ms".
  const bool any = std::any_of(results.series.begin(), results.series.end(),
                               [](const BenchmarkSeries& s) { return is_instruction_series(s); });
  if (done && any)
    progress_(fmt::format("counted instructions in {}", format_duration(now_seconds() - t0)));
  persist(results, false);
  return done && !exec::interrupt_requested();
}

void Session::code_evidence_phase(Results& results) {
  if (exec::interrupt_requested()) return;
  results.hot_code.clear();
  const auto wanted = code_evidence_wanted(results, analyse_session(results));
  if (wanted.empty()) return;
  CodeEvidenceSetup cs;
  cs.base_dir = setup_.base_dir;
  cs.head_dir = setup_.head_dir;
  cs.counted = &sealed_runs_;
  cs.unseen_cpu_paths = cpu_beyond_valgrind();
  gather_code_evidence(results, wanted, cs, progress_);
}

void Session::profile_phase(Results& results) {
  if (exec::interrupt_requested()) return;
  results.profiles.clear();
  const std::vector<ProfileRequest> requests =
      profile_requests(results, analyse_session(results), setup_.why);
  if (requests.empty()) return;
  ProfileSetup ps;
  ps.base_dir = setup_.base_dir;
  ps.head_dir = setup_.head_dir;
  ps.work_dir = setup_.out_dir + "/profiles";
  ps.counted = &sealed_runs_;  // count_instructions_phase's runs, sealed
  ps.why = setup_.why;
  const double budget =
      setup_.budget_seconds > 0 ? setup_.budget_seconds : results.config.budget_seconds.value_or(0);
  if (budget > 0) ps.seconds_left = budget - (now_seconds() - started_);
  const double t0 = now_seconds();
  profile_benchmarks(processes_, results, requests, ps, progress_);
  child_seconds_ += now_seconds() - t0;
}

}  // namespace benchpr::runner
