// --head WORKTREE's snapshot with git's answers scripted: a repository with no commit is the
// user's to fix (a usage error, exit 2); git failing on a repository that has one is a git error
// (exit 1), with git's own words.
#include <chrono>
#include <filesystem>
#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "benchpr/app/user_error.hpp"
#include "benchpr/app/worktree_snapshot.hpp"
#include "benchpr/git/repository.hpp"
#include "support/temp_dir.hpp"

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

// The private index is a copy of the user's with the user's index's own time: git re-reads a
// file whose stat matches an entry only when the file is not older than the index, so a copy
// stamped now would let an edit made in the same clock tick as the last commit go unrecorded.
TEST(WorktreeSnapshot, ThePrivateIndexKeepsTheTimeOfTheUsersIndex) {
  testing::TempDir dir;
  const std::string user_index = dir / "index";
  testing::write_file(user_index, "DIRC");
  const auto then = std::filesystem::file_time_type::clock::now() - std::chrono::hours(3);
  std::filesystem::last_write_time(user_index, then);
  struct Recording : ScriptedGit {
    using ScriptedGit::ScriptedGit;
    exec::ProcessResult run(const exec::ProcessSpec& spec) override {
      if (spec.command.find("add -A") != std::string::npos)
        for (const auto& [name, value] : spec.set_env)
          if (name == "GIT_INDEX_FILE") index_time = std::filesystem::last_write_time(value);
      return ScriptedGit::run(spec);
    }
    std::filesystem::file_time_type index_time{};
  } git({{"rev-parse --verify --quiet HEAD", 0, kHead + "\n"},
         {"rev-parse --show-toplevel", 0, dir.path() + "\n"},
         {"--git-path index", 0, user_index + "\n"},
         {"add -A", 0, ""},
         {"write-tree", 0, "tree1\n"},
         {"^{tree}", 0, "tree1\n"}});
  const WorktreeSnapshot snap = snapshot_worktree(git, dir.path(), dir.path());
  EXPECT_FALSE(snap.changed);
  EXPECT_EQ(git.index_time, then);
}

}  // namespace
}  // namespace benchpr::app
