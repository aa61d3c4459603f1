// Inputs are read and checked before anything is built or measured: a mistake in them costs a
// second, not a whole comparison, and ends in one message that names the input and the fix.
#include <filesystem>

#include <gtest/gtest.h>

#include "faults_helpers.hpp"

namespace benchpr::testing::faults {
namespace {

// A repository whose build leaves a mark, so a test can tell that nothing was built.
class InputsBeforeBuilding : public ::testing::Test {
 protected:
  void SetUp() override {
    GbenchConfig cfg = small_config();
    write_gbench_project(repo, {{"BM_A", spin(1000), ""}}, cfg);
    std::string config = gbench_config(cfg);
    const std::string build = "build: g++";
    config.replace(config.find(build), build.size(), "build: touch " + marker() + " && g++");
    repo.write(".benchpr.yml", config);
    repo.commit("base");
  }

  std::string marker() const { return out / "built"; }

  Ending run_with(const std::vector<std::string>& extra) {
    std::vector<std::string> args = {"run",  "-C",     repo.path(), "--base",
                                     "main", "--head", "main",      "--dry-run"};
    args.insert(args.end(), extra.begin(), extra.end());
    return run_benchpr_to_end(args, 60);
  }

  void expect_refused_before_building(const Ending& e, const std::string& message) {
    ASSERT_TRUE(e.exited) << e.describe();
    EXPECT_EQ(e.exit_code, 2) << e.err;  // bad usage: nothing was measured
    EXPECT_NE(e.err.find("benchpr: error: " + message), std::string::npos)
        << contains_msg(e.err, message);
    EXPECT_EQ(e.out, "");
    EXPECT_FALSE(std::filesystem::exists(marker())) << "built before the input was checked";
    EXPECT_FALSE(std::filesystem::exists(repo.path() + "/.git/benchpr/wt"))
        << "checked out before the input was checked";
  }

  TempRepo repo;
  TempDir out;
  TempDir templates;
};

TEST_F(InputsBeforeBuilding, MissingTemplatesDirectory) {
  const std::string dir = templates / "nope";
  expect_refused_before_building(run_with({"--templates", dir}),
                                 "--templates " + dir + ": No such file or directory");
}

TEST_F(InputsBeforeBuilding, TemplateThatDoesNotParse) {
  write_file(templates / "comment.mustache", "{{#benchmarks}}never closed\n");
  expect_refused_before_building(run_with({"--templates", templates.path()}),
                                 "--templates " + templates.path() + ": template 'comment'");
}

TEST_F(InputsBeforeBuilding, TemplateIncludingAMissingPartial) {
  write_file(templates / "comment.mustache", "{{> no_such_partial}}\n");
  const Ending e = run_with({"--templates", templates.path()});
  expect_refused_before_building(
      e, "--templates " + templates.path() + ": template 'comment' includes 'no_such_partial'");
  EXPECT_NE(e.err.find("leave out --templates"), std::string::npos) << e.err;  // the fix
}

TEST_F(InputsBeforeBuilding, PublishChecksTheTemplatesBeforeReadingTheResults) {
  write_file(templates / "comment.mustache", "{{/closed_never_opened}}\n");
  const Ending e = run_benchpr_to_end(
      {"publish", out / "missing-results.json", "--dry-run", "--templates", templates.path()}, 60);
  ASSERT_TRUE(e.exited) << e.describe();
  EXPECT_EQ(e.exit_code, 2) << e.err;
  EXPECT_NE(e.err.find("--templates " + templates.path() + ": template 'comment'"),
            std::string::npos)
      << e.err;
  EXPECT_EQ(e.out, "");
}

}  // namespace
}  // namespace benchpr::testing::faults
