#include "benchpr/app/publish_checks.hpp"

#include <algorithm>

#include "benchpr/app/actions_event.hpp"
#include "benchpr/app/github_access.hpp"
#include "benchpr/core/base/link_host.hpp"
#include "benchpr/core/base/text.hpp"
#include "benchpr/github/event_payload.hpp"
#include "benchpr/github/github_error.hpp"
#include "benchpr/github/repo_slug.hpp"

namespace benchpr::app {

namespace {

PublishCheck verdict(PublishCheck::Verdict v, std::string why) {
  PublishCheck check;
  check.verdict = v;
  check.why = std::move(why);
  return check;
}
PublishCheck refuse(std::string why) {
  return verdict(PublishCheck::Verdict::Refuse, std::move(why));
}
PublishCheck skip(std::string why) { return verdict(PublishCheck::Verdict::Skip, std::move(why)); }

std::string where(const PullRequestInfo& pr) { return pr.repo + "#" + std::to_string(pr.number); }

// The pull request as the API reports it now; GitHub's failure becomes a refusal.
struct Live {
  std::optional<github::PullRequest> pr;
  std::string error;
};
Live ask_api(const PullRequestInfo& pr, const std::string& api_url, const Progress& progress) {
  const auto slug = github::parse_repo_slug(pr.repo);
  if (!slug) return {std::nullopt, "the results file names no valid repository"};
  try {
    auto client = make_github_client(api_url, github::token_from_environment(),
                                     [&progress](const std::string& m) { progress.line(m); });
    return {client->get_pull_request(slug->owner, slug->name, pr.number), ""};
  } catch (const github::GitHubError& e) {
    return {std::nullopt, e.what()};
  }
}

PublishCheck post(github::PullRequest live, std::string head_sha, std::string run_url) {
  PublishCheck check;
  check.live = std::move(live);
  check.head_sha = std::move(head_sha);
  check.run_url = std::move(run_url);
  return check;
}

PublishCheck check_workflow_run(const Results& results, const std::string& event_path,
                                const std::string& api_url, const Progress& progress) {
  const PullRequestInfo& pr = *results.pull_request;
  github::WorkflowRunEvent event;
  try {
    event = github::parse_workflow_run_event(github::read_event_file(event_path));
  } catch (const github::EventError& e) {
    return refuse(e.what());
  }
  if (!event.conclusion.empty() && event.conclusion != "success") {
    return skip("the measuring run ended with '" + event.conclusion +
                "': its results are not posted");
  }
  const std::string number = "#" + std::to_string(pr.number);
  if (!event.repo_full_name.empty() && pr.repo != event.repo_full_name) {
    return refuse("the results file names " + pr.repo + number + ", but this workflow runs for " +
                  event.repo_full_name);
  }
  const auto& listed = event.pull_request_numbers;
  if (!listed.empty() && std::find(listed.begin(), listed.end(), pr.number) == listed.end()) {
    return refuse("the results file names pull request " + number +
                  ", which is not among the pull requests of the workflow run that produced it");
  }
  if (event.head_sha.empty())
    return refuse("the workflow_run event names no head commit: nothing to check the file against");
  Live live = ask_api(pr, api_url, progress);
  if (!live.pr) return refuse(live.error);
  const std::string file_head = measured_head(results);
  if (live.pr->head_sha != event.head_sha) {
    const std::string why = "pull request " + number + " is at " + short_sha(live.pr->head_sha) +
                            ", but the workflow run measured " + short_sha(event.head_sha);
    // The file's own record of what it measured tells a newer push (stale: the run for the
    // new head will publish) from a file that names another pull request (refused).
    if (file_head == event.head_sha)
      return skip(why + ": a newer push; the run for it will publish");
    return refuse(why + " (a newer push, or a results file naming another pull request)");
  }
  if (file_head != event.head_sha) {
    return refuse("the results file says it measured " + short_sha(file_head) +
                  ", but the workflow run that produced it measured " + short_sha(event.head_sha) +
                  " (the head of pull request " + number + ")");
  }
  return post(std::move(*live.pr), event.head_sha, event.html_url);
}

// A file whose measured head is not the pull request's live head describes another commit.
std::optional<PublishCheck> refuse_other_head(const Results& results, const PullRequestInfo& pr,
                                              const github::PullRequest& live,
                                              const std::string& why) {
  const std::string file_head = measured_head(results);
  if (!live.head_sha.empty() && file_head == live.head_sha) return std::nullopt;
  return refuse("the results file says it measured " + short_sha(file_head) + ", but " + where(pr) +
                " is at " + short_sha(live.head_sha) + why);
}

// The /benchmark workflow: the file comes from its measuring job (which ran the pull request's
// code), so it must name the pull request the command was written on, and the commit it is at.
PublishCheck check_issue_comment(const Results& results, const std::string& event_path,
                                 const std::string& api_url, const Progress& progress) {
  github::IssueCommentEvent event;
  try {
    event = github::parse_issue_comment_event(github::read_event_file(event_path));
  } catch (const github::EventError& e) {
    return refuse(e.what());
  }
  const PullRequestInfo& pr = *results.pull_request;
  if (pr.number != event.number ||
      (!event.repo_full_name.empty() && pr.repo != event.repo_full_name)) {
    return refuse("the results file names " + where(pr) +
                  ", but the /benchmark command was written on " + event.repo_full_name + "#" +
                  std::to_string(event.number));
  }
  Live live = ask_api(pr, api_url, progress);
  if (!live.pr) return refuse(live.error);
  if (auto refused = refuse_other_head(results, pr, *live.pr,
                                       " (a push after the /benchmark command, or a results file "
                                       "naming another commit): comment /benchmark again"))
    return *refused;
  // The three jobs of the /benchmark workflow are one workflow run: this job's page is the
  // measuring job's too.
  const std::string head = live.pr->head_sha;
  return post(std::move(*live.pr), head, this_workflow_run_url());
}

}  // namespace

std::string measured_head(const Results& results) {
  if (results.pull_request && !results.pull_request->head_sha.empty())
    return results.pull_request->head_sha;
  return results.head.sha;
}

PublishCheck check_publish_target(const Results& results, const std::string& api_url,
                                  const Progress& progress) {
  if (!results.pull_request || github::token_from_environment().empty()) return {};
  const std::string name = env_or_empty("GITHUB_EVENT_NAME");
  const std::string path = env_or_empty("GITHUB_EVENT_PATH");
  if (name == "workflow_run" || name == "issue_comment") {
    if (path.empty())
      return refuse("GITHUB_EVENT_PATH is not set: the " + name +
                    " event to check the results file against is missing");
    return name == "workflow_run" ? check_workflow_run(results, path, api_url, progress)
                                  : check_issue_comment(results, path, api_url, progress);
  }
  const PullRequestInfo& pr = *results.pull_request;
  Live live = ask_api(pr, api_url, progress);
  if (!live.pr) return refuse(live.error);
  if (auto refused = refuse_other_head(
          results, pr, *live.pr,
          ": the comment and the status would describe another commit (measure it again)"))
    return *refused;
  // Inside Actions the run is this one (the shards of a sharded workflow ran in it); outside,
  // whoever runs publish chose the file, and its link is kept when it points at GitHub.
  std::string run_url = this_workflow_run_url();
  if (run_url.empty() && link_on_github(results.workflow_run_url, github::resolve_api_url(api_url)))
    run_url = results.workflow_run_url;
  const std::string head = live.pr->head_sha;
  return post(std::move(*live.pr), head, run_url);
}

}  // namespace benchpr::app
