// `/benchmark` on a pull request, in the first of three jobs (docs/github.md): this job holds a
// token that may react and reply but runs no code of the pull request; the measuring job gets
// the arguments from its outputs and only a read token; the publishing job posts.
#include <cstdlib>
#include <iostream>

#include "benchpr/app/actions_event.hpp"
#include "benchpr/app/actions_report.hpp"
#include "benchpr/app/commands.hpp"
#include "benchpr/app/github_access.hpp"
#include "benchpr/app/progress.hpp"
#include "benchpr/app/user_error.hpp"
#include "benchpr/core/base/error.hpp"
#include "benchpr/github/actions_files.hpp"
#include "benchpr/github/benchmark_comment.hpp"
#include "benchpr/github/collaborator_permission.hpp"
#include "benchpr/github/event_payload.hpp"
#include "benchpr/github/workflow_commands.hpp"

namespace benchpr::app {

namespace {

std::string joined(const std::vector<std::string>& args) {
  std::string out;
  for (const auto& a : args) out += (out.empty() ? "" : " ") + a;
  return out;
}

void set_outputs(bool accepted, int number, const std::string& args) {
  const std::string path = env_or_empty("GITHUB_OUTPUT");
  if (path.empty()) {
    std::cout << "accepted=" << (accepted ? "true" : "false") << "\nargs=" << args << std::endl;
    return;
  }
  try {
    github::write_outputs(path, {{"accepted", accepted ? "true" : "false"},
                                 {"pr", accepted ? std::to_string(number) : ""},
                                 {"args", args}});
  } catch (const github::ActionsFileError& e) {
    throw Error(ErrorCategory::Output, std::string("step outputs: ") + e.what());
  }
}

void notice(const Progress& progress, const std::string& text) {
  if (progress.github_actions())
    std::cout << github::notice_command("benchpr: " + text) << std::endl;
  else
    progress.line(text);
}

}  // namespace

int slash_command(const SlashCommandOptions& options) {
  const Progress progress(in_github_actions());
  if (env_or_empty("GITHUB_EVENT_NAME") != "issue_comment")
    throw UserError("slash-command runs in a job started by an issue_comment event");
  const github::IssueCommentEvent event = read_actions_event(github::parse_issue_comment_event);
  const github::SlashCommand command = github::parse_benchmark_command(event.body);
  if (!command.present || !event.on_pull_request || event.action != "created") {
    notice(progress, "the comment is no /benchmark command on a pull request: nothing to do");
    if (!options.done) set_outputs(false, 0, "");
    return kExitOk;
  }
  const std::string who = event.author.empty() ? "the commenter" : "@" + event.author;
  if (!github::may_start_runs(event.author_association)) {
    // No reaction either: an outsider's comment gets no write from this job.
    notice(progress, "/benchmark from " + who + " (" +
                         (event.author_association.empty() ? std::string("no association")
                                                           : event.author_association) +
                         ") starts no run: only owners, members and collaborators can");
    if (!options.done) set_outputs(false, 0, "");
    return kExitOk;
  }
  const auto slug = resolve_repo_slug(event.repo_full_name, nullptr);
  const std::string token = github::token_from_environment();
  if (token.empty()) throw UserError("no GITHUB_TOKEN or GH_TOKEN: cannot react or reply");
  auto client = make_github_client(options.api_url, token,
                                   [&progress](const std::string& m) { progress.line(m); });

  if (options.done) {
    const bool ok = *options.done == RunOutcome::Success;
    client->add_reaction(slug.owner, slug.name, event.comment_id, ok ? "rocket" : "confused");
    progress.line(std::string("/benchmark finished: ") + (ok ? "🚀" : "😕"));
    return kExitOk;
  }
  // author_association is no permission on this repository (an organisation's member may have
  // none): ask the API whether the commenter could push the code themselves.
  if (!github::may_write(
          github::collaborator_permission(*client, slug.owner, slug.name, event.author))) {
    notice(progress, "/benchmark from " + who +
                         " starts no run: only people with write, maintain or admin permission "
                         "on the repository can");
    set_outputs(false, 0, "");
    return kExitOk;
  }
  if (!command.refused.empty()) {
    client->create_comment(slug.owner, slug.name, event.number, github::refusal_reply(command));
    client->add_reaction(slug.owner, slug.name, event.comment_id, "confused");
    notice(progress, "/benchmark from " + who + " refused: arguments it does not take");
    set_outputs(false, 0, "");
    return kExitOk;
  }
  // The head measured is the commit the commenter meant: the one named with sha=, or the head
  // when the comment was written (refused when GitHub took a push to the head repository since).
  // The measuring job refuses any other head (--pr-head), the publishing job any other results.
  const github::PullRequest pr = client->get_pull_request(slug.owner, slug.name, event.number);
  if (pr.head_sha.empty())
    throw Error(ErrorCategory::GitHub, "GitHub's answer for pull request #" +
                                           std::to_string(event.number) + " lacks its head commit");
  const github::HeadDecision head =
      github::decide_head(command, pr.head_sha, pr.head_repo_pushed_at, event.created_at);
  if (head.head_sha.empty()) {
    client->create_comment(slug.owner, slug.name, event.number, head.reply);
    client->add_reaction(slug.owner, slug.name, event.comment_id, "confused");
    notice(progress,
           "/benchmark from " + who + " refused: " +
               (command.sha.empty() ? "the head when the command was written cannot be confirmed"
                                    : "sha=" + command.sha + " is not the pull request's head"));
    set_outputs(false, 0, "");
    return kExitOk;
  }
  client->add_reaction(slug.owner, slug.name, event.comment_id, "eyes");
  const std::string args = joined(github::run_arguments(command, event.number, head.head_sha));
  notice(progress, "/benchmark from " + who + " accepted: measuring " + head.head_sha +
                       (command.sha.empty() ? " (the head when the command was written)"
                                            : " (named with sha=)"));
  progress.line("/benchmark from " + who + " accepted: benchpr run " + args);
  set_outputs(true, event.number, args);
  return kExitOk;
}

}  // namespace benchpr::app
