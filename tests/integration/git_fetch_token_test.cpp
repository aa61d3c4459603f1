// The token in pull-request mode. benchpr fetches the PR's commits with the token as an HTTP header
// git reads from a private file. The clone's hooks and configuration may have been written by an
// earlier pull request's code (it runs as the same user), so a hook planted in the clone must never
// run with the token. Here for real: an HTTP remote on 127.0.0.1 (git's "dumb" protocol, served
// from a bare repository), the fake GitHub API, and a reference-transaction hook that dumps its
// environment and its parent's.
#include <gtest/gtest.h>
#include <httplib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <memory>
#include <mutex>
#include <thread>

#include "benchpr/app/git_remote.hpp"
#include "support/benchpr_process.hpp"
#include "support/contains.hpp"
#include "support/fake_github.hpp"
#include "support/git_http_remote.hpp"
#include "support/temp_repo.hpp"

namespace benchpr::testing {
namespace {

constexpr const char* kRepo = "acme/widgets";

// A clone of a custom-suite project whose origin serves refs/pull/7/head over HTTP, and the fake
// API reporting pull request #7 with that server as its clone URL.
class PlantedConfig : public ::testing::Test {
 protected:
  void SetUp() override {
    repo.write(".benchpr.yml",
               "build: 'true'\n"
               "suites:\n"
               "  - name: s\n"
               "    run: cat result.json\n"
               "    format: custom\n"
               "rounds: 2\n"
               "warmup_rounds: 0\n");
    repo.write("result.json", "[{\"name\": \"x\", \"unit\": \"ns\", \"value\": 1}]\n");
    const std::string base_sha = repo.commit_base_and_branch();
    repo.write("README", "the change\n");
    const std::string head_sha = repo.commit("the change");
    repo.checkout("main");
    run_command("git init -q --bare " + shell_quote(origin.path()));
    repo.git("push -q " + shell_quote(origin.path()) + " main feature:refs/pull/7/head");
    repo.git("branch -q -D feature");
    remote = std::make_unique<GitHttpRemote>(origin.path());
    repo.git("remote add origin " + shell_quote(remote->url()));
    pr.number = 7;
    pr.base_sha = base_sha;
    pr.head_sha = head_sha;
    pr.clone_url = remote->url();
  }

  // `proxy` is the runner's own proxy (http_proxy in benchpr's environment), none by default.
  BenchprRun run_pr(const std::string& proxy = "") {
    github.add_pull_request(kRepo, pr);
    return run_benchpr(BENCHPR_BINARY,
                       {"run", "-C", repo.path(), "--pr", "7", "--repo", kRepo, "--dry-run"},
                       {{"GITHUB_TOKEN", github.token()},
                        {"GH_TOKEN", ""},
                        {"GITHUB_API_URL", github.url()},
                        {"GITHUB_ACTIONS", ""},
                        {"GITHUB_EVENT_PATH", ""},
                        {"GITHUB_REPOSITORY", ""},
                        {"http_proxy", proxy},
                        {"HTTP_PROXY", ""},
                        {"no_proxy", ""}});
  }

  bool remote_saw_the_token() const {
    const std::string value = app::git_basic_auth_value(github.token());
    for (const auto& a : remote->authorizations())
      if (a == value) return true;
    return false;
  }

  TempRepo repo;
  TempDir origin;
  std::unique_ptr<GitHttpRemote> remote;
  FakeGitHub github;
  FakePullRequest pr;
};

// The fixture's clone, with a hook in it: what git runs there must never see the token.
using GitFetchToken = PlantedConfig;

TEST_F(GitFetchToken, AHookPlantedInTheCloneNeverSeesTheToken) {
  // The planted hook: runs on every ref update, writes what it can see.
  TempDir dumps;
  const std::string hook = repo.path() + "/.git/hooks/reference-transaction";
  write_file(hook, "#!/bin/sh\nenv > " + dumps.path() + "/hook-$$.env\ncat /proc/$PPID/environ > " +
                       dumps.path() + "/hook-parent-$$.env 2>/dev/null\ncat >/dev/null\nexit 0\n");
  ::chmod(hook.c_str(), 0755);
  // The hook does run for an ordinary ref update (so its silence below means something).
  repo.git("update-ref refs/heads/probe HEAD");
  ASSERT_FALSE(std::filesystem::is_empty(dumps.path())) << "the planted hook does not run";
  for (const auto& entry : std::filesystem::directory_iterator(dumps.path()))
    std::filesystem::remove(entry.path());

  const BenchprRun r = run_pr();
  ASSERT_EQ(r.exit_code, 0) << r.err;

  // The fetch went over HTTP with the token (so git held it)...
  EXPECT_TRUE(remote_saw_the_token())
      << "the fetch did not carry the token: the test proves nothing";
  // ... and no hook ran with it: nothing it wrote holds the token or the header.
  const std::string value = app::git_basic_auth_value(github.token());
  for (const auto& entry : std::filesystem::directory_iterator(dumps.path())) {
    const std::string content = read_file(entry.path().string());
    EXPECT_FALSE(contains(content, github.token())) << entry.path();
    EXPECT_FALSE(contains(content, value)) << entry.path() << ":\n" << content;
  }
  EXPECT_TRUE(std::filesystem::is_empty(dumps.path()))
      << "a hook of the clone ran during the fetch";
}

// An earlier pull request's code wrote the clone's .git/config: origin, a URL rewrite and
// proxies all point at a listener of its own. The token goes to the API's clone URL only.
TEST_F(PlantedConfig, RedirectsAndProxiesInTheCloneNeverReceiveTheToken) {
  RecordingListener evil;
  const std::string evil_repo = evil.url() + "acme/widgets.git";
  repo.git("remote set-url origin " + shell_quote(evil_repo));
  repo.git("config " + shell_quote("url." + evil_repo + ".insteadOf") + " " +
           shell_quote(remote->url()));
  repo.git("config http.proxy " + shell_quote(evil.url()));
  // A proxy for the remote's own URL: more specific than any -c http.proxy= on the command line.
  repo.git("config " + shell_quote("http." + remote->url() + ".proxy") + " " +
           shell_quote(evil.url()));
  repo.git("config http.sslVerify false");
  // The planted configuration does redirect git (so the listener's silence means something).
  run_command("git -C " + shell_quote(repo.path()) + " ls-remote origin");
  ASSERT_FALSE(evil.requests().empty()) << "the planted configuration redirects nothing";
  const std::size_t before = evil.requests().size();

  const BenchprRun r = run_pr();
  // First what the listener received (before the fix: the token, then a failed fetch).
  const auto requests = evil.requests();
  for (std::size_t i = before; i < requests.size(); ++i) {
    EXPECT_FALSE(contains(requests[i], "Authorization")) << requests[i];
    EXPECT_FALSE(contains(requests[i], app::base64_encode("x-access-token:" + github.token())));
  }
  EXPECT_EQ(requests.size(), before) << "benchpr's fetch reached the planted listener";
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(remote_saw_the_token()) << "the fetch did not carry the token";
  EXPECT_EQ(repo.git("rev-parse refs/benchpr/pull/7/head"), pr.head_sha);
}

// A runner behind a proxy sets it in the environment: that is the runner's own network, not the
// clone's configuration, so the --pr fetch goes through it (before: `-c http.proxy=` switched
// every proxy off, the environment's too, and the fetch failed on such runners).
TEST_F(PlantedConfig, TheRunnersOwnProxyFromItsEnvironmentIsUsed) {
  RecordingListener proxy(RecordingListener::Forward::Yes);
  const BenchprRun r = run_pr(proxy.url());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  bool fetched_through_proxy = false;
  for (const auto& request : proxy.requests())
    fetched_through_proxy = fetched_through_proxy || contains(request, remote->url());
  EXPECT_TRUE(fetched_through_proxy) << "the fetch ignored the environment's proxy";
  EXPECT_TRUE(remote_saw_the_token()) << "the fetch did not carry the token";
  EXPECT_EQ(repo.git("rev-parse refs/benchpr/pull/7/head"), pr.head_sha);
}

// A clone URL on a host other than the API's is refused before anything is sent.
TEST_F(PlantedConfig, ACloneUrlOnAnotherHostThanTheApisIsRefused) {
  pr.clone_url =
      "http://localhost:" + remote->url().substr(std::string("http://127.0.0.1:").size());
  const BenchprRun r = run_pr();
  EXPECT_NE(r.exit_code, 0);
  EXPECT_TRUE(contains(r.err, "refusing to send the token")) << r.err;
  EXPECT_TRUE(contains(r.err, "localhost is not 127.0.0.1")) << r.err;
  EXPECT_FALSE(remote_saw_the_token());
}

// CI containers run benchpr as root, and root may read any process's /proc/<pid>/environ,
// PR_SET_DUMPABLE or not. The benchmark here reads its parent's (benchpr's) while benchpr runs:
// benchpr must have erased the token from it, text included (unsetenv alone leaves the bytes in
// the block /proc shows). Without root the read fails and there is nothing to leak, nor to test.
TEST(TokenInMemoryOnly, ABenchmarkRunningAsRootCannotReadTheTokenFromBenchprsEnvironment) {
  if (::geteuid() != 0) {
    GTEST_SKIP() << "needs root: only root can read benchpr's /proc/<pid>/environ (benchpr is "
                    "not dumpable), so as another user the benchmark reads nothing to check";
  }
  TempDir dumps;
  TempRepo repo;
  repo.write(".benchpr.yml",
             "build: 'true'\n"
             "suites:\n"
             "  - name: s\n"
             "    run: sh bench.sh\n"
             "    format: custom\n"
             "scrub_env: [MY_DEPLOY_KEY]\n"
             "rounds: 2\n"
             "warmup_rounds: 0\n");
  repo.write("bench.sh", "cat /proc/$PPID/environ > " + dumps.path() +
                             "/parent-$$.env 2>/dev/null\n"
                             "echo '[{\"name\": \"x\", \"unit\": \"ns\", \"value\": 1}]'\n");
  repo.commit("base");
  const std::string token = "ghs_SecretTokenForTheProcTest_0123456789";
  const BenchprRun r = run_benchpr(
      BENCHPR_BINARY,
      {"run", "-C", repo.path(), "--base", "main", "--head", "main", "--dry-run", "--rounds", "2"},
      {{"GITHUB_TOKEN", token},
       {"GH_TOKEN", "gho_SecondToken_111"},
       {"ACTIONS_RUNTIME_TOKEN", "runtime_Secret_222"},
       {"MY_DEPLOY_KEY", "deploy_Secret_666"},
       {"BENCHPR_TEST_VISIBLE", "visible_value_777"},
       {"GITHUB_ACTIONS", ""},
       {"GITHUB_EVENT_PATH", ""}});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  int dumps_read = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dumps.path())) {
    const std::string content = read_file(entry.path().string());
    // The read works (so the absence below means something).
    EXPECT_TRUE(contains(content, "visible_value_777")) << entry.path();
    ++dumps_read;
    for (const std::string& secret :
         {token, std::string("gho_SecondToken_111"), std::string("runtime_Secret_222"),
          std::string("deploy_Secret_666"), std::string("GITHUB_TOKEN=")})
      EXPECT_FALSE(contains(content, secret)) << secret << " in " << entry.path();
  }
  EXPECT_EQ(dumps_read, 4);  // 2 rounds x 2 sides
}

}  // namespace
}  // namespace benchpr::testing
