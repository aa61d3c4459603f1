// benchpr inside GitHub Actions, for real: a `pull_request` event payload as GitHub writes it
// (tests/data/github, with this test repository's commits), the real binary in the workspace
// checkout, the fake GitHub API, and the job summary and output files the runner provides.
#include <gtest/gtest.h>

#include <map>

#include <nlohmann/json.hpp>

#include "support/benchpr_process.hpp"
#include "support/contains.hpp"
#include "support/fake_github.hpp"
#include "support/gbench_project.hpp"
#include "support/temp_repo.hpp"

namespace benchpr::testing {
namespace {

using nlohmann::json;

constexpr const char* kRepo = "acme/fastjson";  // the event's repository
constexpr int kNumber = 1842;                   // the event's pull request
constexpr const char* kMarker = "<!-- benchpr:comment key=default -->";

// name -> value from a $GITHUB_OUTPUT file written in the `name<<DELIMITER` form.
std::map<std::string, std::string> parse_outputs(const std::string& text) {
  std::map<std::string, std::string> out;
  std::size_t pos = 0;
  while (pos < text.size()) {
    std::size_t eol = text.find('\n', pos);
    const std::string line = text.substr(pos, eol - pos);
    pos = eol + 1;
    const std::size_t sep = line.find("<<");
    if (sep == std::string::npos) continue;
    const std::string name = line.substr(0, sep), delimiter = line.substr(sep + 2);
    const std::size_t end = text.find("\n" + delimiter + "\n", pos - 1);
    if (end == std::string::npos) break;
    out[name] = end < pos ? "" : text.substr(pos, end - pos);
    pos = end + delimiter.size() + 2;
  }
  return out;
}

class ActionsMode : public ::testing::Test {
 protected:
  // Base: BM_Lookup and BM_Parse; the pull request makes BM_Parse four times slower.
  void make_repo(int rounds) {
    GbenchConfig cfg;
    cfg.rounds = rounds;
    cfg.warmup = 0;
    const std::vector<GbenchCase> base = {{"BM_Lookup", spin(1000), ""},
                                          {"BM_Parse", spin(2000), ""}};
    write_gbench_project(repo, base, cfg);
    base_sha = repo.commit("base");
    repo.branch("lookup-no-copy");
    repo.checkout("lookup-no-copy");
    auto head = base;
    head[1].body = spin(8000);
    write_gbench_project(repo, head, cfg);
    head_sha = repo.commit("perf: avoid copying keys in object lookup");
  }

  // The recorded payload (a pull request from a fork) with this repository's commits; with
  // from_fork false, as if its branch were in the repository itself.
  void write_event(bool from_fork = false) {
    json event = json::parse(
        read_file(std::string(BENCHPR_TEST_DATA_DIR) + "/github/pull_request_event.json"));
    if (!from_fork) event["pull_request"]["head"]["repo"]["full_name"] = kRepo;
    event["pull_request"]["base"]["sha"] = base_sha;
    event["pull_request"]["head"]["sha"] = head_sha;
    event["after"] = head_sha;
    write_file(files / "event.json", event.dump(2));
    FakePullRequest pr;
    pr.number = kNumber;
    pr.title = event["pull_request"]["title"];
    pr.base_sha = base_sha;
    pr.head_sha = head_sha;
    github.add_pull_request(kRepo, pr);
  }

  std::vector<std::pair<std::string, std::string>> actions_env(const std::string& token) const {
    return {{"GITHUB_ACTIONS", "true"},
            {"GITHUB_EVENT_NAME", "pull_request"},
            {"GITHUB_EVENT_PATH", files / "event.json"},
            {"GITHUB_STEP_SUMMARY", files / "summary.md"},
            {"GITHUB_OUTPUT", files / "output.txt"},
            {"GITHUB_API_URL", github.url()},
            {"GITHUB_SERVER_URL", "https://github.com"},
            {"GITHUB_REPOSITORY", kRepo},
            {"GITHUB_RUN_ID", "8812345678"},
            {"GITHUB_SHA", head_sha},
            {"GITHUB_TOKEN", token},
            {"GH_TOKEN", ""}};
  }

  TempRepo repo;
  TempDir files;
  FakeGitHub github;
  std::string base_sha, head_sha;
};

TEST_F(ActionsMode, PostsTheCommentWritesSummaryAndOutputsAndFailsOnRegression) {
  make_repo(6);
  write_event();
  // No -C and no revisions: the workspace checkout and the event say everything.
  const BenchprRun r =
      run_benchpr(BENCHPR_BINARY, {"run", "--fail-on", "regression", "--seed", "3"},
                  actions_env(github.token()), repo.path());
  EXPECT_EQ(r.exit_code, 3) << r.err;  // --fail-on regression and a do-not-merge

  const auto comments = github.comments(kRepo, kNumber);
  ASSERT_EQ(comments.size(), 1u) << r.out << r.err;
  const std::string body = comments[0].body;
  EXPECT_EQ(body.rfind(kMarker, 0), 0u);
  EXPECT_TRUE(contains(body, "BM_Parse"));
  EXPECT_TRUE(contains(body, "pull/1842 head")) << body;
  EXPECT_TRUE(contains(body, "merge base of main")) << body;
  EXPECT_TRUE(contains(body, "https://github.com/acme/fastjson/actions/runs/8812345678"));

  // The job summary holds the same report; the outputs say what was found and where.
  EXPECT_EQ(read_file(files / "summary.md"), body);
  const auto outputs = parse_outputs(read_file(files / "output.txt"));
  EXPECT_EQ(outputs.at("recommendation"), "do-not-merge");
  EXPECT_EQ(outputs.at("regressions"), "1");
  EXPECT_EQ(outputs.at("improvements"), "0");
  EXPECT_EQ(outputs.at("failed"), "0");
  EXPECT_EQ(outputs.at("comment-url"), comments[0].html_url);
  EXPECT_EQ(outputs.at("results"), repo.path() + "/.git/benchpr/results.json");
  const json doc = json::parse(read_file(outputs.at("results")));
  EXPECT_EQ(doc["pull_request"]["number"], kNumber);
  EXPECT_EQ(doc["pull_request"]["title"], "perf: avoid copying keys in object lookup");
  EXPECT_EQ(doc["pull_request"]["labels"], json::array({"performance", "area: parser"}));

  // The log: progress in a group, a warning annotation per regression, and the comment printed
  // with workflow commands switched off (it quotes names from the pull request).
  EXPECT_TRUE(contains(r.out, "::group::benchpr: build and measure\n")) << r.out;
  EXPECT_TRUE(contains(r.out, "::endgroup::\n"));
  EXPECT_TRUE(contains(r.out, "::warning title=benchpr regression::BM_Parse (micro) regressed"))
      << r.out;
  EXPECT_FALSE(contains(r.out, "BM_Lookup (micro) regressed"));
  EXPECT_TRUE(contains(r.out, "::stop-commands::ghadelimiter_"));
  EXPECT_TRUE(contains(r.out, body));
}

TEST_F(ActionsMode, ForkSafeSplitMeasuresWithoutATokenAndPublishPostsTheSameComment) {
  make_repo(2);
  write_event(/*from_fork=*/true);
  // The unprivileged job: no token at all, nothing posted, everything kept in the files.
  const BenchprRun run =
      run_benchpr(BENCHPR_BINARY,
                  {"run", "--output", files / "results.json", "--markdown", files / "comment.md"},
                  actions_env(""), repo.path());
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_TRUE(github.requests().empty());
  EXPECT_TRUE(contains(run.out, "was not posted")) << run.out;
  EXPECT_FALSE(contains(run.out, "::notice::")) << "this is the fork-safe pair already";
  const std::string comment = read_file(files / "comment.md");
  EXPECT_EQ(read_file(files / "summary.md"), comment);
  EXPECT_EQ(parse_outputs(read_file(files / "output.txt")).at("results"), files / "results.json");

  // The publishing job (workflow_run): checks that the pull request in the file is the one the
  // run measured, then posts. A file naming a commit the run did not measure is refused.
  auto publish_env = [&](const std::string& measured_sha) {
    json event = {{"action", "completed"},
                  {"workflow_run",
                   {{"id", 8812345678},
                    // The measuring run's page: publish links it, not the file's own link.
                    {"html_url", "https://github.com/acme/fastjson/actions/runs/8812345678"},
                    {"event", "pull_request"},
                    {"conclusion", "success"},
                    {"head_sha", measured_sha},
                    {"pull_requests", json::array()}}},
                  {"repository", {{"full_name", kRepo}}}};
    write_file(files / "workflow_run.json", event.dump());
    auto env = actions_env(github.token());
    for (auto& [k, v] : env) {
      if (k == "GITHUB_EVENT_NAME") v = "workflow_run";
      if (k == "GITHUB_EVENT_PATH") v = files / "workflow_run.json";
    }
    return env;
  };
  const BenchprRun refused = run_benchpr(BENCHPR_BINARY, {"publish", files / "results.json"},
                                         publish_env("0123456789abcdef0123456789abcdef01234567"));
  EXPECT_EQ(refused.exit_code, 1);
  EXPECT_TRUE(contains(refused.err, "posting failed: pull request #1842 is at")) << refused.err;
  EXPECT_TRUE(github.comments(kRepo, kNumber).empty());

  const BenchprRun publish =
      run_benchpr(BENCHPR_BINARY, {"publish", files / "results.json"}, publish_env(head_sha));
  ASSERT_EQ(publish.exit_code, 0) << publish.err;
  const auto comments = github.comments(kRepo, kNumber);
  ASSERT_EQ(comments.size(), 1u);
  EXPECT_EQ(comments[0].body, comment);
}

TEST_F(ActionsMode, AForkPullRequestIsMeasuredAndSummarisedButNothingIsPosted) {
  make_repo(2);
  write_event(/*from_fork=*/true);
  json event = json::parse(read_file(files / "event.json"));
  // The token of a fork's pull_request job is read-only: a POST would get 403.
  const BenchprRun r = run_benchpr(BENCHPR_BINARY, {"run", "--status", "--seed", "3"},
                                   actions_env(github.token()), repo.path());
  EXPECT_EQ(r.exit_code, 0) << r.err;
  for (const auto& request : github.requests()) EXPECT_EQ(request.method, "GET") << request.path;
  EXPECT_TRUE(github.comments(kRepo, kNumber).empty());
  EXPECT_TRUE(github.statuses().empty());
  EXPECT_TRUE(contains(read_file(files / "summary.md"), "BM_Parse"));
  // One notice, pointing at the fork-safe pair.
  const std::string notice = "::notice::benchpr: this pull request comes from a fork";
  ASSERT_TRUE(contains(r.out, notice)) << r.out;
  EXPECT_EQ(r.out.find(notice), r.out.rfind(notice));
  EXPECT_TRUE(contains(r.out, "fork-safe pair")) << r.out;

  // A deleted fork (head.repo null) is a fork too.
  event["pull_request"]["head"]["repo"] = nullptr;
  write_file(files / "event.json", event.dump());
  const BenchprRun deleted =
      run_benchpr(BENCHPR_BINARY, {"run", "--seed", "3"}, actions_env(github.token()), repo.path());
  EXPECT_EQ(deleted.exit_code, 0) << deleted.err;
  EXPECT_TRUE(contains(deleted.out, notice)) << deleted.out;
  EXPECT_TRUE(github.comments(kRepo, kNumber).empty());
}

TEST_F(ActionsMode, PullRequestTargetIsRefusedWithoutTheFlagThatNamesTheRisk) {
  make_repo(2);
  write_event();
  auto env = actions_env(github.token());
  for (auto& [k, v] : env)
    if (k == "GITHUB_EVENT_NAME") v = "pull_request_target";
  const BenchprRun r = run_benchpr(BENCHPR_BINARY, {"run"}, env, repo.path());
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_TRUE(contains(r.err, "refusing to run in a pull_request_target job")) << r.err;
  EXPECT_TRUE(contains(r.err, "--run-pr-code-with-write-token")) << r.err;
  EXPECT_TRUE(github.requests().empty());
  EXPECT_FALSE(contains(r.err, "building")) << r.err;

  const BenchprRun allowed = run_benchpr(
      BENCHPR_BINARY, {"run", "--dry-run", "--run-pr-code-with-write-token"}, env, repo.path());
  EXPECT_EQ(allowed.exit_code, 0) << allowed.err;
}

TEST_F(ActionsMode, AShallowCheckoutGetsItsHistoryFetched) {
  make_repo(2);
  write_event();
  // actions/checkout's default: the tip only, depth 1.
  TempDir workspace;
  run_checked("git clone -q --depth 1 --branch lookup-no-copy file://" + repo.path() + " " +
              shell_quote(workspace / "ws"));
  ASSERT_EQ(run_command("git cat-file -e " + base_sha, workspace / "ws").exit_code == 0, false);
  const BenchprRun r = run_benchpr(BENCHPR_BINARY, {"run", "--dry-run"},
                                   actions_env(github.token()), workspace / "ws");
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_TRUE(contains(r.out, "the checkout is shallow: fetching its history")) << r.out;
  EXPECT_TRUE(contains(r.out, base_sha.substr(0, 7))) << r.out;
}

}  // namespace
}  // namespace benchpr::testing
