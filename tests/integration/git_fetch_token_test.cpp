// The token in pull-request mode. benchpr fetches the PR's commits with the token as an HTTP header
// in git's environment. The clone's hooks and configuration may have been written by an earlier
// pull request's code (it runs as the same user), so a hook planted in the clone must never run
// with the token. Here for real: an HTTP remote on 127.0.0.1 (git's "dumb" protocol, served from a
// bare repository), the fake GitHub API, and a reference-transaction hook that dumps its
// environment and its parent's.
#include <gtest/gtest.h>
#include <httplib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <mutex>
#include <thread>

#include "benchpr/app/git_remote.hpp"
#include "support/benchpr_process.hpp"
#include "support/fake_github.hpp"
#include "support/temp_repo.hpp"

namespace benchpr::testing {
namespace {

constexpr const char* kRepo = "acme/widgets";

bool contains(const std::string& haystack, const std::string& needle) {
  return haystack.find(needle) != std::string::npos;
}

// Serves a bare repository's files over HTTP and records the Authorization headers it saw.
class GitHttpRemote {
 public:
  explicit GitHttpRemote(const std::string& bare_dir) {
    server_.set_mount_point("/acme/widgets.git", bare_dir);
    server_.set_logger([this](const httplib::Request& req, const httplib::Response&) {
      std::lock_guard<std::mutex> lock(mutex_);
      authorizations_.push_back(req.get_header_value("Authorization"));
    });
    port_ = server_.bind_to_any_port("127.0.0.1");
    thread_ = std::thread([this] { server_.listen_after_bind(); });
  }
  ~GitHttpRemote() {
    server_.stop();
    thread_.join();
  }
  std::string url() const {
    return "http://127.0.0.1:" + std::to_string(port_) + "/acme/widgets.git";
  }
  std::vector<std::string> authorizations() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return authorizations_;
  }

 private:
  httplib::Server server_;
  int port_ = 0;
  std::thread thread_;
  mutable std::mutex mutex_;
  std::vector<std::string> authorizations_;
};

TEST(GitFetchToken, AHookPlantedInTheCloneNeverSeesTheToken) {
  // A project that needs no compiler: a custom suite printing a fixed result.
  TempRepo repo;
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

  TempDir origin;
  run_command("git init -q --bare " + shell_quote(origin.path()));
  repo.git("push -q " + shell_quote(origin.path()) + " main feature:refs/pull/7/head");
  run_command("git update-server-info", origin.path());  // what the dumb protocol reads
  repo.git("branch -q -D feature");  // the head is reachable only through the fetch
  GitHttpRemote remote(origin.path());
  repo.git("remote add origin " + shell_quote(remote.url()));

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

  FakeGitHub github;
  FakePullRequest pr;
  pr.number = 7;
  pr.base_sha = base_sha;
  pr.head_sha = head_sha;
  github.add_pull_request(kRepo, pr);

  const BenchprRun r = run_benchpr(
      BENCHPR_BINARY, {"run", "-C", repo.path(), "--pr", "7", "--repo", kRepo, "--dry-run"},
      {{"GITHUB_TOKEN", github.token()},
       {"GH_TOKEN", ""},
       {"GITHUB_API_URL", github.url()},
       {"GITHUB_ACTIONS", ""},
       {"GITHUB_EVENT_PATH", ""},
       {"GITHUB_REPOSITORY", ""}});
  ASSERT_EQ(r.exit_code, 0) << r.err;

  // The fetch went over HTTP with the token (so the token was in git's environment)...
  const std::string value = app::git_basic_auth_value(github.token());
  bool sent = false;
  for (const auto& a : remote.authorizations()) sent = sent || a == value;
  EXPECT_TRUE(sent) << "the fetch did not carry the token: the test proves nothing";
  // ... and no hook ran with it: nothing it wrote holds the token or the header.
  for (const auto& entry : std::filesystem::directory_iterator(dumps.path())) {
    const std::string content = read_file(entry.path().string());
    EXPECT_FALSE(contains(content, github.token())) << entry.path();
    EXPECT_FALSE(contains(content, value)) << entry.path() << ":\n" << content;
  }
  EXPECT_TRUE(std::filesystem::is_empty(dumps.path()))
      << "a hook of the clone ran during the fetch";
}

// CI containers run benchpr as root, and root may read any process's /proc/<pid>/environ,
// PR_SET_DUMPABLE or not. The benchmark here reads its parent's (benchpr's) while benchpr runs:
// benchpr must have erased the token from it, text included (unsetenv alone leaves the bytes in
// the block /proc shows). Without root the read fails and there is nothing to leak.
TEST(TokenInMemoryOnly, ABenchmarkRunningAsRootCannotReadTheTokenFromBenchprsEnvironment) {
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
      BENCHPR_BINARY, {"run", "-C", repo.path(), "--base", "main", "--head", "main", "--dry-run"},
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
    if (::geteuid() == 0) {
      // The read works (so the absence below means something).
      EXPECT_TRUE(contains(content, "visible_value_777")) << entry.path();
      ++dumps_read;
    }
    for (const std::string& secret :
         {token, std::string("gho_SecondToken_111"), std::string("runtime_Secret_222"),
          std::string("deploy_Secret_666"), std::string("GITHUB_TOKEN=")})
      EXPECT_FALSE(contains(content, secret)) << secret << " in " << entry.path();
  }
  if (::geteuid() == 0) {
    EXPECT_EQ(dumps_read, 4);  // 2 rounds x 2 sides
  }
}

}  // namespace
}  // namespace benchpr::testing
