#include <filesystem>
#include <iostream>
#include <random>

#include <fmt/format.h>

#include "benchpr/app/commands.hpp"
#include "benchpr/app/config_loader.hpp"
#include "benchpr/app/report_output.hpp"
#include "benchpr/app/user_error.hpp"
#include "benchpr/core/results_json.hpp"
#include "benchpr/core/schedule.hpp"
#include "benchpr/exec/process.hpp"
#include "benchpr/git/repository.hpp"
#include "benchpr/runner/machine_info.hpp"
#include "benchpr/runner/results_store.hpp"
#include "benchpr/runner/session.hpp"
#include "benchpr/runner/workspace.hpp"

namespace benchpr::app {

namespace {

void progress(const std::string& line) { std::cerr << "benchpr: " << line << std::endl; }

std::uint64_t fresh_seed() {
  std::random_device rd;
  return (static_cast<std::uint64_t>(rd()) << 32) ^ rd();
}

bool fails_job(const RunOptions& o, const Analysis& a) {
  const auto k = a.recommendation.kind;
  if (o.fail_on == "regression") return k == RecommendationKind::DoNotMerge;
  if (o.fail_on == "failed")
    return k == RecommendationKind::DoNotMerge || k == RecommendationKind::Failed;
  return false;
}

RevisionInfo resolve(git::Repository& repo, const std::string& spec) {
  try {
    return repo.resolve(spec);
  } catch (const git::GitError& e) {
    throw UserError(e.what());
  }
}

}  // namespace

int run_command(const RunOptions& options) {
  exec::install_interrupt_handlers();
  if (options.base.empty()) {
    throw UserError("--base REV is required (the revision to compare against, e.g. main)");
  }
  std::unique_ptr<git::Repository> repo;
  try {
    repo = git::open_repository(options.directory);
  } catch (const git::GitError& e) {
    throw UserError(e.what());
  }

  Results results;
  results.tool_version = BENCHPR_VERSION;
  results.base = resolve(*repo, options.base);
  results.head = resolve(*repo, options.head.empty() ? "HEAD" : options.head);
  results.config = load_config(options, *repo, results.base.sha);
  results.config_changed_by_head = false;
  for (const auto& p : repo->changed_paths(results.base.sha, results.head.sha))
    if (p == ".benchpr.yml") results.config_changed_by_head = true;
  results.machine = runner::read_machine_info();
  results.seed = options.seed ? *options.seed : fresh_seed();
  results.plan = make_schedule(results.config.rounds, results.config.warmup_rounds, results.seed);
  if (const char* server = std::getenv("GITHUB_SERVER_URL")) {
    const char* repo_slug = std::getenv("GITHUB_REPOSITORY");
    const char* run_id = std::getenv("GITHUB_RUN_ID");
    if (repo_slug && run_id)
      results.workflow_run_url = fmt::format("{}/{}/actions/runs/{}", server, repo_slug, run_id);
  }

  const std::string root = options.workdir.empty() ? repo->git_dir() + "/benchpr" : options.workdir;
  runner::Workspace ws;
  std::unique_ptr<runner::WorkspaceLock> lock;
  try {
    std::error_code ec;
    std::filesystem::create_directories(root, ec);
    lock = std::make_unique<runner::WorkspaceLock>(root, 0);
    ws = runner::prepare_workspace(root);
  } catch (const runner::WorkspaceError& e) {
    throw UserError(e.what());
  }
  progress(fmt::format(
      "comparing base {} ({}) with PR {} ({}), {} rounds + {} warm-up, work "
      "directory {}",
      results.base.spec, results.base.sha.substr(0, 7), results.head.spec,
      results.head.sha.substr(0, 7), results.config.rounds, results.config.warmup_rounds, ws.root));
  repo->materialise(results.base.sha, ws.base_dir);
  repo->materialise(results.head.sha, ws.head_dir);

  exec::PosixProcessRunner processes;
  runner::SessionSetup setup;
  setup.base_dir = ws.base_dir;
  setup.head_dir = ws.head_dir;
  setup.out_dir = ws.out_dir;
  setup.log_dir = ws.log_dir;
  setup.persist_paths = {ws.results_path};
  if (!options.output.empty()) setup.persist_paths.push_back(options.output);
  setup.skip_build = options.skip_build;
  runner::Session session(processes, setup, progress);
  session.run(results);

  ReportTargets targets;
  targets.templates_dir = options.templates_dir;
  targets.key = options.key;
  targets.markdown_file = options.markdown;
  targets.results_file = options.output;
  const Report report = make_report(results, targets);
  progress(fmt::format("recommendation: {} ({})", to_string(report.analysis.recommendation.kind),
                       report.analysis.recommendation.reason));
  if (!results.complete) return kExitFailure;
  return fails_job(options, report.analysis) ? kExitFailure : kExitOk;
}

int publish_command(const PublishOptions& options) {
  std::string text;
  Results results;
  try {
    text = runner::read_text_file(options.results_file);
    results = results_from_string(text);
  } catch (const std::exception& e) {
    throw UserError(e.what());
  }
  ReportTargets targets;
  targets.templates_dir = options.templates_dir;
  targets.key = options.key;
  targets.markdown_file = options.markdown;
  make_report(results, targets);
  return kExitOk;
}

}  // namespace benchpr::app
