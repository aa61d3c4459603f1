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

// Inputs that once overflowed the stack (SIGSEGV): std::regex recursed once per character of a
// long name, and partial rendering recursed without end. Each now ends in a message.
TEST_F(InputsBeforeBuilding, AFiftyThousandCharacterSuiteNameIsRefused) {
  repo.write(".benchpr.yml", "build: touch " + marker() + "\nsuites:\n  - name: " +
                                 std::string(50000, 'a') + "\n    run: 'true'\n");
  repo.commit("long suite name");
  const Ending e = run_with({});
  expect_refused_before_building(e, ".benchpr.yml:");
  EXPECT_NE(e.err.find("is longer than 100 characters"), std::string::npos) << e.err.substr(0, 500);
  EXPECT_LT(e.err.size(), 2000u);  // the name is quoted cut short, not in full
}

TEST_F(InputsBeforeBuilding, AFiftyThousandCharacterScrubEnvEntryIsRefused) {
  repo.write(".benchpr.yml", "build: touch " + marker() + "\nscrub_env: [" +
                                 std::string(50000, 'A') +
                                 "-]\nsuites:\n  - name: s\n    run: 'true'\n");
  repo.commit("long scrub_env entry");
  const Ending e = run_with({});
  expect_refused_before_building(e, ".benchpr.yml:");
  EXPECT_NE(e.err.find("is not an environment variable name"), std::string::npos)
      << e.err.substr(0, 500);
  EXPECT_LT(e.err.size(), 2000u);
}

TEST_F(InputsBeforeBuilding, ASetDelimiterSelfIncludeIsRefused) {
  // After {{=<% %>=}}, <%> comment %> includes the template itself.
  write_file(templates / "comment.mustache", "{{=<% %>=}}<%> comment %>\n");
  expect_refused_before_building(
      run_with({"--templates", templates.path()}),
      "--templates " + templates.path() + ": template 'comment' includes itself");
}

TEST_F(InputsBeforeBuilding, DeeplyNestedSectionsAreRefused) {
  std::string text;
  for (int i = 0; i < 100000; ++i) text += "{{#a}}";
  for (int i = 0; i < 100000; ++i) text += "{{/a}}";
  write_file(templates / "comment.mustache", text);
  expect_refused_before_building(
      run_with({"--templates", templates.path()}),
      "--templates " + templates.path() + ": template 'comment' nests sections 100000 deep");
}

TEST_F(InputsBeforeBuilding, ALongChainOfPartialsIsRefused) {
  for (int i = 0; i < 5000; ++i)
    write_file(templates / ("p" + std::to_string(i) + ".mustache"),
               "{{> p" + std::to_string(i + 1) + "}}\n");
  write_file(templates / "p5000.mustache", "end\n");
  write_file(templates / "comment.mustache", "{{> p0}}\n");
  expect_refused_before_building(run_with({"--templates", templates.path()}),
                                 "--templates " + templates.path() + ": template '");
}

// Zero-config reads the project's CMakeLists.txt: 40 KB inside `target_link_libraries(` once
// overflowed the regex matcher's stack. `init` scans it and suggests the executable.
TEST(ZeroConfigInput, FortyKilobytesInsideTargetLinkLibrariesAreScannedLinearly) {
  TempDir dir;
  std::string args;
  for (int i = 0; i < 20000; ++i) args += "x ";
  write_file(dir / "CMakeLists.txt",
             "cmake_minimum_required(VERSION 3.16)\nproject(p CXX)\n"
             "find_package(benchmark REQUIRED)\nadd_executable(bench_it b.cpp)\n"
             "target_link_libraries(bench_it " +
                 args + "benchmark::benchmark)\n");
  const Ending e = run_benchpr_to_end({"init", "-C", dir.path()}, 60);
  ASSERT_TRUE(e.exited) << e.describe() << "\n" << e.err;
  EXPECT_EQ(e.exit_code, 0) << e.err;
  EXPECT_NE(slurp(dir / ".benchpr.yml").find("build-benchpr/bench_it"), std::string::npos)
      << slurp(dir / ".benchpr.yml");
}

// benchpr replaces its worktrees in every run: an --output there once clobbered the PR's file.
TEST_F(InputsBeforeBuilding, AnOutputInsideAWorktreeIsRefused) {
  for (const std::string wt : {"head", "base"}) {
    const std::string inside = repo.path() + "/.git/benchpr/wt/" + wt + "/results.json";
    const Ending e = run_with({"--output", inside});
    ASSERT_TRUE(e.exited) << e.describe();
    EXPECT_EQ(e.exit_code, 2) << e.err;
    EXPECT_NE(e.err.find("benchpr: error: " + inside + " is inside "), std::string::npos) << e.err;
    EXPECT_NE(e.err.find("write it outside the work directory"), std::string::npos) << e.err;
    EXPECT_FALSE(std::filesystem::exists(marker())) << "built before the output was checked";
    EXPECT_FALSE(std::filesystem::exists(inside));
  }
  // The same through a path that only reaches the worktree after "..".
  const std::string roundabout = repo.path() + "/.git/benchpr/logs/../wt/head/x.md";
  const Ending e = run_with({"--markdown", roundabout});
  EXPECT_EQ(e.exit_code, 2) << e.err;
  EXPECT_NE(e.err.find(" is inside "), std::string::npos) << e.err;
}

// Comparing a commit with itself measures only noise: said before anything is run.
TEST(SameCommit, BaseAndHeadTheSameCommitIsWarned) {
  TempRepo repo;
  repo.write(".benchpr.yml",
             "build: 'true'\n"
             "suites:\n"
             "  - name: s\n"
             "    run: echo '[{\"name\":\"c\",\"unit\":\"ns\",\"value\":5}]'\n"
             "    format: custom\n"
             "rounds: 2\n"
             "warmup_rounds: 0\n");
  repo.commit("base");
  repo.branch("feature");
  const Ending e = run_benchpr_to_end(
      {"run", "-C", repo.path(), "--base", "main", "--head", "feature", "--dry-run"}, 60);
  ASSERT_TRUE(e.exited) << e.describe();
  EXPECT_EQ(e.exit_code, 0) << e.err;
  EXPECT_NE(e.err.find("warning: base main and PR feature are the same commit ("),
            std::string::npos)
      << e.err;
}

}  // namespace
}  // namespace benchpr::testing::faults
