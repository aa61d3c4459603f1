// Every layer's error type ends a command with the exit code the docs promise for it.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "benchpr/app/cli.hpp"
#include "benchpr/app/commands.hpp"
#include "benchpr/app/options.hpp"
#include "benchpr/app/resume.hpp"
#include "benchpr/app/user_error.hpp"
#include "benchpr/config/config_parser.hpp"
#include "benchpr/core/results_file/results_json.hpp"
#include "benchpr/core/results_file/shard_merge.hpp"
#include "benchpr/formats/format.hpp"
#include "benchpr/git/repository.hpp"
#include "benchpr/github/actions_files.hpp"
#include "benchpr/github/event_payload.hpp"
#include "benchpr/github/github_error.hpp"
#include "benchpr/github/http.hpp"
#include "benchpr/render/render.hpp"
#include "benchpr/runner/file_digest.hpp"
#include "benchpr/runner/results_store.hpp"
#include "benchpr/runner/suite_files.hpp"
#include "benchpr/runner/workspace.hpp"
#include "support/temp_dir.hpp"

namespace benchpr::app {
namespace {

int exit_code(const Error& e) { return exit_code_for(e.category()); }

TEST(ErrorExit, WhatTheUserFixesBeforeMeasuringIsTwo) {
  EXPECT_EQ(exit_code(UserError("--rounds: expected a positive integer")), 2);
  EXPECT_EQ(exit_code(config::ConfigError(".benchpr.yml:3: rounds")), 2);
  EXPECT_EQ(exit_code(render::TemplateError("comment.mustache: unclosed section")), 2);
  EXPECT_EQ(exit_code(runner::WorkspaceError("another benchpr run is using it")), 2);
  EXPECT_EQ(exit_code(ResultsFormatError("not a benchpr results file")), 2);
  EXPECT_EQ(exit_code(MergeError("shard 2 compares other revisions")), 2);
  EXPECT_EQ(exit_code(github::EventError("not a workflow_run event")), 2);
  EXPECT_EQ(exit_code(formats::ParseError("not JSON")), 2);
  EXPECT_EQ(exit_code(runner::FileDigestError("cannot read --base-exe bench: EACCES")), 2);
}

TEST(ErrorExit, GitHubRefusingTheTokenRepositoryOrNumberIsConfiguration) {
  EXPECT_EQ(exit_code(github::GitHubError(401, "bad credentials")), 2);
  EXPECT_EQ(exit_code(github::GitHubError(403, "no permission")), 2);
  EXPECT_EQ(exit_code(github::GitHubError(404, "not found")), 2);
  EXPECT_EQ(exit_code(github::GitHubError(500, "server error")), 1);
  EXPECT_EQ(exit_code(github::GitHubError(422, "body too long")), 1);
  EXPECT_EQ(exit_code(github::GitHubError(0, "no answer")), 1);
}

TEST(ErrorExit, AFailureOfTheJobIsOne) {
  EXPECT_EQ(exit_code(runner::StoreError("cannot write results.json")), 1);
  EXPECT_EQ(exit_code(git::GitError("cannot fetch pull request #3")), 1);
  EXPECT_EQ(exit_code(git::RevisionNotFound("no revision 'nope'")), 1);
  EXPECT_EQ(exit_code(github::TransportError("connection refused")), 1);
  EXPECT_EQ(exit_code(github::ActionsFileError("cannot write to $GITHUB_OUTPUT")), 1);
  EXPECT_EQ(exit_code_for(ErrorCategory::Internal), 1);
}

// A side's files changed under the comparison after rounds were measured and saved: the job
// failed as an interrupted one does (1), not the 2 of an input to fix before measuring.
TEST(ErrorExit, AVoidComparisonIsOneNotAnInputError) {
  const runner::TamperError e("the base's tracked file gen.sh changed; the comparison is void");
  EXPECT_EQ(e.category(), ErrorCategory::Void);
  EXPECT_EQ(exit_code(e), 1);
}

TEST(ErrorExit, ContextAddedToAnErrorKeepsItsCategory) {
  const Error store =
      runner::StoreError("cannot read x.json: a directory").with_context("--resume x.json: ");
  EXPECT_EQ(store.category(), ErrorCategory::Output);
  EXPECT_STREQ(store.what(), "--resume x.json: cannot read x.json: a directory");
  EXPECT_EQ(exit_code(store), 1);
  EXPECT_EQ(exit_code(ResultsFormatError("not JSON").with_context("a.json: ")), 2);
}

// `benchpr compare` given a file it cannot read (a directory): the StoreError's own exit code (1),
// naming the path, not a usage error.
TEST(ErrorExit, CompareKeepsAStoreErrorOfItsInput) {
  testing::TempDir dir;
  std::filesystem::create_directories(dir / "base.json");
  testing::write_file(dir / "head.json", "{}");
  CompareOptions options;
  options.files = {dir / "base.json", dir / "head.json"};
  try {
    compare_command(options);
    FAIL() << "compare read a directory";
  } catch (const UserError& e) {
    FAIL() << "became a usage error: " << e.what();
  } catch (const runner::StoreError& e) {
    EXPECT_EQ(exit_code(e), 1);
    EXPECT_NE(std::string(e.what()).find(dir / "base.json"), std::string::npos) << e.what();
  }
}

// --resume of a file that cannot be read is named with the flag and keeps its kind (1); a file
// the reader refuses stays an input error (2). Neither is turned into a usage error.
TEST(ErrorExit, ResumeKeepsTheKindOfItsFilesError) {
  testing::TempDir dir;
  std::filesystem::create_directories(dir / "results.json");
  try {
    read_resumable(dir / "results.json");
    FAIL() << "resumed a directory";
  } catch (const Error& e) {
    EXPECT_EQ(e.category(), ErrorCategory::Output) << e.what();
    EXPECT_EQ(exit_code(e), 1);
    EXPECT_EQ(std::string(e.what()).rfind("--resume " + (dir / "results.json") + ": ", 0), 0u)
        << e.what();
  }
  testing::write_file(dir / "garbage.json", "not json");
  try {
    read_resumable(dir / "garbage.json");
    FAIL() << "resumed a file that is not JSON";
  } catch (const Error& e) {
    EXPECT_EQ(e.category(), ErrorCategory::Input) << e.what();
    EXPECT_EQ(exit_code(e), 2);
  }
}

}  // namespace
}  // namespace benchpr::app
