#include "benchpr/app/bisect_run.hpp"

#include <algorithm>
#include <array>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <optional>
#include <utility>

#include <fmt/format.h>

#include "benchpr/app/bisect_chain.hpp"
#include "benchpr/core/adaptive/session_analysis.hpp"
#include "benchpr/core/base/duration.hpp"
#include "benchpr/core/base/error.hpp"
#include "benchpr/core/base/text.hpp"
#include "benchpr/core/bisect/bisect.hpp"
#include "benchpr/core/evidence/instruction_analysis.hpp"
#include "benchpr/core/plan/schedule.hpp"
#include "benchpr/core/plan/time_plan.hpp"
#include "benchpr/core/results_file/results_json.hpp"
#include "benchpr/exec/process.hpp"
#include "benchpr/runner/results_store.hpp"
#include "benchpr/runner/session.hpp"
#include "benchpr/runner/suite_files.hpp"

namespace benchpr::app {

namespace {

double now_seconds() {
  using namespace std::chrono;
  return duration<double>(steady_clock::now().time_since_epoch()).count();
}

bool changed_verdict(const BenchmarkAnalysis& b) {
  return b.verdict == Verdict::Regression || b.verdict == Verdict::Improvement;
}

// The configured suite an analysed benchmark belongs to (instruction series carry
// "suite (instructions)").
const SuiteConfig* suite_of(const Config& config, const std::string& suite, bool exact) {
  for (const SuiteConfig& s : config.suites)
    if ((exact ? instruction_suite_name(s.name) : s.name) == suite) return &s;
  return nullptr;
}

// What each comparison of the search runs: the suites of the targets only, counting
// instructions (exact targets) or timing rounds (the others), never both.
Config step_config(const Config& main, const Bisection& b, double budget) {
  Config c = main;
  const bool exact = b.method == BisectMethod::Instructions;
  c.instructions = InstructionCounting::Off;
  c.suites.clear();
  c.bisect = BisectMode::Off;
  for (SuiteConfig s : main.suites) {
    const bool wanted = std::any_of(b.targets.begin(), b.targets.end(), [&](const BisectTarget& t) {
      return (exact ? instruction_suite_name(s.name) : s.name) == t.suite;
    });
    if (!wanted) continue;
    s.instructions = false;
    if (exact) s.metric = std::string(kInstructionsMetric);
    c.suites.push_back(std::move(s));
  }
  c.budget_seconds = budget;
  return c;
}

// Only the targets of each Google Benchmark suite run (other formats run whole).
runner::WorkSelection target_selection(const Config& config, const Bisection& b) {
  runner::WorkSelection w;
  const bool exact = b.method == BisectMethod::Instructions;
  for (const BisectTarget& t : b.targets) {
    const SuiteConfig* s = suite_of(config, t.suite, exact);
    if (s != nullptr && s->format == FormatKind::GoogleBenchmark)
      w.benchmarks[s->name].push_back(t.name);
  }
  return w;
}

RevisionInfo revision_of(const BisectCommit& c) {
  RevisionInfo r;
  r.spec = short_sha(c.sha);
  r.sha = c.sha;
  r.subject = c.subject;
  return r;
}

BisectValue value_from(const BenchmarkAnalysis& a) {
  BisectValue v;
  v.suite = a.suite;
  v.name = a.name;
  v.from_value = a.base_value;
  v.to_value = a.head_value;
  v.change = a.change;
  if (!is_instruction_analysis(a)) {
    v.ci_low = a.ci_low;
    v.ci_high = a.ci_high;
    v.rounds = a.rounds_used;
  }
  return v;
}

// The targets' values in a comparison's analysis.
std::vector<BisectValue> target_values(const Analysis& analysis, const Bisection& b) {
  std::vector<BisectValue> values;
  for (const BisectTarget& t : b.targets)
    for (const BenchmarkAnalysis& a : analysis.benchmarks)
      if (a.suite == t.suite && a.name == t.name && !is_missing(a.change))
        values.push_back(value_from(a));
  return values;
}

// The two worktrees and which commit of the chain each holds; a comparison reuses the one that
// holds a commit it needs, so only the other is rewritten (and rebuilt incrementally).
class Worktrees {
 public:
  Worktrees(git::Repository& repo, const runner::Workspace& ws, int base, int head)
      : repo_(repo),
        dirs_{ws.base_dir, ws.head_dir},
        commit_files_{ws.base_commit_file, ws.head_commit_file},
        holds_{base, head} {}

  // The directories for `from` and `to`, materialised.
  std::pair<std::string, std::string> place(const Bisection& b, int from, int to) {
    int f = holds_[0] == from ? 0 : holds_[1] == from ? 1 : holds_[0] == to ? 1 : 0;
    const int t = 1 - f;
    put(b, f, from);
    put(b, t, to);
    return {dirs_[static_cast<std::size_t>(f)], dirs_[static_cast<std::size_t>(t)]};
  }

 private:
  void put(const Bisection& b, int dir, int commit) {
    if (holds_[static_cast<std::size_t>(dir)] == commit) return;
    const std::string& sha = b.commits[static_cast<std::size_t>(commit)].sha;
    repo_.materialise(sha, dirs_[static_cast<std::size_t>(dir)]);
    // What --resume checks a worktree against: the commit it now holds.
    std::ofstream(commit_files_[static_cast<std::size_t>(dir)], std::ios::trunc) << sha << '\n';
    holds_[static_cast<std::size_t>(dir)] = commit;
  }

  git::Repository& repo_;
  std::array<std::string, 2> dirs_;
  std::array<std::string, 2> commit_files_;
  std::array<int, 2> holds_;
};

}  // namespace

std::optional<std::string> bisect_not_needed(const Results& results, const Analysis& analysis,
                                             std::size_t chain_commits) {
  if (std::none_of(analysis.benchmarks.begin(), analysis.benchmarks.end(), changed_verdict))
    return "no benchmark is a regression or an improvement";
  if (!results.complete) return "the comparison did not finish";
  if (chain_commits < 3)
    return "the pull request has one commit on its first-parent chain from the base";
  return std::nullopt;
}

namespace {

// The search as planned before any step: the chain, the budget, how a step measures (exact
// counts when the comparison found a change in them: one run per commit decides), the targets
// (the changes of that kind whose suite is configured) and the comparison itself as the first
// pair, base to head.
Bisection plan_search(const Results& results, const Analysis& analysis,
                      std::vector<BisectCommit> chain, double budget_seconds) {
  Bisection b;
  b.commits = std::move(chain);
  b.budget_seconds = std::max(0.0, budget_seconds);
  const bool exact = std::any_of(
      analysis.benchmarks.begin(), analysis.benchmarks.end(),
      [](const BenchmarkAnalysis& a) { return changed_verdict(a) && is_instruction_analysis(a); });
  b.method = exact ? BisectMethod::Instructions : BisectMethod::Time;
  for (const BenchmarkAnalysis& a : analysis.benchmarks) {
    if (!changed_verdict(a) || is_instruction_analysis(a) != exact) continue;
    if (suite_of(results.config, a.suite, exact) == nullptr) continue;
    b.targets.push_back({a.suite, a.name, a.change, a.threshold, exact});
  }
  BisectPair main;
  main.from = 0;
  main.to = static_cast<int>(b.commits.size()) - 1;
  main.values = target_values(analysis, b);
  b.pairs.push_back(std::move(main));
  b.stop = {StopKind::StepsDone, 0, {}};
  b.complete = true;
  return b;
}

// Why the search cannot take another step: what is left of the budget does not pay for a
// comparison (`cost`: the last one's time), or it was interrupted; nothing when it can.
std::optional<StopReason> stop_before_step(double left, double cost) {
  if (left <= 0 || left < cost) {
    return StopReason{StopKind::BudgetSpent, 0,
                      fmt::format("{} left, a comparison takes about {}",
                                  format_duration(std::max(left, 0.0)), format_duration(cost))};
  }
  if (exec::interrupt_requested()) return StopReason{StopKind::Interrupted, 0, {}};
  return std::nullopt;
}

// The results a step starts from: the probe's two commits under the comparison's machine and
// configuration, narrowed to the targets and to the step's share of the budget, with a seed of
// its own.
Results step_results(const Results& results, const Bisection& b, const BisectProbe& probe,
                     double share, int step) {
  Results r;
  r.tool_version = results.tool_version;
  r.base = revision_of(b.commits[static_cast<std::size_t>(probe.from)]);
  r.head = revision_of(b.commits[static_cast<std::size_t>(probe.to)]);
  r.config = step_config(results.config, b, share);
  r.machine = results.machine;
  r.seed = results.seed + static_cast<std::uint64_t>(step);
  r.plan = make_schedule(r.config.rounds, r.config.warmup_rounds, r.seed);
  return r;
}

// Where the steps' results files and logs go.
struct StepDirs {
  std::string out;
  std::string log;
};

// What a step's session is told: the two worktrees, where it writes, its budget, the files the
// probe's commits differ in, and that only the targets run.
runner::SessionSetup step_session_setup(git::Repository& repo, const Bisection& b,
                                        const BisectProbe& probe, const Results& r,
                                        const std::pair<std::string, std::string>& dirs,
                                        const StepDirs& where, const BisectRunSetup& setup,
                                        double share, int step) {
  runner::SessionSetup s;
  s.base_dir = dirs.first;
  s.head_dir = dirs.second;
  s.out_dir = where.out;
  s.log_dir = where.log;
  s.persist_paths = {fmt::format("{}/step-{}.json", where.out, step)};
  s.skip_build = setup.skip_build;
  s.budget_seconds = share;
  try {
    s.changed_paths = repo.changed_paths(b.commits[static_cast<std::size_t>(probe.from)].sha,
                                         b.commits[static_cast<std::size_t>(probe.to)].sha);
  } catch (const git::GitError&) {
    // Unknown: the step's suites are timed even when their programs are identical.
  }
  const runner::WorkSelection selection = target_selection(r.config, b);
  s.select_work = [selection](Results&) { return selection; };
  return s;
}

// The pair a finished step adds: its time, the commits that did not build (stepped over from
// then on), why it has no values, or the targets' values in its analysis.
BisectPair step_pair(Bisection& b, const BisectProbe& probe, const Results& r, double seconds,
                     const std::function<void(const std::string&)>& progress) {
  BisectPair pair;
  pair.from = probe.from;
  pair.to = probe.to;
  pair.seconds = seconds;
  for (const BuildResult& build : r.builds) {
    if (build.ok) continue;
    const int which = build.side == Side::Base ? probe.from : probe.to;
    BisectCommit& c = b.commits[static_cast<std::size_t>(which)];
    c.skipped = true;
    c.skip_reason = build.failure;
    pair.failure = fmt::format("{} did not build: {}", short_sha(c.sha), build.failure);
    progress(fmt::format("bisect: {} does not build ({}): stepped over", commit_label(c),
                         build.failure));
  }
  if (pair.failure.empty() && !r.complete) {
    pair.failure = r.stop.empty() ? "did not finish" : describe(r.stop);
  }
  if (pair.failure.empty()) pair.values = target_values(analyse_session(r), b);
  return pair;
}

}  // namespace

void run_bisection(git::Repository& repo, exec::ProcessRunner& processes, Results& results,
                   const Analysis& analysis, std::vector<BisectCommit> chain,
                   const BisectRunSetup& setup,
                   const std::function<void(const std::string&)>& progress) {
  const double started = now_seconds();
  Bisection b = plan_search(results, analysis, std::move(chain), setup.budget_seconds);
  const bool exact = b.method == BisectMethod::Instructions;
  const int head = static_cast<int>(b.commits.size()) - 1;
  progress(fmt::format(
      "bisect: searching {} commits for the step behind {} {} by {}, within the {} left", head,
      b.targets.size(), b.targets.size() == 1 ? "change" : "changes",
      exact ? "instruction counts" : "interleaved rounds", format_duration(b.budget_seconds)));

  Worktrees trees(repo, setup.workspace, 0, head);
  const StepDirs where{setup.workspace.out_dir + "/bisect", setup.workspace.log_dir + "/bisect"};
  std::error_code ec;
  std::filesystem::create_directories(where.log, ec);
  // What one comparison costs: the comparison's builds at first, then the last one's time.
  double cost = 0;
  for (const BuildResult& build : results.builds) cost += build.seconds;
  for (int step = 1;; ++step) {
    const std::optional<BisectProbe> probe = next_probe(b);
    if (!probe) break;
    const double left = b.budget_seconds - (now_seconds() - started);
    if (std::optional<StopReason> stop = stop_before_step(left, cost)) {
      b.complete = false;
      b.stop = std::move(*stop);
      break;
    }
    const double share = left / probes_left_estimate(b);
    progress(fmt::format("bisect: comparing {} with {} ({} of the {} left)",
                         commit_label(b.commits[static_cast<std::size_t>(probe->from)]),
                         commit_label(b.commits[static_cast<std::size_t>(probe->to)]),
                         format_duration(share), format_duration(left)));
    const double t0 = now_seconds();
    const std::pair<std::string, std::string> dirs = trees.place(b, probe->from, probe->to);

    Results r = step_results(results, b, *probe, share, step);
    const runner::SessionSetup s =
        step_session_setup(repo, b, *probe, r, dirs, where, setup, share, step);
    std::filesystem::create_directories(where.out, ec);
    runner::Session session(processes, s,
                            [&progress](const std::string& l) { progress("  " + l); });
    try {
      session.run(r);
    } catch (const runner::TamperError& e) {
      // A worktree changed under a build: this comparison is void, the search ends with what
      // it measured before. Any other error ends the command as the comparison's own would.
      b.complete = false;
      b.stop = {StopKind::Void, 0, e.what()};
      break;
    }
    BisectPair pair = step_pair(b, *probe, r, now_seconds() - t0, progress);
    cost = pair.seconds;
    b.pairs.push_back(std::move(pair));
    if (!r.complete && r.stop.kind == StopKind::Interrupted) {
      b.complete = false;
      b.stop = {StopKind::Interrupted, 0, {}};
      break;
    }
  }
  b.seconds = now_seconds() - started;
  progress(fmt::format("bisect: {} comparisons in {}: {}", b.pairs.size() - 1,
                       format_duration(b.seconds), describe(b.stop)));
  results.bisect = std::move(b);
}

void bisect_after_comparison(git::Repository& repo, exec::ProcessRunner& processes,
                             Results& results, const runner::Workspace& ws, bool skip_build,
                             const std::function<void(const std::string&)>& progress) {
  // Judged as the comment will be: from the results as the file keeps them.
  const Analysis analysis = analyse_session(results_from_string(results_to_string(results)));
  if (skip_build) {
    progress(
        "bisect: no search: --skip-build reuses the comparison's two builds, and the other "
        "commits of the pull request need builds of their own");
    return;
  }
  // Whether anything changed first: the chain's walk asks git about every commit of it.
  std::optional<std::string> why = bisect_not_needed(results, analysis, 3);
  std::vector<BisectCommit> chain;
  if (!why) {
    if (auto walked = first_parent_chain(repo, results.base, results.head)) {
      chain = std::move(*walked);
      why = bisect_not_needed(results, analysis, chain.size());
    } else {
      why = fmt::format(
          "the pull request has more than {} commits on its first-parent chain from the base, "
          "too many to search: a search of its last {} would put the changes of the earlier "
          "ones on the oldest commit it kept (bisect a shorter range with a base nearer the "
          "head)",
          kMaxChainCommits, kMaxChainCommits);
    }
  }
  if (why) {
    progress("bisect: no search: " + *why);
    return;
  }
  // What the comparison spent, builds included (instruction counts only: their runs).
  double spent = results.measuring_seconds;
  double parts = 0;
  for (const BuildResult& b : results.builds) parts += b.seconds;
  for (const RunRecord& r : results.runs) parts += r.seconds;
  spent = std::max(spent, parts);
  BisectRunSetup setup;
  setup.workspace = ws;
  setup.budget_seconds = results.config.budget_seconds.value_or(kDefaultBudgetSeconds) - spent;
  run_bisection(repo, processes, results, analysis, std::move(chain), setup, progress);
  try {
    runner::write_file_atomically(ws.results_path, results_to_string(results, &analysis));
  } catch (const Error& e) {
    progress(std::string("warning: ") + e.what());
  }
}

}  // namespace benchpr::app
