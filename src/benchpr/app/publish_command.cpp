#include <iostream>

#include "benchpr/app/actions_report.hpp"
#include "benchpr/app/commands.hpp"
#include "benchpr/app/comment_posting.hpp"
#include "benchpr/app/github_access.hpp"
#include "benchpr/app/progress.hpp"
#include "benchpr/app/publish_checks.hpp"
#include "benchpr/app/report_failures.hpp"
#include "benchpr/app/report_output.hpp"
#include "benchpr/app/user_error.hpp"
#include "benchpr/core/results_json.hpp"
#include "benchpr/github/workflow_commands.hpp"
#include "benchpr/runner/results_store.hpp"

namespace benchpr::app {

namespace {

// The results file is untrusted (the job that wrote it ran the pull request's code): it is
// validated while read, every name in it is escaped when rendered, and the pull request it
// names is checked against the workflow_run event before anything is posted.
Results read_results(const std::string& path) {
  try {
    return results_from_string(runner::read_text_file(path));
  } catch (const std::exception& e) {
    throw UserError(e.what());
  }
}

}  // namespace

int publish_command(const PublishOptions& options) {
  check_comment_key(options.key);
  const ReportTargets targets = report_targets(options);
  const Progress progress(in_github_actions());
  Results results = read_results(options.results_file);
  if (options.pr) {
    if (*options.pr <= 0) throw UserError("--pr: expected a pull request number");
    if (!results.pull_request || results.pull_request->number != *options.pr) {
      results.pull_request = PullRequestInfo{};
      results.pull_request->number = *options.pr;
    }
  }
  if (results.pull_request && (!options.repo.empty() || results.pull_request->repo.empty())) {
    results.pull_request->repo = resolve_repo_slug(options.repo, nullptr).full_name();
  }

  const Report report = present_report(results, targets, progress);

  PostOutcome posted;
  bool skipped = false;
  if (!results.pull_request) {
    if (!options.dry_run) {
      progress.line(
          "the results file names no pull request and no --pr was given: nothing "
          "posted");
    }
  } else {
    PostRequest request = post_request(options, results, report.analysis, report.markdown);
    request.require_token = true;
    if (!options.dry_run) {
      const PublishCheck check = check_against_workflow_run(results, options.api_url, progress);
      if (check.verdict == PublishCheck::Verdict::Refuse) {
        posted.state = PostOutcome::State::Failed;
        posted.error = check.why;
      } else if (check.verdict == PublishCheck::Verdict::Skip) {
        if (progress.github_actions())
          std::cout << github::notice_command("benchpr: " + check.why) << std::endl;
        else
          progress.line(check.why);
        skipped = true;
      }
    }
    if (posted.state != PostOutcome::State::Failed && !skipped)
      posted = post_comment(request, progress);
  }
  ReportEnd end;
  end.results_path = options.results_file;
  end.write_errors = report.write_errors;
  return finish_report(report, posted, end, progress);
}

}  // namespace benchpr::app
