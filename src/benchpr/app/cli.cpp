#include "benchpr/app/cli.hpp"

#include <iostream>

#include <CLI/CLI.hpp>

#include "benchpr/app/commands.hpp"
#include "benchpr/app/options.hpp"
#include "benchpr/app/user_error.hpp"
#include "benchpr/core/results_json.hpp"
#include "benchpr/git/repository.hpp"
#include "benchpr/github/github_error.hpp"
#include "benchpr/runner/results_store.hpp"
#include "benchpr/runner/workspace.hpp"

namespace benchpr::app {

namespace {

// The options `run` and `publish` share: where the report goes and which pull request gets it.
// Both option structs name these fields alike.
template <typename Options>
void add_report_options(CLI::App& cmd, Options& o, const std::string& pr_help) {
  cmd.add_option("--markdown", o.markdown, "Write the comment's markdown here");
  cmd.add_option("--html", o.html, "Write a self-contained HTML report (charts per round) here");
  cmd.add_option("--templates", o.templates_dir, "Directory of *.mustache templates to use");
  cmd.add_option("--key", o.key, "Sticky-comment key, for several benchpr comments on one PR");
  cmd.add_flag("--dry-run", o.dry_run, "Print the markdown; post nothing");
  cmd.add_option("--pr", o.pr, pr_help);
  cmd.add_option("--repo", o.repo, "OWNER/NAME of the repository on GitHub");
  cmd.add_option("--api-url", o.api_url, "GitHub API base URL (default: $GITHUB_API_URL)");
  cmd.add_option("--comment", o.comment,
                 "When to post the comment: always, on-change (some verdict is not unchanged; "
                 "an existing comment is still updated) or never (default: the config's)")
      ->check(CLI::IsMember({"always", "on-change", "never"}));
  cmd.add_option("--comment-author", o.comment_author,
                 "Login whose marked comment is benchpr's (default: the token's own; "
                 "github-actions[bot] for GITHUB_TOKEN)");
  cmd.add_flag("--status", o.status,
               "Set the commit status benchpr (benchpr/KEY) on the pull request's head");
}

void add_run_options(CLI::App& run, RunOptions& o) {
  run.add_option("--base", o.base,
                 "Revision to compare against (branch, tag, SHA, HEAD~2); not needed with --pr "
                 "or inside a GitHub Actions pull_request job");
  run.add_option("--head", o.head, "Revision of the change (default HEAD)");
  run.add_option("-C,--directory", o.directory, "Repository to work in (default: .)");
  run.add_option("--config", o.config_file,
                 "Configuration file (default: .benchpr.yml of the base revision)");
  run.add_option("--rounds", o.rounds, "Analysed rounds (overrides the config)");
  run.add_option("--warmup", o.warmup_rounds, "Warm-up rounds (overrides the config)");
  run.add_option("--threshold", o.threshold, "Practical threshold, e.g. 2% (overrides the config)");
  run.add_option("--budget", o.budget, "Time budget for adaptive rounds, e.g. 20m");
  run.add_option("--output", o.output, "Write the results JSON here (updated after every round)");
  run.add_option("--workdir", o.workdir,
                 "Work directory for worktrees and logs (default: <git dir>/benchpr)");
  run.add_option("--fail-on", o.fail_on, "Exit non-zero on: never, regression, failed")
      ->check(CLI::IsMember({"never", "regression", "failed"}));
  run.add_option("--seed", o.seed, "Seed of the round order (default: random, recorded)");
  run.add_flag("--skip-build", o.skip_build, "Reuse the builds already in the work directory");
  run.add_option("--compare", o.compare, "PR mode: merge-base (default) or merge")
      ->check(CLI::IsMember({"merge-base", "merge"}));
  add_report_options(run, o,
                     "Pull request number: asks the GitHub API for it, fetches it from origin, "
                     "compares and posts the comment");
  run.add_flag("--run-pr-code-with-write-token", o.pull_request_target_write_token,
               "Allow a pull_request_target job: it builds and runs the pull request's code with "
               "a token that can write to the repository (see docs/github.md)");
}

void add_publish_options(CLI::App& publish, PublishOptions& o) {
  publish.add_option("results", o.results_file, "Results file written by `benchpr run --output`")
      ->required();
  add_report_options(publish, o, "Pull request number (default: the one in the file)");
}

void add_init_options(CLI::App& init, InitOptions& o) {
  init.add_option("-C,--directory", o.directory, "Project directory (default: .)");
  init.add_flag("--force", o.force, "Replace existing .benchpr.yml and workflow files");
}

}  // namespace

int run_cli(int argc, char** argv) {
  CLI::App app{
      "benchpr: tells a pull request, with evidence, whether it makes the code faster or "
      "slower.\nBuilds base and PR, runs their benchmarks in interleaved rounds, and writes "
      "the comment."};
  app.set_version_flag("--version", std::string("benchpr ") + BENCHPR_VERSION);
  app.require_subcommand(1);
  RunOptions run_options;
  PublishOptions publish_options;
  CLI::App* run = app.add_subcommand("run", "Compare two revisions and report");
  add_run_options(*run, run_options);
  CLI::App* publish =
      app.add_subcommand("publish", "Render and post the comment from a results file");
  add_publish_options(*publish, publish_options);
  SlashCommandOptions slash_options;
  CLI::App* slash = app.add_subcommand(
      "slash-command",
      "In an issue_comment job: accept or refuse a /benchmark comment (see docs/github.md)");
  slash->add_option("--api-url", slash_options.api_url,
                    "GitHub API base URL (default: $GITHUB_API_URL)");
  slash
      ->add_option("--done", slash_options.done,
                   "The run it started finished: success (🚀) or failure (😕)")
      ->check(CLI::IsMember({"success", "failure", "cancelled", "skipped"}));
  InitOptions init_options;
  CLI::App* init = app.add_subcommand(
      "init", "Write a .benchpr.yml for this project and a GitHub workflow that runs benchpr");
  add_init_options(*init, init_options);

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int code = app.exit(e);
    return code == 0 ? kExitOk : kExitUsage;
  }
  try {
    if (run->parsed()) return run_command(run_options);
    if (publish->parsed()) return publish_command(publish_options);
    if (init->parsed()) return init_command(init_options);
    if (slash->parsed()) return slash_command(slash_options);
  } catch (const UserError& e) {
    std::cerr << "benchpr: error: " << e.what() << std::endl;
    return kExitUsage;
  } catch (const runner::StoreError& e) {
    std::cerr << "benchpr: error: " << e.what() << std::endl;
    return kExitFailure;
  } catch (const github::GitHubError& e) {
    // Reading the pull request failed: a token, repository or number to fix is configuration.
    std::cerr << "benchpr: error: " << e.what() << std::endl;
    const long s = e.status();
    return s == 401 || s == 403 || s == 404 ? kExitUsage : kExitFailure;
  } catch (const git::GitError& e) {
    std::cerr << "benchpr: error: " << e.what() << std::endl;
    return kExitFailure;
  } catch (const std::exception& e) {
    std::cerr << "benchpr: error: " << e.what() << std::endl;
    return kExitFailure;
  }
  return kExitUsage;
}

}  // namespace benchpr::app
