// benchpr's GitHub behaviour around the comment, against the fake API on loopback with the real
// binary: fork pull requests in a same-repository workflow, pull_request_target, commit
// statuses, the comment policy, stale results in the publishing job, and the /benchmark command.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "support/benchpr_process.hpp"
#include "support/contains.hpp"
#include "support/fake_github.hpp"
#include "support/gbench_project.hpp"
#include "support/temp_repo.hpp"

namespace benchpr::testing {
namespace {

using nlohmann::json;

constexpr const char* kRepo = "acme/widgets";
constexpr int kNumber = 7;
const std::string kHeadSha = "2222222222222222222222222222222222222222";

// The example results file of docs/results-format.md, for pull request #7 of acme/widgets, with
// its head values replaced: `factor(round)` times the base value.
std::string results_file(const std::function<double(int)>& factor) {
  const std::string doc = read_file(std::string(BENCHPR_SOURCE_DIR) + "/docs/results-format.md");
  const std::size_t start = doc.find("```json\n", doc.find("\n## Example")) + 8;
  json j = json::parse(doc.substr(start, doc.find("\n```", start) - start));
  for (auto& series : j["series"]) {
    for (std::size_t r = 0; r < series["base"].size(); ++r)
      series["head"][r] = series["base"][r].get<double>() * factor(static_cast<int>(r));
  }
  j["pull_request"] = {{"number", kNumber},
                       {"repo", kRepo},
                       {"title", "Tweak the parser"},
                       {"labels", json::array()},
                       {"url", "https://github.com/acme/widgets/pull/7"},
                       {"head_sha", kHeadSha}};
  return j.dump(1);
}

// Within ±0.1% in every round: every benchmark unchanged, recommendation merge.
double flat(int round) { return round % 2 == 0 ? 1.001 : 0.999; }
// 30% slower in every round, a little noise: regressions, do-not-merge.
double slower(int round) { return round % 2 == 0 ? 1.31 : 1.29; }

class GitHubEvents : public ::testing::Test {
 protected:
  void SetUp() override { github.add_pull_request(kRepo, pull_request()); }

  static FakePullRequest pull_request() {
    FakePullRequest pr;
    pr.number = kNumber;
    pr.head_sha = kHeadSha;
    pr.title = "Tweak the parser";  // publish takes the title from the API, not from the file
    return pr;
  }

  std::vector<std::pair<std::string, std::string>> env(const std::string& event_name,
                                                       const std::string& event_json) {
    write_file(files / "event.json", event_json);
    return {{"GITHUB_ACTIONS", "true"},
            {"GITHUB_EVENT_NAME", event_name},
            {"GITHUB_EVENT_PATH", files / "event.json"},
            {"GITHUB_STEP_SUMMARY", files / "summary.md"},
            {"GITHUB_OUTPUT", files / "output.txt"},
            {"GITHUB_API_URL", github.url()},
            {"GITHUB_REPOSITORY", kRepo},
            {"GITHUB_TOKEN", github.token()},
            {"GH_TOKEN", ""}};
  }

  BenchprRun publish(const std::string& results, const std::vector<std::string>& extra,
                     const std::string& event_name = "", const std::string& event_json = "{}") {
    write_file(files / "results.json", results);
    std::vector<std::string> args = {"publish", files / "results.json"};
    args.insert(args.end(), extra.begin(), extra.end());
    auto e = env(event_name, event_json);
    if (event_name.empty()) e[0].second = "";  // outside Actions
    return run_benchpr(BENCHPR_BINARY, args, e);
  }

  std::vector<RecordedRequest> requests_to(const std::string& method) const {
    std::vector<RecordedRequest> out;
    for (const auto& r : github.requests())
      if (r.method == method) out.push_back(r);
    return out;
  }

  TempDir files;
  FakeGitHub github;
};

TEST_F(GitHubEvents, StatusFollowsTheRecommendationAndPointsAtTheComment) {
  const BenchprRun merge = publish(results_file(flat), {"--status"});
  ASSERT_EQ(merge.exit_code, 0) << merge.err;
  const BenchprRun dont = publish(results_file(slower), {"--status", "--key", "linux"});
  ASSERT_EQ(dont.exit_code, 0) << dont.err;

  const auto statuses = github.statuses();
  ASSERT_EQ(statuses.size(), 2u);
  const auto comments = github.comments(kRepo, kNumber);
  ASSERT_EQ(comments.size(), 2u);
  EXPECT_EQ(statuses[0].sha, kHeadSha);
  EXPECT_EQ(statuses[0].context, "benchpr");
  EXPECT_EQ(statuses[0].state, "success");
  EXPECT_TRUE(statuses[0].description.starts_with("Merge: ")) << statuses[0].description;
  EXPECT_EQ(statuses[0].target_url, comments[0].html_url);
  EXPECT_EQ(statuses[1].context, "benchpr/linux");
  EXPECT_EQ(statuses[1].state, "failure");
  EXPECT_TRUE(statuses[1].description.starts_with("Don't merge: ")) << statuses[1].description;
  EXPECT_EQ(statuses[1].target_url, comments[1].html_url);
  EXPECT_FALSE(contains(statuses[1].description, "`"));
}

TEST_F(GitHubEvents, WithoutStatusNoStatusIsSet) {
  ASSERT_EQ(publish(results_file(slower), {}).exit_code, 0);
  EXPECT_TRUE(github.statuses().empty());
  EXPECT_EQ(github.comments(kRepo, kNumber).size(), 1u);
}

TEST_F(GitHubEvents, OnChangeMakesNoCommentForAllUnchangedButUpdatesAnExistingOne) {
  // Nothing changed and no comment yet: none is made (the status is still set).
  const BenchprRun quiet = publish(results_file(flat), {"--comment", "on-change", "--status"});
  ASSERT_EQ(quiet.exit_code, 0) << quiet.err;
  EXPECT_TRUE(github.comments(kRepo, kNumber).empty());
  EXPECT_TRUE(contains(quiet.err, "every benchmark is unchanged")) << quiet.err;
  ASSERT_EQ(github.statuses().size(), 1u);
  EXPECT_EQ(github.statuses()[0].target_url, "");  // no comment, no workflow run to point at

  // A regression: a comment is made.
  ASSERT_EQ(publish(results_file(slower), {"--comment", "on-change"}).exit_code, 0);
  auto comments = github.comments(kRepo, kNumber);
  ASSERT_EQ(comments.size(), 1u);
  EXPECT_TRUE(contains(comments[0].body, "regression")) << comments[0].body;

  // Flat again: the existing comment must not keep showing the regression.
  ASSERT_EQ(publish(results_file(flat), {"--comment", "on-change"}).exit_code, 0);
  comments = github.comments(kRepo, kNumber);
  ASSERT_EQ(comments.size(), 1u);
  EXPECT_FALSE(contains(comments[0].body, "❌ regression")) << comments[0].body;

  // never: nothing at all.
  github.clear_requests();
  ASSERT_EQ(publish(results_file(slower), {"--comment", "never"}).exit_code, 0);
  EXPECT_TRUE(requests_to("POST").empty());
  EXPECT_TRUE(requests_to("PATCH").empty());
}

// The results file comes from the job that ran the pull request's code: its config.comment
// does not decide whether publish comments (--comment, the action's input, does).
TEST_F(GitHubEvents, TheResultsFilesCommentPolicyDoesNotChooseWhetherPublishComments) {
  json j = json::parse(results_file(slower));
  j["config"]["comment"] = "never";
  ASSERT_EQ(publish(j.dump(), {}).exit_code, 0);
  EXPECT_EQ(github.comments(kRepo, kNumber).size(), 1u);
  ASSERT_EQ(publish(j.dump(), {"--comment", "never"}).exit_code, 0);
  EXPECT_EQ(github.comments(kRepo, kNumber).size(), 1u);
  EXPECT_TRUE(github.comments(kRepo, kNumber)[0].body.find("regression") != std::string::npos);
  j["config"]["comment"] = "sometimes";
  const BenchprRun bad = publish(j.dump(), {});
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_TRUE(contains(bad.err, "config.comment")) << bad.err;
}

TEST_F(GitHubEvents, StaleResultsInTheWorkflowRunJobEndInANoticeNotAFailure) {
  // The file measured an older head; the pull request has moved on (the fake says 2222...).
  json j = json::parse(results_file(slower));
  const std::string old_head = "1111111111111111111111111111111111111111";
  j["pull_request"]["head_sha"] = old_head;
  json event = {{"workflow_run",
                 {{"id", 1},
                  {"event", "pull_request"},
                  {"conclusion", "success"},
                  {"head_sha", old_head},
                  {"pull_requests", json::array()}}},
                {"repository", {{"full_name", kRepo}}}};
  const BenchprRun stale = publish(j.dump(), {"--status"}, "workflow_run", event.dump());
  EXPECT_EQ(stale.exit_code, 0) << stale.err;
  EXPECT_TRUE(contains(stale.out, "::notice::benchpr: pull request #7 is at 2222222")) << stale.out;
  EXPECT_TRUE(github.comments(kRepo, kNumber).empty());
  EXPECT_TRUE(github.statuses().empty());

  // A run that did not succeed: nothing to post, not an error either.
  event["workflow_run"]["conclusion"] = "failure";
  event["workflow_run"]["head_sha"] = kHeadSha;
  const BenchprRun failed = publish(results_file(slower), {}, "workflow_run", event.dump());
  EXPECT_EQ(failed.exit_code, 0) << failed.err;
  EXPECT_TRUE(contains(failed.out, "ended with 'failure'")) << failed.out;
  EXPECT_TRUE(github.comments(kRepo, kNumber).empty());
}

// A forged results file in the publishing job of the fork-safe pair: it names the pull request
// the run measured, but another commit (another pull request's head, main), a link of its own
// and a comment policy. The status goes on no commit but the one the event names.
json workflow_run_event(const std::string& measured_sha) {
  return {{"workflow_run",
           {{"id", 1},
            {"event", "pull_request"},
            {"conclusion", "success"},
            {"html_url", "https://github.com/acme/widgets/actions/runs/1"},
            {"head_sha", measured_sha},
            {"pull_requests", json::array()}}},
          {"repository", {{"full_name", kRepo}}}};
}

const std::string kOtherSha = "3333333333333333333333333333333333333333";

TEST_F(GitHubEvents, AResultsFileNamingAnotherCommitSetsNoStatusOnIt) {
  json forged = json::parse(results_file(flat));
  forged["pull_request"]["head_sha"] = kOtherSha;
  const BenchprRun r =
      publish(forged.dump(), {"--status"}, "workflow_run", workflow_run_event(kHeadSha).dump());
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_TRUE(contains(r.err,
                       "the results file says it measured 3333333, but the workflow run "
                       "that produced it measured 2222222"))
      << r.err;
  EXPECT_TRUE(github.statuses().empty());
  EXPECT_TRUE(github.comments(kRepo, kNumber).empty());

  // Outside a workflow_run job too: the API's head is the only one a status goes on.
  const BenchprRun local = publish(forged.dump(), {"--status"});
  EXPECT_EQ(local.exit_code, 1) << local.err;
  EXPECT_TRUE(contains(local.err, "acme/widgets#7 is at 2222222")) << local.err;
  EXPECT_TRUE(github.statuses().empty());
}

TEST_F(GitHubEvents, EveryLinkComesFromTheEventOrTheApiNeverFromTheFile) {
  json forged = json::parse(results_file(slower));
  forged["workflow_run_url"] = "https://phish.example/acme/widgets/actions/runs/1";
  forged["pull_request"]["url"] = "https://phish.example/pull/7";
  forged["pull_request"]["title"] = "[perf] forged title";
  forged["config"]["comment"] = "never";  // the file must not choose the policy either
  // --comment never: the status's target is then the run's page, not a comment.
  const BenchprRun quiet = publish(forged.dump(), {"--status", "--comment", "never"},
                                   "workflow_run", workflow_run_event(kHeadSha).dump());
  ASSERT_EQ(quiet.exit_code, 0) << quiet.err;
  ASSERT_EQ(github.statuses().size(), 1u);
  EXPECT_EQ(github.statuses()[0].sha, kHeadSha);
  EXPECT_EQ(github.statuses()[0].target_url, "https://github.com/acme/widgets/actions/runs/1");

  const BenchprRun posted =
      publish(forged.dump(), {"--status"}, "workflow_run", workflow_run_event(kHeadSha).dump());
  ASSERT_EQ(posted.exit_code, 0) << posted.err;
  const auto comments = github.comments(kRepo, kNumber);
  ASSERT_EQ(comments.size(), 1u);  // config.comment "never" in the file changed nothing
  EXPECT_FALSE(contains(comments[0].body, "phish.example")) << comments[0].body;
  EXPECT_TRUE(contains(comments[0].body, "(https://github.com/acme/widgets/actions/runs/1)"))
      << comments[0].body;

  // Outside Actions, the file's link is kept only on GitHub's hosts.
  const BenchprRun local = publish(forged.dump(), {"--dry-run"});
  ASSERT_EQ(local.exit_code, 0) << local.err;
  EXPECT_FALSE(contains(local.out, "phish.example")) << local.out;
  forged["workflow_run_url"] = "https://github.com/acme/widgets/actions/runs/9";
  const BenchprRun kept = publish(forged.dump(), {"--dry-run"});
  EXPECT_TRUE(contains(kept.out, "(https://github.com/acme/widgets/actions/runs/9)")) << kept.out;
}

// ---------------------------------------------------------------------------------------------
// /benchmark

json comment_event(const std::string& body, const std::string& association) {
  return {{"action", "created"},
          {"issue",
           {{"number", kNumber},
            {"pull_request", {{"url", "https://api.github.com/repos/acme/widgets/pulls/7"}}}}},
          {"comment",
           // A comment GitHub has not made (the tests that post one set its id): still a
           // positive integer, as every id GitHub gives is.
           {{"id", 999999},
            {"body", body},
            {"created_at", "2024-06-01T12:00:00Z"},  // after the head's push (2024-01-01)
            {"author_association", association},
            {"user", {{"login", "someone"}}}}},
          {"repository", {{"full_name", kRepo}}}};
}

class BenchmarkCommand : public GitHubEvents {
 protected:
  void SetUp() override {
    GitHubEvents::SetUp();
    github.set_permission(kRepo, "someone", "write");
  }

  BenchprRun command(const std::string& body, const std::string& association,
                     const std::vector<std::string>& extra = {}) {
    json event = comment_event(body, association);
    comment_id = github.add_comment(kRepo, kNumber, body, "someone");
    event["comment"]["id"] = comment_id;
    std::vector<std::string> args = {"slash-command"};
    args.insert(args.end(), extra.begin(), extra.end());
    return run_benchpr(BENCHPR_BINARY, args, env("issue_comment", event.dump()));
  }

  std::string outputs() { return read_file(files / "output.txt"); }

  std::vector<std::string> reactions() const {
    std::vector<std::string> out;
    for (const auto& r : github.reactions())
      if (r.comment_id == comment_id) out.push_back(r.content);
    return out;
  }

  std::int64_t comment_id = 0;
};

// A broken event is named once in one line: the file that cannot be read, or the file whose
// payload is not the job's event.
TEST_F(BenchmarkCommand, AnUnreadableOrWrongEventNamesItsFileOnce) {
  auto environment = env("issue_comment", "{}");
  const BenchprRun wrong = run_benchpr(BENCHPR_BINARY, {"slash-command"}, environment);
  EXPECT_EQ(wrong.exit_code, 2);
  EXPECT_EQ(wrong.err,
            "benchpr: error: the event payload has no \"issue\" and \"comment\" "
            "objects (" +
                (files / "event.json") + ")\n");
  const std::string missing = files / "missing.json";
  for (auto& [name, value] : environment)
    if (name == "GITHUB_EVENT_PATH") value = missing;
  const BenchprRun unreadable = run_benchpr(BENCHPR_BINARY, {"slash-command"}, environment);
  EXPECT_EQ(unreadable.exit_code, 2);
  EXPECT_EQ(unreadable.err, "benchpr: error: cannot read the event payload " + missing + "\n");
  EXPECT_TRUE(github.reactions().empty());
}

TEST_F(BenchmarkCommand, AnOutsiderStartsNoRunAndGetsNoWrite) {
  for (const char* association : {"NONE", "CONTRIBUTOR", "FIRST_TIME_CONTRIBUTOR"}) {
    const BenchprRun r = command("/benchmark rounds=20", association);
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_TRUE(contains(r.out, "starts no run: only owners, members and collaborators")) << r.out;
    EXPECT_TRUE(contains(outputs(), "accepted<<")) << outputs();
    EXPECT_FALSE(contains(outputs(), "\ntrue\n")) << outputs();
  }
  EXPECT_TRUE(requests_to("POST").empty());
  EXPECT_TRUE(github.reactions().empty());
}

TEST_F(BenchmarkCommand, BadArgumentsGetAReplyListingWhatIsAllowed) {
  const BenchprRun r = command("/benchmark rounds=20 threshold=1%", "MEMBER");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(reactions(), std::vector<std::string>{"confused"});
  const auto comments = github.comments(kRepo, kNumber);
  ASSERT_EQ(comments.size(), 2u);  // the command and the reply
  EXPECT_TRUE(contains(comments[1].body, "`threshold=1%`")) << comments[1].body;
  EXPECT_TRUE(contains(comments[1].body, "`rounds=N`")) << comments[1].body;
  EXPECT_FALSE(contains(outputs(), "\ntrue\n")) << outputs();
}

TEST_F(BenchmarkCommand, AMemberStartsARunThatIsPostedAndReactedTo) {
  const BenchprRun accept = command("/benchmark rounds=4 budget=20m", "COLLABORATOR");
  ASSERT_EQ(accept.exit_code, 0) << accept.err;
  EXPECT_EQ(reactions(), std::vector<std::string>{"eyes"});
  const std::string out = outputs();
  EXPECT_TRUE(contains(out, "\ntrue\n")) << out;
  EXPECT_TRUE(contains(out, "\n--pr 7 --pr-head " + kHeadSha + " --rounds 4 --budget 20m\n"))
      << out;

  // The measuring job's results file, posted by the publishing job of the same workflow run,
  // then the final reaction.
  const std::string event = comment_event("/benchmark rounds=4 budget=20m", "COLLABORATOR").dump();
  json e = json::parse(event);
  e["comment"]["id"] = comment_id;
  const BenchprRun posted = publish(results_file(slower), {"--status"}, "issue_comment", e.dump());
  ASSERT_EQ(posted.exit_code, 0) << posted.err;
  const auto comments = github.comments(kRepo, kNumber);
  ASSERT_EQ(comments.size(), 2u);
  EXPECT_TRUE(comments[1].body.starts_with("<!-- benchpr:comment key=default -->"));
  ASSERT_EQ(github.statuses().size(), 1u);

  const BenchprRun done = run_benchpr(BENCHPR_BINARY, {"slash-command", "--done", "success"},
                                      env("issue_comment", e.dump()));
  ASSERT_EQ(done.exit_code, 0) << done.err;
  EXPECT_EQ(reactions(), (std::vector<std::string>{"eyes", "rocket"}));
  // Any other outcome of the run (failure, cancelled, skipped) is 😕.
  const BenchprRun cancelled = run_benchpr(BENCHPR_BINARY, {"slash-command", "--done", "cancelled"},
                                           env("issue_comment", e.dump()));
  ASSERT_EQ(cancelled.exit_code, 0) << cancelled.err;
  EXPECT_EQ(reactions(), (std::vector<std::string>{"eyes", "rocket", "confused"}));
}

TEST_F(BenchmarkCommand, ResultsNamingAnotherPullRequestAreNotPosted) {
  json e = comment_event("/benchmark", "OWNER");
  e["issue"]["number"] = 8;  // the command was on #8; the file names #7
  const BenchprRun r = publish(results_file(slower), {}, "issue_comment", e.dump());
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_TRUE(contains(r.err, "the /benchmark command was written on acme/widgets#8")) << r.err;
  EXPECT_TRUE(github.comments(kRepo, kNumber).empty());
}

// author_association is no permission: a MEMBER of the organisation with only read access to the
// repository (or triage) starts nothing; maintain and admin do.
TEST_F(BenchmarkCommand, ThePermissionOnTheRepositoryDecidesNotTheAssociation) {
  for (const char* role : {"read", "triage"}) {
    github.set_permission(kRepo, "someone", role);
    const BenchprRun r = command("/benchmark", "MEMBER");
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_TRUE(contains(r.out, "only people with write, maintain or admin permission")) << r.out;
    EXPECT_FALSE(contains(outputs(), "\ntrue\n")) << outputs();
  }
  EXPECT_TRUE(requests_to("POST").empty());
  for (const char* role : {"maintain", "admin"}) {
    github.set_permission(kRepo, "someone", role);
    const BenchprRun r = command("/benchmark", "MEMBER");
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_TRUE(contains(outputs(), "\ntrue\n")) << role << outputs();
  }
  bool asked = false;
  for (const auto& request : github.requests())
    asked = asked || request.path == "/repos/acme/widgets/collaborators/someone/permission";
  EXPECT_TRUE(asked);
}

TEST_F(BenchmarkCommand, ABudgetNoRunnerCanSpendIsRefusedWithAReply) {
  const BenchprRun r = command("/benchmark budget=99999999999h", "OWNER");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_FALSE(contains(outputs(), "\ntrue\n")) << outputs();
  const auto comments = github.comments(kRepo, kNumber);
  ASSERT_EQ(comments.size(), 2u);
  EXPECT_TRUE(contains(comments[1].body, "`budget=99999999999h`")) << comments[1].body;
  EXPECT_TRUE(contains(comments[1].body, "at most `6h`")) << comments[1].body;
}

// The bare command means the head when it was written: a push to the pull request's repository
// after the comment (head.repo.pushed_at, GitHub's time) refuses it, naming the head to ask for.
TEST_F(BenchmarkCommand, APushAfterTheCommentRefusesTheBareCommand) {
  FakePullRequest pr = pull_request();
  pr.head_pushed_at = "2024-06-01T12:03:00Z";  // three minutes after the comment
  github.add_pull_request(kRepo, pr);
  const BenchprRun r = command("/benchmark rounds=4", "OWNER");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_FALSE(contains(outputs(), "\ntrue\n")) << outputs();
  EXPECT_FALSE(contains(outputs(), "--pr-head")) << outputs();
  EXPECT_EQ(reactions(), std::vector<std::string>{"confused"});
  const auto comments = github.comments(kRepo, kNumber);
  ASSERT_EQ(comments.size(), 2u);
  EXPECT_TRUE(contains(comments[1].body, "after your command")) << comments[1].body;
  EXPECT_TRUE(contains(comments[1].body, "`/benchmark sha=" + kHeadSha.substr(0, 7) + "`"))
      << comments[1].body;
}

// sha= names the commit: the head's prefix is measured as the full SHA, whenever the last push
// was; another commit is refused, naming the head.
TEST_F(BenchmarkCommand, ShaNamesTheCommitToMeasure) {
  FakePullRequest pr = pull_request();
  pr.head_pushed_at = "2024-06-01T12:03:00Z";
  github.add_pull_request(kRepo, pr);
  const BenchprRun ok = command("/benchmark sha=" + kHeadSha.substr(0, 9) + " rounds=4", "OWNER");
  EXPECT_EQ(ok.exit_code, 0) << ok.err;
  EXPECT_TRUE(contains(outputs(), "\n--pr 7 --pr-head " + kHeadSha + " --rounds 4\n")) << outputs();
  EXPECT_TRUE(contains(ok.out, "accepted: measuring " + kHeadSha + " (named with sha=)")) << ok.out;

  write_file(files / "output.txt", "");
  const BenchprRun other = command("/benchmark sha=" + kOtherSha.substr(0, 7), "OWNER");
  EXPECT_EQ(other.exit_code, 0) << other.err;
  EXPECT_FALSE(contains(outputs(), "\ntrue\n")) << outputs();
  EXPECT_EQ(reactions(), std::vector<std::string>{"confused"});
  const auto comments = github.comments(kRepo, kNumber);
  ASSERT_EQ(comments.size(), 3u);  // two commands, one reply
  EXPECT_TRUE(contains(comments[2].body, "the pull request's head is `" + kHeadSha.substr(0, 7) +
                                             "`, not `" + kOtherSha.substr(0, 7) + "`"))
      << comments[2].body;
}

// Without the comment's time, the bare command cannot be pinned to a head: refused.
TEST_F(BenchmarkCommand, ACommentWithoutItsTimeRefusesTheBareCommand) {
  json event = comment_event("/benchmark", "OWNER");
  event["comment"].erase("created_at");
  event["comment"]["id"] = github.add_comment(kRepo, kNumber, "/benchmark", "someone");
  const BenchprRun r =
      run_benchpr(BENCHPR_BINARY, {"slash-command"}, env("issue_comment", event.dump()));
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_FALSE(contains(outputs(), "\ntrue\n")) << outputs();
  const auto comments = github.comments(kRepo, kNumber);
  ASSERT_EQ(comments.size(), 2u);
  EXPECT_TRUE(contains(comments[1].body, "did not say when the command was written"))
      << comments[1].body;
}

// The publishing job of /benchmark: the status goes on the head the API reports, and a file
// that measured another commit (a push after the command, or a forgery) is refused.
TEST_F(BenchmarkCommand, AResultsFileNamingAnotherCommitIsNotPosted) {
  json forged = json::parse(results_file(flat));
  forged["pull_request"]["head_sha"] = kOtherSha;
  const BenchprRun r = publish(forged.dump(), {"--status"}, "issue_comment",
                               comment_event("/benchmark", "OWNER").dump());
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_TRUE(contains(r.err,
                       "the results file says it measured 3333333, but acme/widgets#7 is "
                       "at 2222222 (a push after the /benchmark command"))
      << r.err;
  EXPECT_TRUE(github.statuses().empty());
  EXPECT_TRUE(github.comments(kRepo, kNumber).empty());
}

// The measuring job measures the head the command was accepted at: a push after the comment
// is refused before anything is fetched or built.
TEST_F(BenchmarkCommand, TheMeasuringJobRefusesAPushAfterTheCommand) {
  TempRepo repo;
  repo.write("README", "x\n");
  repo.commit("first");
  auto environment = env("issue_comment", comment_event("/benchmark", "OWNER").dump());
  const BenchprRun r = run_benchpr(
      BENCHPR_BINARY, {"run", "--pr", "7", "--pr-head", kOtherSha, "--repo", kRepo, "--dry-run"},
      environment, repo.path());
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_TRUE(contains(r.err,
                       "pull request #7 is at 2222222, not 3333333 (pushed after the "
                       "/benchmark command was accepted)"))
      << r.err;
  EXPECT_FALSE(contains(r.out + r.err, "fetching")) << r.out << r.err;
}

}  // namespace
}  // namespace benchpr::testing
