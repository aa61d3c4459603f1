#include "benchpr/app/publish_checks.hpp"

#include <algorithm>
#include <cstdlib>

#include "benchpr/app/github_access.hpp"
#include "benchpr/core/text.hpp"
#include "benchpr/github/event_payload.hpp"
#include "benchpr/github/github_error.hpp"
#include "benchpr/github/repo_slug.hpp"

namespace benchpr::app {

namespace {

PublishCheck refuse(std::string why) { return {PublishCheck::Verdict::Refuse, std::move(why)}; }
PublishCheck skip(std::string why) { return {PublishCheck::Verdict::Skip, std::move(why)}; }

// The /benchmark workflow: the file comes from its measuring job (which ran the pull request's
// code), so it must name the pull request the command was written on.
PublishCheck check_against_issue_comment(const Results& results, const char* path) {
  github::IssueCommentEvent event;
  try {
    event = github::parse_issue_comment_event(github::read_event_file(path));
  } catch (const github::EventError& e) {
    return refuse(e.what());
  }
  const PullRequestInfo& pr = *results.pull_request;
  if (pr.number != event.number ||
      (!event.repo_full_name.empty() && pr.repo != event.repo_full_name)) {
    return refuse("the results file names " + pr.repo + "#" + std::to_string(pr.number) +
                  ", but the /benchmark command was written on " + event.repo_full_name + "#" +
                  std::to_string(event.number));
  }
  return {};
}

}  // namespace

PublishCheck check_against_workflow_run(const Results& results, const std::string& api_url,
                                        const Progress& progress) {
  const char* name = std::getenv("GITHUB_EVENT_NAME");
  const char* path = std::getenv("GITHUB_EVENT_PATH");
  if (!name || !path || !*path || !results.pull_request) return {};
  if (std::string(name) == "issue_comment") return check_against_issue_comment(results, path);
  if (std::string(name) != "workflow_run") return {};
  const PullRequestInfo& pr = *results.pull_request;
  github::WorkflowRunEvent event;
  try {
    event = github::parse_workflow_run_event(github::read_event_file(path));
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
  auto slug = github::parse_repo_slug(pr.repo);
  if (!slug) return refuse("the results file names no valid repository");
  try {
    auto client = make_github_client(api_url, github::token_from_environment(),
                                     [&progress](const std::string& m) { progress.line(m); });
    const auto actual = client->get_pull_request(slug->owner, slug->name, pr.number);
    if (!event.head_sha.empty() && actual.head_sha != event.head_sha) {
      const std::string why = "pull request " + number + " is at " + short_sha(actual.head_sha) +
                              ", but the workflow run measured " + short_sha(event.head_sha);
      // The file's own record of what it measured tells a newer push (stale: the run for the
      // new head will publish) from a file that names another pull request (refused).
      if (!pr.head_sha.empty() && pr.head_sha == event.head_sha)
        return skip(why + ": a newer push; the run for it will publish");
      return refuse(why + " (a newer push, or a results file naming another pull request)");
    }
  } catch (const github::GitHubError& e) {
    return refuse(e.what());
  }
  return {};
}

}  // namespace benchpr::app
