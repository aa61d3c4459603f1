// Starting from nothing: `benchpr init` writes a configuration and a ready GitHub workflow for
// a CMake + Google Benchmark project, and `benchpr run` works on such a project even before a
// .benchpr.yml is committed (zero-config: Release build, benchmark executables discovered).
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "benchpr/app/embedded_workflow_templates.hpp"
#include "benchpr/app/workflow_template.hpp"
#include "support/benchpr_process.hpp"
#include "support/contains.hpp"
#include "support/gbench_project.hpp"
#include "support/temp_repo.hpp"

namespace benchpr::testing {
namespace {

// yamllint's defaults, with GitHub's `on:` key allowed and lines up to 100 characters (as
// github_yaml_test.cpp lints the repository's own workflows).
const char* const kYamllintConfig =
    "{extends: default, rules: {line-length: {max: 100}, document-start: disable, "
    "truthy: {check-keys: false}}}";

void write_cmake_project(TempRepo& repo, const std::string& work) {
  repo.write("CMakeLists.txt",
             "cmake_minimum_required(VERSION 3.20)\nproject(demo CXX)\n"
             "find_package(benchmark REQUIRED)\n"
             "add_executable(core_bench bench/core_bench.cpp)\n"
             "target_link_libraries(core_bench benchmark::benchmark)\n");
  repo.write("bench/core_bench.cpp", gbench_source({{"BM_Work", work, ""}}));
}

TEST(Init, WritesAConfigAndAWorkflowThatPassYamllintAndRefusesToOverwrite) {
  TempRepo repo;
  write_cmake_project(repo, spin(100));
  const BenchprRun r = run_benchpr(BENCHPR_BINARY, {"init", "-C", repo.path()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string config = read_file(repo.path() + "/.benchpr.yml");
  EXPECT_TRUE(contains(config, "build-benchpr/core_bench")) << config;
  const std::string workflow = read_file(repo.path() + "/.github/workflows/benchpr.yml");
  EXPECT_TRUE(contains(workflow, "pull-requests: write"));
  // The one action reference, with the comment that tells users to put theirs.
  EXPECT_TRUE(contains(workflow, "uses: " + std::string(app::kActionReference) + "\n")) << workflow;
  // ... at the moving tag of the running benchpr's major release.
  const BenchprRun version = run_benchpr(BENCHPR_BINARY, {"--version"});
  ASSERT_TRUE(version.out.starts_with("benchpr ")) << version.out;
  const std::string major = version.out.substr(8, version.out.find('.') - 8);
  ASSERT_FALSE(major.empty());
  EXPECT_TRUE(contains(workflow, "uses: benchpr/benchpr@v" + major + "\n")) << workflow;
  EXPECT_TRUE(contains(r.out, "`uses: benchpr/benchpr@v" + major + "`")) << r.out;
  EXPECT_TRUE(contains(workflow, "replace with the OWNER/NAME@REF you take benchpr from"));
  EXPECT_TRUE(contains(workflow, "statuses: write"));
  EXPECT_TRUE(contains(workflow, "fetch-depth: 0"));
  if (run_command("yamllint --version").exit_code == 0) {
    const CommandResult lint =
        run_command("yamllint -s -d " + shell_quote(kYamllintConfig) + " " +
                    shell_quote(repo.path() + "/.github/workflows/benchpr.yml"));
    EXPECT_EQ(lint.exit_code, 0) << lint.output;
  }

  repo.write(".benchpr.yml", "# mine\n");
  const BenchprRun again = run_benchpr(BENCHPR_BINARY, {"init", "-C", repo.path()});
  EXPECT_EQ(again.exit_code, 2);
  EXPECT_TRUE(contains(again.err, "exists already (pass --force")) << again.err;
  EXPECT_EQ(read_file(repo.path() + "/.benchpr.yml"), "# mine\n");
  const BenchprRun forced = run_benchpr(BENCHPR_BINARY, {"init", "-C", repo.path(), "--force"});
  EXPECT_EQ(forced.exit_code, 0) << forced.err;
  EXPECT_EQ(read_file(repo.path() + "/.benchpr.yml"), config);
}

TEST(Init, WritesAShardedMatrixWorkflowThatPassesYamllint) {
  TempRepo repo;
  write_cmake_project(repo, spin(100));
  const BenchprRun r = run_benchpr(BENCHPR_BINARY, {"init", "-C", repo.path(), "--shards", "4"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string workflow = read_file(repo.path() + "/.github/workflows/benchpr.yml");
  EXPECT_TRUE(contains(workflow, "shard: [1, 2, 3, 4]")) << workflow;
  EXPECT_TRUE(contains(workflow, "args: --shard ${{ matrix.shard }}/4")) << workflow;
  EXPECT_TRUE(contains(workflow, "name: benchpr-shard-${{ matrix.shard }}")) << workflow;
  EXPECT_TRUE(contains(workflow, "command: merge")) << workflow;
  EXPECT_TRUE(contains(workflow, "command: publish")) << workflow;
  // Only the merging job, which checks out nothing, may write.
  const std::size_t merge_job = workflow.find("\n  merge:");
  ASSERT_NE(merge_job, std::string::npos);
  EXPECT_EQ(workflow.find("pull-requests: write"),
            workflow.find("pull-requests: write", merge_job));
  EXPECT_EQ(workflow.find("actions/checkout", merge_job), std::string::npos);
  if (run_command("yamllint --version").exit_code == 0) {
    const CommandResult lint =
        run_command("yamllint -s -d " + shell_quote(kYamllintConfig) + " " +
                    shell_quote(repo.path() + "/.github/workflows/benchpr.yml"));
    EXPECT_EQ(lint.exit_code, 0) << lint.output;
  }
  const BenchprRun one =
      run_benchpr(BENCHPR_BINARY, {"init", "-C", repo.path(), "--force", "--shards", "1"});
  EXPECT_EQ(one.exit_code, 2) << one.err;
}

// --fork-safe writes the measuring and the publishing workflow (with --shards, the measuring one
// as a matrix), --command adds the /benchmark one; only jobs that run no code of the pull
// request hold a write token, and those restore no cache.
TEST(Init, WritesTheForkSafePairAndTheCommandWorkflowThatPassYamllint) {
  TempRepo repo;
  write_cmake_project(repo, spin(100));
  const BenchprRun r = run_benchpr(
      BENCHPR_BINARY, {"init", "-C", repo.path(), "--fork-safe", "--shards", "2", "--command"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string dir = repo.path() + "/.github/workflows/";
  const std::string measure = read_file(dir + "benchpr.yml");
  const std::string publish = read_file(dir + "benchpr-publish.yml");
  const std::string command = read_file(dir + "benchpr-command.yml");
  EXPECT_TRUE(contains(measure, "shard: [1, 2]")) << measure;
  EXPECT_FALSE(contains(measure, ": write")) << measure;
  EXPECT_TRUE(contains(measure, "name: benchpr-results")) << measure;
  EXPECT_TRUE(contains(publish, "workflow_run:")) << publish;
  EXPECT_TRUE(contains(publish, "workflows: [benchmarks]")) << publish;
  EXPECT_FALSE(contains(publish, "uses: actions/checkout")) << publish;
  EXPECT_TRUE(contains(publish, "cache: \"false\"")) << publish;
  EXPECT_TRUE(contains(command, "issue_comment:")) << command;
  EXPECT_TRUE(contains(command, "group: benchpr-command-${{ github.event.issue.number }}"))
      << command;
  EXPECT_TRUE(contains(r.out, "wrote " + dir + "benchpr-command.yml")) << r.out;
  if (run_command("yamllint --version").exit_code == 0) {
    const CommandResult lint =
        run_command("yamllint -s -d " + shell_quote(kYamllintConfig) + " " + shell_quote(dir));
    EXPECT_EQ(lint.exit_code, 0) << lint.output;
  }
  // Nothing is overwritten without --force, and a refusal writes nothing.
  repo.remove(".benchpr.yml");
  const BenchprRun again =
      run_benchpr(BENCHPR_BINARY, {"init", "-C", repo.path(), "--fork-safe", "--command"});
  EXPECT_EQ(again.exit_code, 2);
  EXPECT_TRUE(contains(again.err, "exists already (pass --force")) << again.err;
  EXPECT_FALSE(std::filesystem::exists(repo.path() + "/.benchpr.yml"));
}

// The workflows pin their actions by commit SHA; `init` writes Dependabot's github-actions entry
// so the pins are kept current, and never replaces a dependabot.yml of the project's own.
TEST(Init, WritesADependabotEntryAndKeepsTheProjectsOwn) {
  TempRepo repo;
  write_cmake_project(repo, spin(100));
  const BenchprRun r = run_benchpr(BENCHPR_BINARY, {"init", "-C", repo.path()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(read_file(repo.path() + "/.github/dependabot.yml"), app::dependabot_yaml());
  EXPECT_TRUE(contains(r.out, "wrote " + repo.path() + "/.github/dependabot.yml")) << r.out;

  TempRepo other;
  write_cmake_project(other, spin(100));
  const std::string own = "version: 2\nupdates:\n  - package-ecosystem: npm\n    directory: /\n";
  other.write(".github/dependabot.yml", own);
  const BenchprRun kept = run_benchpr(BENCHPR_BINARY, {"init", "-C", other.path(), "--force"});
  ASSERT_EQ(kept.exit_code, 0) << kept.err;
  EXPECT_EQ(read_file(other.path() + "/.github/dependabot.yml"), own);
  EXPECT_TRUE(contains(kept.out, "has no github-actions entry; add one")) << kept.out;

  // One that has the entry already is kept too, and needs no note.
  TempRepo third;
  write_cmake_project(third, spin(100));
  const std::string with_entry =
      "version: 2\nupdates:\n  - package-ecosystem: github-actions\n    directory: /\n"
      "    schedule:\n      interval: daily\n";
  third.write(".github/dependabot.yml", with_entry);
  const BenchprRun quiet = run_benchpr(BENCHPR_BINARY, {"init", "-C", third.path()});
  ASSERT_EQ(quiet.exit_code, 0) << quiet.err;
  EXPECT_EQ(read_file(third.path() + "/.github/dependabot.yml"), with_entry);
  EXPECT_FALSE(contains(quiet.out, "dependabot.yml")) << quiet.out;
}

TEST(Init, NamesTheRepositorysDefaultBranch) {
  TempRepo repo;
  write_cmake_project(repo, spin(100));
  repo.commit("base");
  repo.git("branch -m main master");
  const BenchprRun r = run_benchpr(BENCHPR_BINARY, {"init", "-C", repo.path()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  // The run to try reads the new file by --config; in this repository of one commit there is no
  // HEAD~1: the commit is compared with the working tree. The default branch is where the files
  // go.
  EXPECT_TRUE(contains(r.out, "--base HEAD --head WORKTREE --config ")) << r.out;
  EXPECT_FALSE(contains(r.out, "--base HEAD~1")) << r.out;
  EXPECT_TRUE(contains(r.out, "commit the files to master")) << r.out;
  EXPECT_FALSE(contains(r.out, "--base main")) << r.out;
}

// The workflow templates (templates/workflows/*.yml) hold placeholders and fragments, so they are
// linted as `benchpr init` writes them: every choice of workflows (alone, sharded, fork-safe,
// both, each with and without /benchmark), and Dependabot's file. Every template is part of
// what is linted: each of its lines without a placeholder is in some written file.
TEST(InitWorkflowTemplates, EveryWorkflowInitWritesPassesYamllint) {
  if (run_command("yamllint --version").exit_code != 0) GTEST_SKIP() << "yamllint not installed";
  std::vector<std::string> written;
  std::string command = "yamllint -s -f parsable -d " + shell_quote(kYamllintConfig);
  std::vector<TempRepo> repos(8);
  int choice = 0;
  for (const char* shards : {"", "3"}) {
    for (const bool fork_safe : {false, true}) {
      for (const bool slash : {false, true}) {
        TempRepo& repo = repos[choice++];
        write_cmake_project(repo, spin(100));
        std::vector<std::string> args = {"init", "-C", repo.path()};
        if (*shards) args.insert(args.end(), {"--shards", shards});
        if (fork_safe) args.push_back("--fork-safe");
        if (slash) args.push_back("--command");
        const BenchprRun r = run_benchpr(BENCHPR_BINARY, args);
        ASSERT_EQ(r.exit_code, 0) << r.err;
        for (const auto& entry :
             std::filesystem::recursive_directory_iterator(repo.path() + "/.github")) {
          if (!entry.is_regular_file()) continue;
          written.push_back(read_file(entry.path().string()));
          command += " " + shell_quote(entry.path().string());
        }
      }
    }
  }
  // benchpr.yml, dependabot.yml, and where written benchpr-publish.yml, benchpr-command.yml and
  // benchpr-cache.yml.
  EXPECT_EQ(written.size(), 8u * 2 + 4 + 4 + 6);
  const CommandResult lint = run_command(command);
  EXPECT_EQ(lint.exit_code, 0) << lint.output;

  ASSERT_FALSE(app::embedded_workflow_templates().empty());
  for (const auto& [name, text] : app::embedded_workflow_templates()) {
    std::istringstream lines{std::string(text)};
    for (std::string line; std::getline(lines, line);) {
      if (line.find('@') != std::string::npos) continue;
      const bool found = std::any_of(written.begin(), written.end(), [&](const std::string& w) {
        return w.find(line + "\n") != std::string::npos;
      });
      EXPECT_TRUE(found) << "templates/workflows/" << name << ".yml: `" << line
                         << "` is in no workflow init writes";
    }
  }
}

TEST(Init, FindsGoogleBenchmarkInACMakeModule) {
  TempRepo repo;
  repo.write("CMakeLists.txt",
             "cmake_minimum_required(VERSION 3.20)\nproject(demo CXX)\n"
             "include(cmake/deps.cmake)\n"
             "add_executable(core_bench bench/core_bench.cpp)\n"
             "target_link_libraries(core_bench ${BENCH_LIBS})\n");
  repo.write("cmake/deps.cmake", "find_package(benchmark REQUIRED)\nset(BENCH_LIBS benchmark)\n");
  repo.write("bench/core_bench.cpp", gbench_source({{"BM_Work", spin(100), ""}}));
  const BenchprRun r = run_benchpr(BENCHPR_BINARY, {"init", "-C", repo.path()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(std::filesystem::exists(repo.path() + "/.benchpr.yml"));
}

TEST(Init, AnUnknownProjectGetsTheConfigurationToAdd) {
  TempRepo repo;
  repo.write("README", "nothing to build\n");
  const BenchprRun r = run_benchpr(BENCHPR_BINARY, {"init", "-C", repo.path()});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_TRUE(contains(r.err, "suites:")) << r.err;
  EXPECT_FALSE(std::filesystem::exists(repo.path() + "/.github"));
}

TEST(ZeroConfig, RunsTheBenchmarksOfACMakeProjectWithoutABenchprYml) {
  TempRepo repo;
  write_cmake_project(repo, spin(1000));
  repo.commit("base");
  write_cmake_project(repo, spin(1100));
  repo.commit("change");
  TempDir out;
  const BenchprRun r =
      run_benchpr(BENCHPR_BINARY, {"run", "-C", repo.path(), "--base", "HEAD~1", "--rounds", "2",
                                   "--warmup", "0", "--dry-run", "--output", out / "results.json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(contains(r.err, "no .benchpr.yml in the base revision")) << r.err;
  const auto doc = nlohmann::json::parse(read_file(out / "results.json"));
  ASSERT_EQ(doc["config"]["suites"].size(), 1u) << doc["config"].dump();
  EXPECT_EQ(doc["config"]["suites"][0]["run"], "build-benchpr/core_bench");
  EXPECT_TRUE(contains(r.out, "BM_Work")) << r.out;
}

}  // namespace
}  // namespace benchpr::testing
