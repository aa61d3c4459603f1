#include "benchpr/app/publish_checks.hpp"

#include <algorithm>
#include <cstdlib>

#include "benchpr/app/github_access.hpp"
#include "benchpr/github/event_payload.hpp"
#include "benchpr/github/github_error.hpp"
#include "benchpr/github/repo_slug.hpp"

namespace benchpr::app {

std::string check_against_workflow_run(const Results& results, const std::string& api_url,
                                       const Progress& progress) {
  const char* name = std::getenv("GITHUB_EVENT_NAME");
  const char* path = std::getenv("GITHUB_EVENT_PATH");
  if (!name || std::string(name) != "workflow_run" || !path || !*path) return "";
  if (!results.pull_request) return "";
  const PullRequestInfo& pr = *results.pull_request;
  github::WorkflowRunEvent event;
  try {
    event = github::parse_workflow_run_event(github::read_event_file(path));
  } catch (const github::EventError& e) {
    return e.what();
  }
  const std::string number = "#" + std::to_string(pr.number);
  if (!event.repo_full_name.empty() && pr.repo != event.repo_full_name) {
    return "the results file names " + pr.repo + number + ", but this workflow runs for " +
           event.repo_full_name;
  }
  const auto& listed = event.pull_request_numbers;
  if (!listed.empty() && std::find(listed.begin(), listed.end(), pr.number) == listed.end()) {
    return "the results file names pull request " + number +
           ", which is not among the pull requests of the workflow run that produced it";
  }
  auto slug = github::parse_repo_slug(pr.repo);
  if (!slug) return "the results file names no valid repository";
  try {
    auto client = make_github_client(api_url, github::token_from_environment(),
                                     [&progress](const std::string& m) { progress.line(m); });
    const auto actual = client->get_pull_request(slug->owner, slug->name, pr.number);
    if (!event.head_sha.empty() && actual.head_sha != event.head_sha) {
      return "pull request " + number + " is at " + actual.head_sha.substr(0, 7) +
             ", but the workflow run measured " + event.head_sha.substr(0, 7) +
             " (a newer push, or a results file naming another pull request)";
    }
  } catch (const github::GitHubError& e) {
    return e.what();
  }
  return "";
}

}  // namespace benchpr::app
