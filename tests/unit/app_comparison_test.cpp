// What a run compares, against a repository and remotes in memory (tests/support/fake_git): the
// revisions each way resolves, what it fetches from where, and the error each failure ends as
// (whose problem it is decides the exit code).
#include "benchpr/app/comparison.hpp"

#include <cstdlib>
#include <memory>
#include <string>

#include <gtest/gtest.h>

#include "benchpr/app/user_error.hpp"
#include "benchpr/github/http.hpp"
#include "support/fake_git.hpp"
#include "support/temp_dir.hpp"

namespace benchpr::app {
namespace {

using testing::FakeGit;
using testing::TempDir;

const std::string kBase(40, 'a');
const std::string kHead(40, 'b');
const std::string kTip(40, 'c');  // the base branch's tip, ahead of the merge base
const std::string kCloneUrl = "https://github.com/acme/widgets.git";

// No process may run: every git operation goes through the fakes.
class NoProcesses : public exec::ProcessRunner {
 public:
  exec::ProcessResult run(const exec::ProcessSpec& spec) override {
    ADD_FAILURE() << "ran a process: " << spec.command;
    return {};
  }
};

// The GitHub API's answer for GET /pulls/7, and nothing else.
class OnePullRequest : public github::HttpTransport {
 public:
  explicit OnePullRequest(std::string head_sha) : head_sha_(std::move(head_sha)) {}
  github::HttpResponse send(const github::HttpRequest& request) override {
    if (request.url.find("/repos/acme/widgets/pulls/7") == std::string::npos)
      return {404, R"({"message": "Not Found"})", {}};
    const std::string body = R"({"number": 7, "title": "Faster parse", "html_url":
        "https://github.com/acme/widgets/pull/7", "labels": [{"name": "perf"}],
        "base": {"ref": "main", "sha": ")" +
                             kTip + R"(", "repo": {"clone_url": ")" + kCloneUrl + R"("}},
        "head": {"ref": "fast", "sha": ")" +
                             head_sha_ + R"(", "repo": {"full_name": "someone/widgets"}}})";
    return {200, body, {}};
  }

 private:
  std::string head_sha_;
};

template <class ErrorType, class F>
std::string error_of(F&& f) {
  try {
    f();
  } catch (const ErrorType& e) {
    return e.what();
  }
  ADD_FAILURE() << "no error of the expected type";
  return "";
}

struct ComparisonTest : ::testing::Test {
  FakeGit git;
  NoProcesses processes;
  Progress progress{false};
  RunOptions options;

  RepoContext context() { return RepoContext("/repo", processes, git.fetcher(), git.opener()); }

  Comparison pull_request(const std::string& api_head_sha = kHead) {
    github::GitHubClient client(std::make_shared<OnePullRequest>(api_head_sha));
    RepoContext ctx = context();
    options.pr = 7;
    return pull_request_comparison(ctx, options, client, {"acme", "widgets"}, progress);
  }

  // The pull request's refs as GitHub serves them from its clone URL.
  void serve_pull_request(const std::string& head_sha = kHead) {
    git.remotes[kCloneUrl].brings = {{"refs/benchpr/pull/7/head", head_sha},
                                     {"refs/benchpr/pull/7/base", kTip}};
  }
};

TEST_F(ComparisonTest, LocalRevisionsResolveAsGiven) {
  git.add("main", kBase, "Base");
  git.add("HEAD", kHead, "Change");
  options.base = "main";
  RepoContext ctx = context();
  const Comparison c = local_comparison(ctx, options);
  EXPECT_EQ(c.base.sha, kBase);
  EXPECT_EQ(c.base.spec, "main");
  EXPECT_EQ(c.head.sha, kHead);  // --head defaults to HEAD
  EXPECT_EQ(c.head.subject, "Change");
  EXPECT_FALSE(c.pull_request);
  EXPECT_TRUE(git.fetches.empty());
}

TEST_F(ComparisonTest, WithoutABaseTheUserIsToldWhatToPass) {
  git.add("HEAD", kHead);
  RepoContext ctx = context();
  const std::string message = error_of<UserError>([&] { local_comparison(ctx, options); });
  EXPECT_NE(message.find("--base REV is required"), std::string::npos) << message;
}

// A revision that does not exist is the user's to fix (exit 2), and the message names it.
TEST_F(ComparisonTest, AMissingRevisionIsAUsageErrorNamingIt) {
  git.add("HEAD", kHead);
  options.base = "mian";
  RepoContext ctx = context();
  const std::string message = error_of<UserError>([&] { local_comparison(ctx, options); });
  EXPECT_NE(message.find("'mian'"), std::string::npos) << message;
}

// Only "not found" means a commit may still be fetched: a repository that cannot answer is a
// git error that rises as it is.
TEST_F(ComparisonTest, HasCommitIsFalseOnlyForAMissingCommit) {
  git.add("HEAD", kHead);
  git.break_revision(kBase, "object file .git/objects/aa/aaaa is empty");
  RepoContext ctx = context();
  EXPECT_TRUE(ctx.has_commit(kHead));
  EXPECT_FALSE(ctx.has_commit(kTip));
  EXPECT_THROW(ctx.has_commit(kBase), git::GitError);
}

TEST_F(ComparisonTest, APullRequestIsFetchedFromItsCloneUrlAndComparedWithItsMergeBase) {
  serve_pull_request();
  git.add(kBase, kBase, "Merge base");
  git.set_merge_base(kTip, kHead, kBase);
  git.origin = "https://evil.example/widgets.git";  // the clone's configuration: never used
  const Comparison c = pull_request();
  ASSERT_EQ(git.fetches.size(), 1u);
  EXPECT_EQ(git.fetches[0].url, kCloneUrl);
  EXPECT_EQ(git.fetches[0].refspecs,
            (std::vector<std::string>{"+refs/pull/7/head:refs/benchpr/pull/7/head",
                                      "+refs/heads/main:refs/benchpr/pull/7/base"}));
  EXPECT_GE(git.opened, 2) << "the repository was not reopened after the fetch";
  EXPECT_EQ(c.head.sha, kHead);
  EXPECT_EQ(c.head.spec, "pull/7 head");
  EXPECT_EQ(c.base.sha, kBase);
  EXPECT_TRUE(c.base.merge_base);
  EXPECT_EQ(c.base.spec, "merge base of main");
  ASSERT_TRUE(c.pull_request);
  EXPECT_EQ(c.pull_request->number, 7);
  EXPECT_EQ(c.pull_request->repo, "acme/widgets");
  EXPECT_EQ(c.pull_request->head_sha, kHead);
  EXPECT_EQ(c.pull_request->labels, std::vector<std::string>{"perf"});
}

TEST_F(ComparisonTest, AFailedFetchIsAGitErrorNamingTheUrlAndGitsWords) {
  git.remotes[kCloneUrl].problem = "fatal: unable to access: Could not resolve host";
  const std::string message = error_of<git::GitError>([&] { pull_request(); });
  EXPECT_NE(message.find("cannot fetch pull request #7 from " + kCloneUrl), std::string::npos)
      << message;
  EXPECT_NE(message.find("Could not resolve host"), std::string::npos) << message;
}

TEST_F(ComparisonTest, AMergeRefThatCannotBeFetchedSuggestsTheMergeBase) {
  git.remotes[kCloneUrl].problem = "fatal: couldn't find remote ref refs/pull/7/merge";
  options.compare = CompareMode::Merge;
  const std::string message = error_of<git::GitError>([&] { pull_request(); });
  EXPECT_NE(message.find("try --compare merge-base"), std::string::npos) << message;
}

// The branch moved between the API's answer and the fetch: measuring either would be wrong.
TEST_F(ComparisonTest, AFetchedHeadOtherThanTheApisIsRefused) {
  serve_pull_request(kTip);
  const std::string message = error_of<git::GitError>([&] { pull_request(kHead); });
  EXPECT_NE(message.find("the branch moved while benchpr fetched it"), std::string::npos)
      << message;
}

TEST_F(ComparisonTest, AHeadPushedAfterTheCommandIsRefusedBeforeAnyFetch) {
  serve_pull_request();
  options.pr_head = kTip;
  const std::string message = error_of<UserError>([&] { pull_request(); });
  EXPECT_NE(message.find("comment /benchmark again"), std::string::npos) << message;
  EXPECT_TRUE(git.fetches.empty());
}

// Unrelated histories have no merge base: the user's to fix, nothing measured (exit 2).
TEST_F(ComparisonTest, UnrelatedHistoriesAreAUsageError) {
  serve_pull_request();
  const std::string message = error_of<UserError>([&] { pull_request(); });
  EXPECT_NE(message.find("no merge base"), std::string::npos) << message;
}

// The pull_request event of an Actions job, read from $GITHUB_EVENT_PATH.
struct ActionsComparisonTest : ComparisonTest {
  TempDir dir;
  void SetUp() override {
    const std::string event = dir / "event.json";
    testing::write_file(event, R"({"action": "synchronize", "repository": {"full_name":
        "acme/widgets"}, "pull_request": {"number": 7, "title": "Faster parse",
        "html_url": "https://github.com/acme/widgets/pull/7",
        "base": {"ref": "main", "sha": ")" +
                                   kTip + R"("},
        "head": {"ref": "fast", "sha": ")" +
                                   kHead + R"(", "repo": {"full_name": "acme/widgets"}}}})");
    ::setenv("GITHUB_EVENT_PATH", event.c_str(), 1);
    ::setenv("GITHUB_EVENT_NAME", "pull_request", 1);
  }
  void TearDown() override {
    ::unsetenv("GITHUB_EVENT_PATH");
    ::unsetenv("GITHUB_EVENT_NAME");
  }
  Comparison run() {
    RepoContext ctx = context();
    return actions_comparison(ctx, options, progress);
  }
};

TEST_F(ActionsComparisonTest, AShallowCheckoutFetchesItsHistoryFromOrigin) {
  git.shallow = true;
  git.remotes[git.origin].brings = {{kTip, kTip}, {kHead, kHead}, {kBase, kBase}};
  git.set_merge_base(kTip, kHead, kBase);
  const Comparison c = run();
  ASSERT_FALSE(git.fetches.empty());
  EXPECT_EQ(git.fetches[0].url, git.origin);
  EXPECT_EQ(git.fetches[0].refspecs, std::vector<std::string>{"--unshallow"});
  EXPECT_FALSE(git.shallow);
  EXPECT_EQ(c.head.sha, kHead);
  EXPECT_EQ(c.base.sha, kBase);
  EXPECT_EQ(c.base.spec, "merge base of main");
  EXPECT_FALSE(c.fork_with_read_only_token);
}

TEST_F(ActionsComparisonTest, HistoryThatCannotBeFetchedSaysWhatToChangeInTheWorkflow) {
  git.shallow = true;
  git.remotes[git.origin].problem = "fatal: could not read Username";
  const std::string message = error_of<git::GitError>([&] { run(); });
  EXPECT_NE(message.find("set fetch-depth: 0 in the actions/checkout step"), std::string::npos)
      << message;
}

TEST_F(ActionsComparisonTest, MissingCommitsOfAFullCloneAreFetchedByTheirShas) {
  git.add(kTip, kTip);
  git.remotes[git.origin].brings = {{kHead, kHead}, {kBase, kBase}};
  git.set_merge_base(kTip, kHead, kBase);
  const Comparison c = run();
  ASSERT_EQ(git.fetches.size(), 1u);
  EXPECT_EQ(git.fetches[0].refspecs, std::vector<std::string>{kHead});
  EXPECT_EQ(c.head.sha, kHead);
}

TEST_F(ActionsComparisonTest, APullRequestTargetJobIsRefusedWithoutTheWriteTokenFlag) {
  ::setenv("GITHUB_EVENT_NAME", "pull_request_target", 1);
  const std::string message = error_of<UserError>([&] { run(); });
  EXPECT_NE(message.find("refusing to run in a pull_request_target job"), std::string::npos)
      << message;
  EXPECT_TRUE(git.fetches.empty());
}

}  // namespace
}  // namespace benchpr::app
