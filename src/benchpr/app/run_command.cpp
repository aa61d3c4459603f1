#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <random>
#include <sstream>

#include <fmt/format.h>

#include "benchpr/app/actions_event.hpp"
#include "benchpr/app/actions_report.hpp"
#include "benchpr/app/bisect_run.hpp"
#include "benchpr/app/commands.hpp"
#include "benchpr/app/comment_posting.hpp"
#include "benchpr/app/comparison.hpp"
#include "benchpr/app/config_loader.hpp"
#include "benchpr/app/executables_comparison.hpp"
#include "benchpr/app/git_remote.hpp"
#include "benchpr/app/github_access.hpp"
#include "benchpr/app/measuring_session_setup.hpp"
#include "benchpr/app/pending_status.hpp"
#include "benchpr/app/process_hardening.hpp"
#include "benchpr/app/progress.hpp"
#include "benchpr/app/report_output.hpp"
#include "benchpr/app/resume.hpp"
#include "benchpr/app/shard_work.hpp"
#include "benchpr/app/user_error.hpp"
#include "benchpr/core/base/text.hpp"
#include "benchpr/core/plan/schedule.hpp"
#include "benchpr/core/plan/time_plan.hpp"
#include "benchpr/core/results_file/results_json.hpp"
#include "benchpr/exec/process.hpp"
#include "benchpr/github/workflow_commands.hpp"
#include "benchpr/runner/instruction_counts.hpp"
#include "benchpr/runner/machine_info.hpp"
#include "benchpr/runner/session.hpp"
#include "benchpr/runner/workspace.hpp"
#include "benchpr/runner/zero_config.hpp"

namespace benchpr::app {

namespace {

std::uint64_t fresh_seed() {
  std::random_device rd;
  return (static_cast<std::uint64_t>(rd()) << 32) ^ rd();
}

bool actions_event_available() {
  const char* event = std::getenv("GITHUB_EVENT_PATH");
  return in_github_actions() && event != nullptr && *event != '\0';
}

Comparison choose_comparison(RepoContext& ctx, const RunOptions& options,
                             const Progress& progress) {
  if (!options.pr_head.empty() && !options.pr)
    throw UserError("--pr-head names the head commit of --pr N: add --pr");
  if (options.pr) {
    if (!options.base.empty() || !options.head.empty())
      throw UserError("--pr takes the revisions from the pull request: leave out --base/--head");
    const github::RepoSlug slug =
        resolve_repo_slug(options.repo, [&ctx] { return ctx.remote->origin_url(); });
    auto client = make_github_client(options.api_url, github::token_from_environment(),
                                     [&progress](const std::string& m) { progress.line(m); });
    return pull_request_comparison(ctx, options, *client, slug, progress);
  }
  if (options.base.empty() && actions_event_available())
    return actions_comparison(ctx, options, progress);
  if (options.compare != CompareMode::MergeBase)
    throw UserError("--compare applies to pull requests (--pr N, or a GitHub Actions event)");
  return local_comparison(ctx, options);
}

// benchpr compares commits, so uncommitted edits are not measured: say so instead of ignoring
// them silently (local runs of HEAD only; CI checkouts are clean).
void warn_if_dirty(exec::ProcessRunner& processes, const RunOptions& options,
                   const Comparison& comparison, const Progress& progress) {
  if (comparison.pull_request || (!options.head.empty() && options.head != "HEAD")) return;
  exec::ProcessSpec spec;
  spec.command = "git " + no_repository_programs_options(processes, options.directory) +
                 " status --porcelain --untracked-files=no";
  spec.cwd = options.directory;
  spec.timeout_seconds = 60;
  spec.tail_bytes = exec::kMessageTailBytes;
  const exec::ProcessResult status = processes.run(spec);
  if (!status.ok() || status.output_tail.find_first_not_of(" \n") == std::string::npos) return;
  progress.line(
      "warning: the work tree has uncommitted changes, which are not measured: benchpr compares "
      "commits (HEAD is " +
      short_sha(comparison.head.sha) + "); commit them to include them");
}

// The configuration comes from the base revision: a .benchpr.yml in the work tree that is not
// committed (edited or untracked, as `benchpr init` leaves it) is not used. Say so before
// anything is built, with the flag that uses it.
void warn_if_config_ignored(git::Repository& repo, const RunOptions& options,
                            const RevisionInfo& base, const Progress& progress) {
  if (!options.config_file.empty()) return;
  const std::filesystem::path on_disk = std::filesystem::path(repo.workdir()) / ".benchpr.yml";
  std::ifstream in(on_disk, std::ios::binary);
  if (repo.workdir().empty() || !in) return;
  std::ostringstream text;
  text << in.rdbuf();
  std::optional<std::string> committed;
  try {
    committed = repo.read_file(repo.resolve("HEAD").sha, ".benchpr.yml");
  } catch (const git::GitError&) {  // no commit yet (HEAD is unborn): nothing committed to match
  }
  if (committed == text.str()) return;
  if (repo.read_file(base.sha, ".benchpr.yml") == text.str()) return;  // the same file is used
  const std::string relative =
      std::filesystem::relative(on_disk, std::filesystem::current_path()).generic_string();
  progress.line(fmt::format(
      "note: {} is {} and not used: benchpr reads .benchpr.yml from the base revision ({}); pass "
      "--config {} to use this file",
      relative, committed ? "edited and not committed" : "not committed", base.spec,
      shell_quote(relative)));
}

// benchpr replaces its worktrees and work files in every run: an output there would clobber a
// file of the code under test (or be clobbered) mid-run.
void check_outputs_outside_workspace(const runner::Workspace& ws,
                                     const std::vector<std::string>& paths) {
  namespace fs = std::filesystem;
  const auto normal = [](const std::string& p) {
    std::error_code ec;
    fs::path n = fs::weakly_canonical(fs::absolute(p, ec), ec);
    return (ec ? fs::absolute(p, ec) : n).lexically_normal();
  };
  for (const std::string& path : paths) {
    if (path.empty()) continue;
    const fs::path target = normal(path);
    for (const std::string& dir : {ws.base_dir, ws.head_dir, ws.out_dir, ws.log_dir}) {
      const fs::path inside = target.lexically_relative(normal(dir));
      if (!inside.empty() && *inside.begin() != "..") {
        throw UserError(fmt::format(
            "{} is inside {}, which benchpr creates and replaces for every run (it would "
            "overwrite the code under test's files); write it outside the work directory {}",
            path, dir, ws.root));
      }
    }
  }
}

// Instruction counts need Valgrind: when they were asked for, say so before anything is built,
// naming the package. Counting nobody asked for (on by default) is on where Valgrind is
// installed, and off, with a line saying how to turn it on, where it is not.
void resolve_instruction_counting(exec::ProcessRunner& processes, Config& config,
                                  const Progress& progress) {
  InstructionCounting& counting = config.instructions;
  const bool asked =
      counting == InstructionCounting::On ||
      std::any_of(config.suites.begin(), config.suites.end(), [&](const SuiteConfig& s) {
        return s.format == FormatKind::GoogleBenchmark &&
               (s.metric == kInstructionsMetric || s.instructions);
      });
  // Zero-config finds Google Benchmark suites only after the build: no suites yet counts as some.
  const bool any_gbench =
      config.suites.empty() ||
      std::any_of(config.suites.begin(), config.suites.end(),
                  [](const SuiteConfig& s) { return s.format == FormatKind::GoogleBenchmark; });
  const bool by_default = any_gbench && (counting == InstructionCounting::Auto ||
                                         counting == InstructionCounting::ByDefault);
  if (!asked && !by_default) {
    if (counting == InstructionCounting::Auto) counting = InstructionCounting::Off;
    return;
  }
  const bool installed = runner::valgrind_installed(processes);
  if (asked && !installed) throw UserError(runner::valgrind_missing_message());
  if (!by_default) return;
  counting = installed ? InstructionCounting::ByDefault : InstructionCounting::Off;
  if (!installed)
    progress.line(fmt::format(
        "instructions are not counted: Valgrind is not installed (install the package `{}` to "
        "count every Google Benchmark suite's instructions beside its time)",
        runner::kValgrindPackage));
}

// Where the session works and what it may decide by itself: the rounds' budget, the suites of
// a project without .benchpr.yml (found after the base is built), this shard's benchmarks.
runner::SessionSetup revision_session_setup(const RunOptions& options, const Config& config,
                                            const runner::Workspace& ws, bool zero_config,
                                            const std::optional<ShardSpec>& shard,
                                            const std::optional<Results>& balance,
                                            exec::ProcessRunner& processes,
                                            const Progress& progress) {
  runner::SessionSetup setup = measuring_session_setup(ws, options, config);
  setup.skip_build = options.skip_build;
  setup.resume = !options.resume.empty();
  setup.why = options.why;
  if (zero_config) {
    const std::string base_dir = ws.base_dir;
    setup.after_build = [base_dir, &progress](Results& r) {
      const std::string build_dir = base_dir + "/" + std::string(runner::kZeroConfigBuildDir);
      r.config.suites = runner::discover_benchmark_suites(build_dir, base_dir);
      if (r.config.suites.empty()) {
        throw UserError("the base revision built, but " + build_dir +
                        " holds no Google Benchmark executable: add a .benchpr.yml that names "
                        "the suites (benchpr init writes one)");
      }
      progress.line(fmt::format("found {} benchmark executable(s)", r.config.suites.size()));
    };
  }
  if (shard) {
    ShardWorkInputs in;
    in.spec = *shard;
    in.balance = balance ? &*balance : nullptr;
    in.balance_name = std::filesystem::path(options.balance_from).filename().string();
    in.base_dir = ws.base_dir;
    in.head_dir = ws.head_dir;
    setup.select_work = [in, &processes, &progress](Results& r) {
      return select_shard_work(r, in, processes, progress);
    };
  }
  return setup;
}

// `--resume FILE`: the interrupted comparison, whose revisions and output file this run takes.
std::optional<Results> take_resumed(RunOptions& options) {
  if (options.resume.empty()) return std::nullopt;
  Results resumed = read_resumable(options.resume);
  take_revisions_from(options, resumed);
  // The same file goes on growing.
  if (options.output.empty()) options.output = options.resume;
  return resumed;
}

// What is compared and where, before the configuration is known.
Results comparison_results(const Comparison& comparison) {
  Results results;
  results.tool_version = BENCHPR_VERSION;
  results.base = comparison.base;
  results.head = comparison.head;
  results.pull_request = comparison.pull_request;
  results.machine = runner::read_machine_info();
  results.workflow_run_url = this_workflow_run_url();
  return results;
}

// Whether the PR edits the .benchpr.yml this comparison uses. With --config, neither
// revision's .benchpr.yml is used: the PR's edits to it change nothing.
bool config_changed_by_head(git::Repository& repo, const RunOptions& options,
                            const Results& results) {
  if (!options.config_file.empty()) return false;
  const auto changed = repo.changed_paths(results.base.sha, results.head.sha);
  return std::find(changed.begin(), changed.end(), ".benchpr.yml") != changed.end();
}

// The tracked paths that differ between the two commits, for the identical programs' shortcut;
// nullopt (no shortcut) when git cannot tell.
std::optional<std::vector<std::string>> changed_paths_or_none(git::Repository& repo,
                                                              const Results& results) {
  try {
    return repo.changed_paths(results.base.sha, results.head.sha);
  } catch (const git::GitError&) {
    return std::nullopt;
  }
}

struct LockedWorkspace {
  std::unique_ptr<runner::WorkspaceLock> lock;
  runner::Workspace ws;
};

// The work directory (--workdir, else .git/benchpr), held for this run alone. A WorkspaceError
// (not writable, locked by another run) ends with exit 2: nothing measured.
LockedWorkspace lock_workspace(const RunOptions& options, git::Repository& repo) {
  const std::string root = options.workdir.empty() ? repo.git_dir() + "/benchpr" : options.workdir;
  std::error_code ec;
  std::filesystem::create_directories(root, ec);
  LockedWorkspace locked;
  locked.lock = std::make_unique<runner::WorkspaceLock>(root, 0);
  locked.ws = runner::prepare_workspace(root);
  return locked;
}

void warn_if_same_commit(const Results& results, const Progress& progress) {
  if (results.base.sha != results.head.sha) return;
  progress.line(fmt::format(
      "warning: base {} and PR {} are the same commit ({}): every difference measured is "
      "noise; pass the revisions to compare with --base and --head",
      results.base.spec, results.head.spec, short_sha(results.base.sha)));
}

// A project without .benchpr.yml: its build and benchmarks found in the base's worktree.
Config zero_config_in_base(const RunOptions& options, const std::string& base_dir,
                           const Progress& progress) {
  Config config = zero_config_for(options, base_dir);
  progress.line("no .benchpr.yml in the base revision: building with `" + config.build +
                "` and running every Google Benchmark executable it produces");
  for (const std::string& note : runner::build_option_notes(base_dir)) progress.line(note);
  return config;
}

// --seed; a shard's is the one every shard of the comparison computes alike; else a fresh one.
std::uint64_t comparison_seed(const RunOptions& options, const std::optional<ShardSpec>& shard,
                              const Results& results) {
  if (options.seed) return *options.seed;
  if (shard)
    return shared_shard_seed(results.base.sha, results.head.sha,
                             config_to_json(results.config).dump(), shard->count);
  return fresh_seed();
}

void warn_if_too_few_rounds(const Config& config, const Progress& progress) {
  if (config.rounds >= kMinDecidingRounds) return;
  progress.line(fmt::format(
      "warning: {} rounds can never give a verdict; use at least {} (`rounds:` in .benchpr.yml "
      "or --rounds)",
      config.rounds, kMinDecidingRounds));
}

// Builds both revisions and measures them (then, when asked, bisects the PR's commits), the
// Actions files watched while the PR's code runs. Returns the write error the rounds met, if any.
std::optional<std::string> build_and_measure(Results& results, const runner::SessionSetup& setup,
                                             const RunOptions& options, bool sharded,
                                             git::Repository& repo, exec::ProcessRunner& processes,
                                             const runner::Workspace& ws,
                                             const Progress& progress) {
  progress.begin_group("benchpr: build and measure");
  runner::Session session(processes, setup,
                          [&progress](const std::string& l) { progress.line(l); });
  const ActionsFilesWatch actions_files;  // before any code of the pull request runs
  session.run(results);
  if ((options.bisect || results.config.bisect == BisectMode::Auto) && !sharded)
    bisect_after_comparison(repo, processes, results, ws, options.skip_build,
                            [&progress](const std::string& l) { progress.line(l); });
  progress.end_group();
  actions_files.warn_if_changed();
  return session.write_error();
}

// Posts the comment, or says why this run does not: a shard's comparison is posted once merged,
// and the measuring half of the fork-safe pair has no token to post with.
PostOutcome post_or_say_why_not(const Report& report, const RunOptions& options,
                                const Results& results, const Comparison& comparison,
                                const std::optional<ShardSpec>& shard,
                                const std::string& results_path, const Progress& progress) {
  if (shard) {
    // One shard sees only its share: the comparison is judged, and posted, once merged.
    progress.line(fmt::format(
        "shard {} of {} done: {}; join the shards with `benchpr merge SHARD.json... --output "
        "results.json`, then `benchpr publish results.json`",
        shard->index, shard->count, "results in " + results_path));
    return {};
  }
  if (results.pull_request && comparison.fork_with_read_only_token &&
      !github::token_from_environment().empty()) {
    // Without a token this is the measuring half of the fork-safe pair: nothing to point at.
    std::cout << fork_notice("measured and wrote the job summary") << std::endl;
    return {};
  }
  if (!results.pull_request) return {};
  return post_comment(post_request(options, results, report.analysis, report.markdown), progress);
}

// Continues the interrupted comparison: checked against what this run would compare (the same
// revisions, configuration and builds), it replaces `results`, its plan derived by this run.
void resume_into(Results& results, Results resumed, const RunOptions& options,
                 const ResumeDerived& derived, const Progress& progress) {
  std::vector<std::string> notes;
  results = check_resumable(options.resume, std::move(resumed), results, derived, notes);
  for (const std::string& note : notes) progress.line(note);
  progress.line(fmt::format("resuming {}: {} of {} rounds done, same builds, seed {}",
                            options.resume, results.rounds_done, results.plan.size(),
                            results.seed));
}

// The commit a worktree was materialised at, kept beside it for --resume.
void record_worktree_commit(const std::string& file, const std::string& sha) {
  std::ofstream(file, std::ios::binary | std::ios::trunc) << sha << '\n';
}

std::string recorded_worktree_commit(const std::string& file) {
  std::ifstream in(file, std::ios::binary);
  std::string sha;
  if (in) std::getline(in, sha);
  return sha;
}

// Before a resumed comparison measures again: it did not end void, and both worktrees are at
// the file's commits; then their tracked files are written again from those commits.
void check_resumed_workspace(const RunOptions& options, const Results& resumed,
                             const runner::Workspace& ws, git::Repository& repo) {
  std::error_code ec;
  refuse_void(options.resume, resumed, std::filesystem::exists(ws.root + "/void", ec));
  check_worktree_commit(options.resume, "base", resumed.base.sha,
                        recorded_worktree_commit(ws.base_commit_file));
  check_worktree_commit(options.resume, "PR", resumed.head.sha,
                        recorded_worktree_commit(ws.head_commit_file));
  repo.materialise(resumed.base.sha, ws.base_dir);
  repo.materialise(resumed.head.sha, ws.head_dir);
}

void announce_comparison(const Results& results, const runner::Workspace& ws,
                         const Progress& progress) {
  progress.line(fmt::format(
      "comparing base {} ({}) with PR {} ({}), {} rounds + {} warm-up, work directory {}",
      results.base.spec, short_sha(results.base.sha), results.head.spec,
      short_sha(results.head.sha), results.config.rounds, results.config.warmup_rounds, ws.root));
}

// How `run` ends beyond what every comparison does: where its results are, --fail-on, the words
// after its failures, the regressions annotated in an Actions job.
ComparisonEnd run_end(const RunOptions& options, const runner::Workspace& ws) {
  ComparisonEnd end;
  end.results_path = options.output.empty() ? ws.results_path : options.output;
  end.fail_on = options.fail_on;
  end.posting_after = options.markdown.empty() ? " (the report was printed)"
                                               : " (the report was printed and written)";
  end.write_after = " (the comment was printed)";
  end.annotate_regressions = true;
  return end;
}

}  // namespace

int run_command(const RunOptions& given) {
  if (!given.base_exe.empty() || !given.head_exe.empty()) return run_executables(given);
  RunOptions options = given;
  std::optional<Results> resumed = take_resumed(options);
  exec::install_interrupt_handlers();
  protect_own_environment();  // before any code under test can start
  check_comment_key(options.key);
  // Inputs are checked before anything is fetched, built or measured.
  ReportTargets targets = report_targets(options);
  targets.results_file = options.output;
  const std::optional<ShardSpec> shard = requested_shard(options);
  if (resumed && shard)
    throw UserError("--resume: a shard cannot be resumed; rerun the shard without --resume");
  const std::optional<Results> balance = balance_results(options);
  const Progress progress(in_github_actions());
  exec::PosixProcessRunner processes;
  RepoContext ctx(options.directory, processes, github::token_from_environment(),
                  github::resolve_api_url(options.api_url));
  const Comparison comparison = choose_comparison(ctx, options, progress);
  warn_if_dirty(processes, options, comparison, progress);
  git::Repository& repo = *ctx.repo;

  Results results = comparison_results(comparison);
  std::optional<Config> config = load_config(options, repo, results.base.sha);
  warn_if_config_ignored(repo, options, results.base, progress);
  results.config_changed_by_head = config_changed_by_head(repo, options, results);
  const LockedWorkspace locked = lock_workspace(options, repo);
  const runner::Workspace& ws = locked.ws;
  check_outputs_outside_workspace(ws, {options.output, options.markdown, options.html});
  check_output_paths({options.output, options.markdown, options.html});
  warn_if_same_commit(results, progress);
  // A resumed comparison reuses the builds as the interruption left them, once the worktrees
  // are checked to be at its commits.
  if (resumed) {
    check_resumed_workspace(options, *resumed, ws, repo);
  } else {
    repo.materialise(results.base.sha, ws.base_dir);
    record_worktree_commit(ws.base_commit_file, results.base.sha);
  }
  const bool zero_config = !config;
  results.config = zero_config ? zero_config_in_base(options, ws.base_dir, progress) : *config;
  results.seed = comparison_seed(options, shard, results);
  // The default plan spends the default budget: rounds go on (for the benchmarks still open)
  // until every benchmark is decided or the budget is spent. --rounds asks for a fixed plan, and
  // a shard's budget is the merged comparison's, so both keep the fixed rounds.
  ResumeDerived derived;
  derived.default_budget = !results.config.budget_seconds && !options.rounds && !shard;
  if (derived.default_budget) results.config.budget_seconds = kDefaultBudgetSeconds;
  // Before a resumed comparison's configuration is compared with this run's: both then say
  // whether counting is on by default.
  resolve_instruction_counting(processes, results.config, progress);
  if (resumed) {
    if (zero_config)
      derived.discovered = runner::discover_benchmark_suites(
          ws.base_dir + "/" + std::string(runner::kZeroConfigBuildDir), ws.base_dir);
    resume_into(results, std::move(*resumed), options, derived, progress);
  }
  erase_from_environment(results.config.scrub_env);  // declared secret: benchpr needs none
  warn_if_too_few_rounds(results.config, progress);
  if (!resumed)
    results.plan = make_schedule(results.config.rounds, results.config.warmup_rounds, results.seed);
  announce_comparison(results, ws, progress);
  if (!resumed) {
    repo.materialise(results.head.sha, ws.head_dir);
    record_worktree_commit(ws.head_commit_file, results.head.sha);
  }

  runner::SessionSetup setup = revision_session_setup(options, results.config, ws, zero_config,
                                                      shard, balance, processes, progress);
  setup.changed_paths = changed_paths_or_none(repo, results);
  // Everything is checked by now: from here on a failure becomes data, and a final status.
  if (options.status && results.pull_request && !options.dry_run && !shard &&
      !comparison.fork_with_read_only_token) {
    set_pending_status(options.api_url, github::token_from_environment(), *results.pull_request,
                       options.key, results.workflow_run_url, progress);
  }
  ComparisonEnd end = run_end(options, ws);
  end.earlier_write_error =
      build_and_measure(results, setup, options, shard.has_value(), repo, processes, ws, progress);
  end.post = [&](const Report& report) {
    return post_or_say_why_not(report, options, results, comparison, shard, end.results_path,
                               progress);
  };
  return end_comparison(results, targets, end, progress);
}

}  // namespace benchpr::app
