// What failed runs and an interruption leave on the results: a reason on every benchmark a
// failed run left without a value (or a row of its own for a suite that never reported one),
// and the unpaired values of an interrupted round dropped.
#include <map>
#include <set>
#include <string_view>
#include <unordered_set>

#include <fmt/format.h>

#include "benchpr/core/base/duration.hpp"
#include "benchpr/core/evidence/instruction_analysis.hpp"
#include "benchpr/runner/session.hpp"
#include "benchpr/runner/session_words.hpp"

namespace benchpr::runner {

using namespace session_detail;

namespace {

// "round 3" as the comment's per-round table counts (analysed rounds from 1), or "the warm-up".
std::string round_label(const Results& r, int index) {
  if (index >= 0 && static_cast<std::size_t>(index) < r.plan.size() &&
      r.plan[static_cast<std::size_t>(index)].warmup)
    return "the warm-up round";
  int number = 0;
  for (const RoundPlan& p : r.plan) {
    if (!p.warmup) ++number;
    if (p.index == index) break;
  }
  return fmt::format("round {}", number);
}

}  // namespace

void Session::finish_failures(Results& results) {
  // A failed run leaves its benchmarks without values in that round; say why on the series so
  // the analysis reports them as failed instead of silently comparing fewer rounds. A run that
  // was repeated without its crashing benchmarks only counts for the benchmarks still missing.
  std::set<std::string> instruction_suites;
  for (const SuiteConfig& s : results.config.suites)
    instruction_suites.insert(instruction_suite_name(s.name));
  // Looked up once per series of every failed run: sets, not the lists, so that a suite of
  // 100,000 benchmarks failing in every round stays linear.
  std::map<std::string, std::unordered_set<std::string_view>> open;
  for (const auto& [suite, names] : open_) open[suite].insert(names.begin(), names.end());
  for (const RunRecord& rec : results.runs) {
    // Callgrind runs are one benchmark each and record their failure on it themselves.
    if (rec.ok || instruction_suites.count(rec.suite)) continue;
    bool any = false;
    for (BenchmarkSeries& s : results.series) {
      if (s.suite != rec.suite) continue;
      any = true;
      const auto& values = rec.side == Side::Base ? s.base : s.head;
      const auto idx = static_cast<std::size_t>(rec.round);
      const bool missing = idx >= values.size() || is_missing(values[idx]);
      if (!missing) continue;
      // Benchmarks deliberately not run (left out after a crash, or decided by an earlier
      // adaptive look) are missing for a known reason already recorded.
      if (health_.crashed(s.suite, rec.side, s.name)) continue;
      if (const auto still_open = open.find(s.suite);
          still_open != open.end() && !still_open->second.contains(s.name))
        continue;
      if ((rec.side == Side::Base ? s.base_failure : s.head_failure).empty())
        set_failure(s, rec.side,
                    fmt::format("suite {} {} in {}", rec.suite, rec.failure,
                                round_label(results, rec.round)),
                    rec.failure_kind);
    }
    if (!any) {
      // The suite never reported a benchmark: keep the failure visible as a row of its own.
      BenchmarkSeries s;
      s.suite = rec.suite;
      s.name = "(suite " + rec.suite + ")";
      set_failure(
          s, rec.side,
          fmt::format("suite {} {} in {}", rec.suite, rec.failure, round_label(results, rec.round)),
          rec.failure_kind);
      results.series.push_back(std::move(s));
    }
  }
}

void Session::mark_interrupted(Results& results, int round) {
  // The interrupted round is incomplete: its values would be unpaired. Drop them.
  const auto keep = static_cast<std::size_t>(round);
  for (BenchmarkSeries& s : results.series) {
    if (s.base.size() > keep) s.base.resize(keep);
    if (s.head.size() > keep) s.head.resize(keep);
  }
  std::erase_if(results.runs, [&](const RunRecord& r) { return r.round >= round; });
  results.complete = false;
  const std::string signal = exec::signal_name(exec::interrupt_signal());
  results.stop = {StopKind::Interrupted, 0, signal.empty() ? "" : "by " + signal};
  // Name what was running: a comment whose rounds never finished otherwise only lists every
  // benchmark as not measured.
  if (last_run_ && last_run_->round == round && keep < results.plan.size()) {
    int warmups = 0;
    for (const RoundPlan& p : results.plan) warmups += p.warmup ? 1 : 0;
    const std::string where = results.plan[keep].warmup
                                  ? fmt::format("warm-up round {}", round + 1)
                                  : fmt::format("round {}", round - warmups + 1);
    results.stop.detail +=
        fmt::format("{}in {}, {} into the {}'s run of {}", results.stop.detail.empty() ? "" : " ",
                    where, format_duration(now_seconds() - last_run_->started),
                    side_name(last_run_->side), last_run_->suite);
  }
}

}  // namespace benchpr::runner
