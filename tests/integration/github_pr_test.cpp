// benchpr as a GitHub bot in pull-request mode (`benchpr run --pr N`), for real: a temporary
// clone, a bare repository holding refs/pull/7/head served over HTTP on 127.0.0.1 as the clone
// URL the fake GitHub API reports, and the real binary.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <memory>

#include <sys/stat.h>
#include <unistd.h>

#include <nlohmann/json.hpp>

#include "support/benchpr_process.hpp"
#include "support/contains.hpp"
#include "support/fake_github.hpp"
#include "support/gbench_project.hpp"
#include "support/git_http_remote.hpp"
#include "support/temp_repo.hpp"

namespace benchpr::testing {
namespace {

using nlohmann::json;

constexpr const char* kRepo = "acme/widgets";
constexpr const char* kMarker = "<!-- benchpr:comment key=default -->";

int count_with_marker(const std::vector<FakeComment>& comments) {
  int n = 0;
  for (const auto& c : comments) n += c.body.find(kMarker) == 0 ? 1 : 0;
  return n;
}

// A clone with a two-commit Google Benchmark project; origin (a bare repository) has main and
// the pull request's head as refs/pull/7/head, and the fake API knows pull request #7.
class PullRequestMode : public ::testing::Test {
 protected:
  void SetUp() override {
    GbenchConfig cfg;
    cfg.rounds = 2;
    cfg.warmup = 0;
    cfg.min_time = "0.01";
    cfg.extra = extra_config();
    write_gbench_project(repo, {{"BM_Work", spin(2000), ""}}, cfg);
    base_sha = repo.commit_base_and_branch();
    write_gbench_project(repo, {{"BM_Work", spin(2100), ""}}, cfg);
    head_sha = repo.commit("tweak BM_Work");
    repo.checkout("main");
    run_checked("git init -q --bare " + shell_quote(origin.path()));
    repo.git("remote add origin " + shell_quote(origin.path()));
    repo.git("push -q origin main feature:refs/pull/7/head");
    repo.git("branch -q -D feature");  // the head is reachable only through the fetch
    // benchpr fetches from the clone URL the API reports, over HTTP as from GitHub.
    remote = std::make_unique<GitHttpRemote>(origin.path());

    FakePullRequest pr;
    pr.number = 7;
    pr.title = "Tweak the work loop";
    pr.labels = {"enhancement"};
    pr.base_sha = base_sha;
    pr.head_sha = head_sha;
    pr.clone_url = remote->url();
    github.add_pull_request(kRepo, pr);
  }

  virtual std::string extra_config() { return ""; }

  std::vector<std::pair<std::string, std::string>> env(const std::string& token) const {
    return {{"GITHUB_TOKEN", token}, {"GH_TOKEN", ""},          {"GITHUB_API_URL", github.url()},
            {"GITHUB_ACTIONS", ""},  {"GITHUB_EVENT_PATH", ""}, {"GITHUB_REPOSITORY", ""}};
  }

  BenchprRun run_pr(const std::vector<std::string>& extra, const std::string& token) {
    std::vector<std::string> args = {"run",    "-C",  repo.path(), "--pr", "7",
                                     "--repo", kRepo, "--seed",    "1"};
    args.insert(args.end(), extra.begin(), extra.end());
    return run_benchpr(BENCHPR_BINARY, args, env(token));
  }

  // Requests that change something: not GETs, nor the GraphQL query of the token's login (a
  // read, though sent as a POST).
  std::vector<RecordedRequest> writes() const {
    std::vector<RecordedRequest> out;
    for (const auto& r : github.requests())
      if (r.method != "GET" && r.path != "/graphql") out.push_back(r);
    return out;
  }

  TempRepo repo;
  TempDir origin;
  std::unique_ptr<GitHttpRemote> remote;
  TempDir out;
  FakeGitHub github;
  std::string base_sha, head_sha;
};

TEST_F(PullRequestMode, FirstRunPostsOneCommentAndTheSecondUpdatesItOnPage2) {
  for (int i = 0; i < 35; ++i) github.add_comment(kRepo, 7, "LGTM " + std::to_string(i));
  github.set_max_per_page(30);  // as GitHub's default page size: the comment lands on page 2

  const BenchprRun first = run_pr({"--output", out / "results.json"}, github.token());
  ASSERT_EQ(first.exit_code, 0) << first.err;
  auto comments = github.comments(kRepo, 7);
  ASSERT_EQ(comments.size(), 36u);
  EXPECT_EQ(count_with_marker(comments), 1);
  const FakeComment posted = comments.back();
  EXPECT_EQ(posted.body, first.out);  // what was printed is what was posted
  // The comment says what was compared: the PR head against the merge base with main.
  EXPECT_TRUE(contains(posted.body, "pull/7 head")) << posted.body;
  EXPECT_TRUE(contains(posted.body, "merge base of main")) << posted.body;
  EXPECT_TRUE(contains(first.err, "comment created")) << first.err;

  // The fetched head is the API's head, in benchpr's own ref namespace.
  EXPECT_EQ(repo.git("rev-parse refs/benchpr/pull/7/head"), head_sha);
  const json doc = json::parse(read_file(out / "results.json"));
  EXPECT_EQ(doc["head"]["sha"], head_sha);
  EXPECT_EQ(doc["base"]["sha"], base_sha);
  EXPECT_EQ(doc["pull_request"]["number"], 7);
  EXPECT_EQ(doc["pull_request"]["repo"], kRepo);
  EXPECT_EQ(doc["pull_request"]["title"], "Tweak the work loop");
  EXPECT_EQ(doc["pull_request"]["labels"], json::array({"enhancement"}));
  EXPECT_EQ(doc["pull_request"]["url"], "https://github.com/acme/widgets/pull/7");

  github.clear_requests();
  const BenchprRun second = run_pr({"--rounds", "4"}, github.token());
  ASSERT_EQ(second.exit_code, 0) << second.err;
  comments = github.comments(kRepo, 7);
  ASSERT_EQ(comments.size(), 36u);  // updated, not duplicated
  EXPECT_EQ(count_with_marker(comments), 1);
  EXPECT_EQ(comments.back().id, posted.id);
  EXPECT_EQ(comments.back().body, second.out);
  EXPECT_NE(comments.back().body, posted.body);
  bool read_page_2 = false;
  for (const auto& r : github.requests()) read_page_2 |= r.param("page") == "2";
  EXPECT_TRUE(read_page_2);
  const auto w = writes();
  ASSERT_EQ(w.size(), 1u);
  EXPECT_EQ(w[0].method, "PATCH");
  EXPECT_EQ(w[0].path, "/repos/acme/widgets/issues/comments/" + std::to_string(posted.id));
}

TEST_F(PullRequestMode, ServerErrorsAndARateLimitAreSurvived) {
  github.fail_next(1, 502);
  github.primary_rate_limit_next();  // resets in about a second
  const BenchprRun r = run_pr({}, github.token());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(count_with_marker(github.comments(kRepo, 7)), 1);
  EXPECT_TRUE(contains(r.err, "GitHub answered 502")) << r.err;
  EXPECT_TRUE(contains(r.err, "rate limit")) << r.err;
}

TEST_F(PullRequestMode, DryRunMakesNoWriteRequest) {
  const BenchprRun r = run_pr({"--dry-run"}, github.token());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out.rfind(kMarker, 0), 0u);
  EXPECT_TRUE(writes().empty());
  EXPECT_FALSE(github.requests().empty());  // it did read the pull request
  EXPECT_TRUE(github.comments(kRepo, 7).empty());
}

// In Actions the step that runs benchpr is its parent, alive while the pull request's code runs:
// the token reaches benchpr in a private file instead of that step's environment, and the file
// is gone once read. The fetch, the reads and the comment all carry it.
TEST_F(PullRequestMode, TheTokenComesFromAPrivateFileThatIsDeletedOnceRead) {
  const std::string file = out / "token";
  write_file(file, github.token() + "\n");
  ASSERT_EQ(::chmod(file.c_str(), 0600), 0);
  const BenchprRun r = run_pr({"--token-file", file}, "");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(count_with_marker(github.comments(kRepo, 7)), 1);
  ASSERT_FALSE(github.requests().empty());
  for (const auto& req : github.requests())
    EXPECT_EQ(req.header("Authorization"), "Bearer " + github.token());
  EXPECT_FALSE(std::filesystem::exists(file)) << "the token file was left behind";
}

TEST_F(PullRequestMode, ATokenFileOthersCanReadIsRefusedBeforeAnythingIsFetched) {
  const std::string file = out / "token";
  write_file(file, github.token());
  ASSERT_EQ(::chmod(file.c_str(), 0644), 0);
  auto environment = env("");
  environment.emplace_back("BENCHPR_TOKEN_FILE", file);
  const BenchprRun r = run_benchpr(
      BENCHPR_BINARY, {"run", "-C", repo.path(), "--pr", "7", "--repo", kRepo}, environment);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_TRUE(contains(r.err, "BENCHPR_TOKEN_FILE: " + file +
                                  " is readable or writable by "
                                  "others (mode 0644)"))
      << r.err;
  EXPECT_TRUE(github.requests().empty());
}

TEST_F(PullRequestMode, ARejectedTokenGivesAClearMessageAndExitCode2) {
  const std::string wrong = "ghp_WrongTokenValue_0123456789abcdef";
  const BenchprRun r = run_pr({}, wrong);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_TRUE(contains(r.err, "GitHub rejected the token (401)")) << r.err;
  EXPECT_FALSE(contains(r.err, wrong));
  EXPECT_FALSE(contains(r.out, wrong));
  EXPECT_TRUE(writes().empty());
}

TEST_F(PullRequestMode, MergeModeComparesTheMergeRefWithTheBaseTip) {
  // What GitHub keeps as refs/pull/7/merge: the head merged into the current main.
  repo.git("checkout -q -b merge7 main");
  repo.git("merge -q --no-ff --no-edit " + head_sha);
  const std::string merge_sha = repo.git("rev-parse HEAD");
  repo.git("push -q origin merge7:refs/pull/7/merge");
  repo.git("checkout -q main");
  repo.git("branch -q -D merge7");

  const BenchprRun r =
      run_pr({"--compare", "merge", "--dry-run", "--output", out / "results.json"}, github.token());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json doc = json::parse(read_file(out / "results.json"));
  EXPECT_EQ(doc["head"]["sha"], merge_sha);
  EXPECT_EQ(doc["base"]["sha"], base_sha);
  EXPECT_TRUE(contains(r.out, "pull/7 merge")) << r.out;
}

// Every secret benchpr may hold, and one variable the config asks to remove: the build and
// the benchmark print their environment (and try to read benchpr's) into files, which must
// hold none of them.
class SecretsStayOut : public PullRequestMode {
 protected:
  std::string extra_config() override { return "scrub_env: [MY_DEPLOY_KEY]\n"; }
};

TEST_F(SecretsStayOut, NoSecretReachesTheBuildOrTheBenchmarksAndTheTokenIsNowhere) {
  // Make the project dump its environment from the build and from every benchmark run.
  TempDir dumps;
  GbenchConfig cfg;
  cfg.rounds = 2;
  cfg.warmup = 0;
  cfg.extra = extra_config();
  std::string config = gbench_config(cfg);
  const std::string build = "build: g++";
  config.replace(config.find(build), build.size(),
                 "build: env > " + dumps.path() + "/build-$$.env && g++");
  const std::string run = "run: ./bench_bin";
  config.replace(config.find(run), run.size(),
                 "run: env > " + dumps.path() + "/run-$$.env; cat /proc/$PPID/environ > " +
                     dumps.path() + "/parent-$$.env 2>/dev/null; ./bench_bin");
  repo.write(".benchpr.yml", config);
  const std::string new_base = repo.commit("dump the environment");
  repo.git("push -q origin main");
  // Rebase the pull request on it so the base's configuration is the dumping one.
  repo.git("checkout -q -b pr " + head_sha);
  repo.git("merge -q --no-edit main");
  const std::string new_head = repo.git("rev-parse HEAD");
  repo.git("push -q -f origin pr:refs/pull/7/head");
  repo.git("checkout -q main");
  FakePullRequest pr;
  pr.number = 7;
  pr.base_sha = new_base;
  pr.head_sha = new_head;
  pr.clone_url = remote->url();
  github.add_pull_request(kRepo, pr);

  const std::map<std::string, std::string> secrets = {
      {"GH_TOKEN", "gho_SecretFromGhCli_111"},
      {"ACTIONS_RUNTIME_TOKEN", "runtime_Secret_222"},
      {"ACTIONS_ID_TOKEN_REQUEST_TOKEN", "idtoken_Secret_333"},
      {"ACTIONS_ID_TOKEN_REQUEST_URL", "https://idtoken.invalid/secret_444"},
      {"BENCHPR_TOKEN", "benchpr_Secret_555"},
      {"MY_DEPLOY_KEY", "deploy_Secret_666"}};
  auto environment = env(github.token());
  for (const auto& [k, v] : secrets) {
    environment.erase(std::remove_if(environment.begin(), environment.end(),
                                     [&](const auto& e) { return e.first == k; }),
                      environment.end());
    environment.emplace_back(k, v);
  }
  environment.emplace_back("BENCHPR_TEST_VISIBLE", "visible_value_777");
  // Root may read any process's environment, so the check that benchpr's own is unreadable to
  // its children means something only for an unprivileged benchpr: as root (CI), benchpr runs
  // as `nobody`, owning the trees it works in, with a home of its own.
  TempDir home;
  std::string binary = BENCHPR_BINARY;
  std::vector<std::string> args = {"run", "-C",       repo.path(),         "--pr", "7", "--repo",
                                   kRepo, "--output", out / "results.json"};
  if (geteuid() == 0) {
    for (const std::string& dir :
         {repo.path(), origin.path(), out.path(), dumps.path(), home.path()})
      run_checked("chown -R nobody:nogroup " + shell_quote(dir));
    environment.emplace_back("HOME", home.path());
    args.insert(args.begin(),
                {"--reuid=nobody", "--regid=nogroup", "--clear-groups", "--", BENCHPR_BINARY});
    binary = "/usr/bin/setpriv";
  }
  const BenchprRun r = run_benchpr(binary, args, environment);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  ASSERT_EQ(count_with_marker(github.comments(kRepo, 7)), 1);

  int build_dumps = 0, run_dumps = 0, parent_dumps = 0, unreadable_parents = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dumps.path())) {
    const std::string name = entry.path().filename().string();
    build_dumps += name.starts_with("build-") ? 1 : 0;
    run_dumps += name.starts_with("run-") ? 1 : 0;
    const std::string content = read_file(entry.path().string());
    if (name.starts_with("parent-")) {
      // benchpr's own environment (the parent's) cannot be read at all by the code it runs. A
      // changed benchmark is also profiled under Callgrind, started through a shell: there the
      // parent is that shell, which holds the children's scrubbed environment and is checked
      // for secrets like every other dump below.
      ++parent_dumps;
      unreadable_parents += content.empty() ? 1 : 0;
    } else {
      EXPECT_TRUE(contains(content, "visible_value_777")) << name;  // the dump does work
    }
    EXPECT_FALSE(contains(content, github.token())) << name;
    EXPECT_FALSE(contains(content, "GITHUB_TOKEN=")) << name;
    for (const auto& [k, v] : secrets) {
      EXPECT_FALSE(contains(content, v)) << k << " reached " << name;
    }
  }
  EXPECT_EQ(build_dumps, 2);  // base and head
  EXPECT_GE(run_dumps, 4);    // 2 rounds x 2 sides
  EXPECT_EQ(parent_dumps, run_dumps);
  EXPECT_GE(unreadable_parents, 4) << "a timed run read benchpr's environment";

  // The token is nowhere a person or a later job could read it.
  for (const std::string& text :
       {r.out, r.err, read_file(out / "results.json"), read_file(repo.path() + "/.git/config"),
        read_file(repo.path() + "/.git/benchpr/results.json")}) {
    EXPECT_FALSE(contains(text, github.token()));
  }
  // ... and every API request carried it properly.
  for (const auto& req : github.requests()) {
    EXPECT_EQ(req.header("Authorization"), "Bearer " + github.token());
    EXPECT_TRUE(contains(req.header("User-Agent"), "benchpr/"));
  }
}

TEST_F(PullRequestMode, PublishPostsTheCommentRunWouldHavePosted) {
  const BenchprRun run =
      run_pr({"--dry-run", "--output", out / "results.json", "--markdown", out / "comment.md"},
             github.token());
  ASSERT_EQ(run.exit_code, 0) << run.err;
  ASSERT_TRUE(github.comments(kRepo, 7).empty());

  github.clear_requests();
  const BenchprRun dry = run_benchpr(BENCHPR_BINARY, {"publish", out / "results.json", "--dry-run"},
                                     env(github.token()));
  ASSERT_EQ(dry.exit_code, 0) << dry.err;
  EXPECT_EQ(dry.out, read_file(out / "comment.md"));
  EXPECT_TRUE(github.requests().empty());

  // No --pr, no --repo: both come from the results file.
  const BenchprRun publish =
      run_benchpr(BENCHPR_BINARY, {"publish", out / "results.json"}, env(github.token()));
  ASSERT_EQ(publish.exit_code, 0) << publish.err;
  const auto comments = github.comments(kRepo, 7);
  ASSERT_EQ(comments.size(), 1u);
  EXPECT_EQ(comments[0].body, read_file(out / "comment.md"));

  // Posting that fails still prints the comment, says why, and exits 1.
  const BenchprRun refused = run_benchpr(BENCHPR_BINARY, {"publish", out / "results.json"},
                                         env("ghp_NotTheRightToken_987"));
  EXPECT_EQ(refused.exit_code, 1);
  EXPECT_EQ(refused.out, read_file(out / "comment.md"));
  EXPECT_TRUE(contains(refused.err, "posting failed: GitHub rejected the token (401)"))
      << refused.err;
  EXPECT_FALSE(contains(refused.err, "ghp_NotTheRightToken_987"));
}

}  // namespace
}  // namespace benchpr::testing
