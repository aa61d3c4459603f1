// Every layer's error type ends a command with the exit code the docs promise for it.
#include <gtest/gtest.h>

#include "benchpr/app/cli.hpp"
#include "benchpr/app/user_error.hpp"
#include "benchpr/config/config_parser.hpp"
#include "benchpr/core/results_json.hpp"
#include "benchpr/core/shard_merge.hpp"
#include "benchpr/formats/format.hpp"
#include "benchpr/git/repository.hpp"
#include "benchpr/github/actions_files.hpp"
#include "benchpr/github/event_payload.hpp"
#include "benchpr/github/github_error.hpp"
#include "benchpr/github/http.hpp"
#include "benchpr/render/render.hpp"
#include "benchpr/runner/results_store.hpp"
#include "benchpr/runner/workspace.hpp"

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
  EXPECT_EQ(exit_code(github::TransportError("connection refused")), 1);
  EXPECT_EQ(exit_code(github::ActionsFileError("cannot write to $GITHUB_OUTPUT")), 1);
  EXPECT_EQ(exit_code_for(ErrorCategory::Internal), 1);
}

}  // namespace
}  // namespace benchpr::app
