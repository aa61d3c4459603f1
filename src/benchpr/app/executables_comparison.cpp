#include "benchpr/app/executables_comparison.hpp"

#include <stdlib.h>
#include <unistd.h>

#include <filesystem>
#include <random>

#include <fmt/format.h>

#include "benchpr/app/actions_event.hpp"
#include "benchpr/app/actions_report.hpp"
#include "benchpr/app/commands.hpp"
#include "benchpr/app/config_loader.hpp"
#include "benchpr/app/github_access.hpp"
#include "benchpr/app/measuring_session_setup.hpp"
#include "benchpr/app/process_hardening.hpp"
#include "benchpr/app/progress.hpp"
#include "benchpr/app/report_output.hpp"
#include "benchpr/app/user_error.hpp"
#include "benchpr/core/plan/schedule.hpp"
#include "benchpr/core/plan/time_plan.hpp"
#include "benchpr/exec/process.hpp"
#include "benchpr/runner/file_digest.hpp"
#include "benchpr/runner/machine_info.hpp"
#include "benchpr/runner/session.hpp"
#include "benchpr/runner/workspace.hpp"

namespace benchpr::app {

namespace {

namespace fs = std::filesystem;

// Both sides' copies have this name, so their paths have the same length (the path lands in
// the process's environment and on its stack) and the suite command is a plain program path,
// which the runner runs from a fresh copy every round.
constexpr const char* kProgram = "benchmark";

// The options that only make sense for revisions.
void refuse_revision_options(const RunOptions& o) {
  const std::pair<bool, const char*> revision_only[] = {
      {!o.base.empty(), "--base"},
      {!o.head.empty(), "--head"},
      {o.pr.has_value(), "--pr"},
      {!o.config_file.empty(), "--config"},
      {!o.shard.empty(), "--shard"},
      {!o.resume.empty(), "--resume"},
      {o.skip_build, "--skip-build"},
      {o.instructions, "--instructions"},
      {o.status, "--status"},
      {!o.balance_from.empty(), "--balance-from"},
      {!o.pr_head.empty(), "--pr-head"},
      {o.compare != CompareMode::MergeBase, "--compare"}};
  for (const auto& [given, flag] : revision_only)
    if (given)
      throw UserError(std::string(flag) +
                      " does not apply with --base-exe/--head-exe (two executables: no "
                      "revisions, nothing built, nothing posted)");
  if (o.base_exe.empty() || o.head_exe.empty())
    throw UserError("--base-exe and --head-exe go together: the base's and the PR's executable");
}

// The executable, checked before anything runs; its SHA-256.
std::string checked_executable(const std::string& path, const char* flag) {
  std::error_code ec;
  if (!fs::is_regular_file(path, ec))
    throw UserError(std::string(flag) + " " + path + ": no such file");
  if (access(path.c_str(), X_OK) != 0)
    throw UserError(std::string(flag) + " " + path + ": not executable (chmod +x it)");
  try {
    return runner::sha256_file(path);
  } catch (const Error& e) {  // a file benchpr cannot read stays what it is (its exit code)
    throw e.with_context(std::string(flag) + ": ");
  }
}

// The suite's name: the executables' common file name when the configuration would take it.
std::string suite_name(const std::string& base, const std::string& head) {
  const std::string a = fs::path(base).filename().string();
  const std::string b = fs::path(head).filename().string();
  const bool plain = !a.empty() && a.size() <= 64 &&
                     a.find_first_not_of(
                         "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
                         "0123456789_.-") == std::string::npos &&
                     a[0] != '.' && a[0] != '-';
  return a == b && plain ? a : std::string(kProgram);
}

std::string work_root(const RunOptions& o) {
  if (!o.workdir.empty()) return o.workdir;
  std::string pattern = (fs::temp_directory_path() / "benchpr-exe-XXXXXX").string();
  if (mkdtemp(pattern.data()) == nullptr)
    throw UserError("cannot create a work directory in " + fs::temp_directory_path().string() +
                    ": pass --workdir DIR");
  return pattern;
}

}  // namespace

int run_executables(const RunOptions& options) {
  refuse_revision_options(options);
  exec::install_interrupt_handlers();
  protect_own_environment();
  check_comment_key(options.key);
  ReportTargets targets = report_targets(options);
  targets.results_file = options.output;
  const std::string base_digest = checked_executable(options.base_exe, "--base-exe");
  const std::string head_digest = checked_executable(options.head_exe, "--head-exe");
  check_output_paths({options.output, options.markdown, options.html});
  const Progress progress(in_github_actions());

  Results results;
  results.tool_version = BENCHPR_VERSION;
  results.origin = Origin::Executables;
  results.base = {options.base_exe, "", "sha256 " + base_digest.substr(0, 12)};
  results.head = {options.head_exe, "", "sha256 " + head_digest.substr(0, 12)};
  results.machine = runner::read_machine_info();
  results.workflow_run_url = this_workflow_run_url();
  Config& config = results.config;
  SuiteConfig suite;
  suite.name = suite_name(options.base_exe, options.head_exe);
  suite.run = std::string("./") + kProgram;
  suite.format = FormatKind::GoogleBenchmark;
  config.suites = {suite};
  apply_overrides(config, options);
  config.filter = options.filter;
  config.bench_args = options.bench_args;
  if (!config.budget_seconds && !options.rounds) config.budget_seconds = kDefaultBudgetSeconds;
  if (base_digest == head_digest) {
    progress.line("warning: " + options.base_exe + " and " + options.head_exe +
                  " are the same file (SHA-256 " + base_digest.substr(0, 12) +
                  "): every difference measured is noise");
  }

  const std::string root = work_root(options);
  std::error_code ec;
  fs::create_directories(root, ec);
  runner::WorkspaceLock lock(root, 0);
  const runner::Workspace ws = runner::prepare_workspace(root);
  for (const auto& [from, dir] :
       {std::pair{options.base_exe, ws.base_dir}, std::pair{options.head_exe, ws.head_dir}}) {
    fs::remove_all(dir, ec);
    fs::create_directories(dir, ec);
    // A copy that cannot be read or written ends the command with its own error and exit code.
    runner::copy_file_hashed(from, dir + "/" + kProgram);
  }
  results.seed = options.seed ? *options.seed : std::random_device{}();
  results.plan = make_schedule(config.rounds, config.warmup_rounds, results.seed);
  progress.line(fmt::format(
      "comparing base {} with PR {}, {} rounds + {} warm-up, work directory {}", options.base_exe,
      options.head_exe, config.rounds, config.warmup_rounds, ws.root));

  const runner::SessionSetup setup = measuring_session_setup(ws, options, config);
  exec::PosixProcessRunner processes;
  progress.begin_group("benchpr: measure");
  runner::Session session(processes, setup,
                          [&progress](const std::string& l) { progress.line(l); });
  session.run(results);
  progress.end_group();

  ComparisonEnd end;
  end.results_path = options.output.empty() ? ws.results_path : options.output;
  end.earlier_write_error = session.write_error();
  end.fail_on = options.fail_on;
  return end_comparison(results, targets, end, progress);
}

}  // namespace benchpr::app
