// --head WORKTREE's snapshot with git's answers scripted: a repository with no commit is the
// user's to fix (a usage error, exit 2); git failing on a repository that has one is a git error
// (exit 1), with git's own words.
#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "benchpr/app/user_error.hpp"
#include "benchpr/app/worktree_snapshot.hpp"
#include "benchpr/git/repository.hpp"

namespace benchpr::app {
namespace {

using ::testing::HasSubstr;

// Answers each git command by the first scripted fragment its command line holds; a command
// nothing matches fails as git does for a setting that is not there (exit 1, no output).
class ScriptedGit : public exec::ProcessRunner {
 public:
  struct Answer {
    std::string fragment;
    int exit_code;
    std::string output;
  };
  explicit ScriptedGit(std::vector<Answer> answers) : answers_(std::move(answers)) {}
  exec::ProcessResult run(const exec::ProcessSpec& spec) override {
    exec::ProcessResult r;
    r.exit_code = 1;
    for (const Answer& a : answers_) {
      if (spec.command.find(a.fragment) == std::string::npos) continue;
      r.exit_code = a.exit_code;
      r.output_tail = a.output;
      break;
    }
    return r;
  }

 private:
  std::vector<Answer> answers_;
};

const std::string kHead = "0123456789abcdef0123456789abcdef01234567";

TEST(WorktreeSnapshot, GitFailingOnARepositoryIsAGitError) {
  ScriptedGit git({{"rev-parse --verify --quiet HEAD", 0, kHead + "\n"},
                   {"rev-parse --show-toplevel", 128, "fatal: unable to read tree\n"}});
  try {
    snapshot_worktree(git, "/repo", "/repo/.git");
    FAIL() << "expected a GitError";
  } catch (const git::GitError& e) {
    EXPECT_EQ(e.category(), ErrorCategory::Git);
    EXPECT_THAT(e.what(), HasSubstr("--head WORKTREE: cannot find the working tree"));
    EXPECT_THAT(e.what(), HasSubstr("fatal: unable to read tree"));
  }
}

TEST(WorktreeSnapshot, ARepositoryWithoutACommitIsTheUsersToFix) {
  ScriptedGit git({});  // rev-parse HEAD fails: there is no HEAD commit
  try {
    snapshot_worktree(git, "/repo", "/repo/.git");
    FAIL() << "expected a UserError";
  } catch (const UserError& e) {
    EXPECT_EQ(e.category(), ErrorCategory::Usage);
    EXPECT_THAT(e.what(), HasSubstr("no commit yet"));
  }
}

}  // namespace
}  // namespace benchpr::app
