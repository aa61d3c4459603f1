#include <iostream>

#include "benchpr/app/actions_event.hpp"
#include "benchpr/app/actions_report.hpp"
#include "benchpr/app/commands.hpp"
#include "benchpr/app/comment_posting.hpp"
#include "benchpr/app/github_access.hpp"
#include "benchpr/app/input_files.hpp"
#include "benchpr/app/progress.hpp"
#include "benchpr/app/publish_checks.hpp"
#include "benchpr/app/report_failures.hpp"
#include "benchpr/app/report_output.hpp"
#include "benchpr/app/user_error.hpp"
#include "benchpr/core/base/link_host.hpp"
#include "benchpr/core/results_file/results_json.hpp"
#include "benchpr/github/github_client.hpp"
#include "benchpr/github/workflow_commands.hpp"
#include "benchpr/runner/results_store.hpp"

namespace benchpr::app {

namespace {

// The results file is untrusted (the job that wrote it ran the pull request's code): it is
// validated while read, every name in it is escaped when rendered, and the pull request it
// names is checked against the event and the API before anything is posted.
Results read_results(const std::string& path) {
  // A file refused by its reader ends with exit 2 (a ResultsFormatError, input), as one that is
  // not there does; one that cannot be read with its StoreError's 1; all name the file.
  require_existing_files("publish", {path});
  return results_from_string(runner::read_text_file(path));
}

// What the event and the API say replaces what the file says: the commit the status goes on and
// every link in the comment and the status.
void trust_event_and_api(Results& results, const PublishCheck& check) {
  PullRequestInfo& pr = *results.pull_request;
  pr.head_sha = check.head_sha;
  if (check.live) {
    pr.title = check.live->title;
    pr.labels = check.live->labels;
    pr.url = check.live->html_url;
  }
  results.workflow_run_url = check.run_url;
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

  // The file's own link is kept only on GitHub's hosts (a dry run shows what would be posted);
  // when posting, the check below replaces it with the event's or this run's.
  if (!link_on_github(results.workflow_run_url, github::resolve_api_url(options.api_url)))
    results.workflow_run_url.clear();

  PublishCheck check;
  if (results.pull_request && !options.dry_run) {
    check = check_publish_target(results, options.api_url, progress);
    if (check.verdict == PublishCheck::Verdict::Post && check.live)
      trust_event_and_api(results, check);
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
    // The results file was written by a job that ran the pull request's code: it must not choose
    // whether a comment is posted either. --comment (the action's input) or always.
    request.policy = options.comment.value_or(CommentPolicy::Always);
    if (!options.dry_run && pull_request_job_for_fork()) {
      // The merging job of a sharded pull_request workflow: same rule as `run` there.
      std::cout << fork_notice("wrote the job summary") << std::endl;
      skipped = true;
    } else if (check.verdict == PublishCheck::Verdict::Refuse) {
      posted.state = PostOutcome::State::Failed;
      posted.error = check.why;
    } else if (check.verdict == PublishCheck::Verdict::Skip) {
      if (progress.github_actions())
        std::cout << github::notice_command("benchpr: " + check.why) << std::endl;
      else
        progress.line(check.why);
      skipped = true;
    }
    if (posted.state != PostOutcome::State::Failed && !skipped)
      posted = post_comment(request, progress);
  }
  ReportEnd end;
  end.results_path = options.results_file;
  end.write_errors = report.write_errors;
  const int report_code = finish_report(report, posted, end, progress);
  // Publishing finishes what it was given: a file from an unfinished session (a merge missing a
  // shard) failed the job that wrote it, and is reported here as it is.
  return final_exit_code(results, /*unfinished=*/false,
                         fail_on_exit_code(options.fail_on, results, report.analysis), report_code);
}

}  // namespace benchpr::app
