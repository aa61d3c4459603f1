// Every workflow `benchpr init` writes, run as written: the plain pull_request workflow, the
// sharded one (--shards 3), the fork-safe pair (--fork-safe) and the /benchmark workflow
// (--command). tests/support/workflow_sim reads each job's steps from the YAML `init` wrote and
// runs them the way a runner does (event payload, GITHUB_* files, the job's token as its
// `permissions:` allow, action.yml's own scripts) against a real git repository and the fake
// GitHub API, for a pull request from the same repository and one from a fork. What must come
// out: one sticky comment (none for a fork in a pull_request workflow, and a green run), the
// commit status, and the exit codes.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <map>

#include <nlohmann/json.hpp>

#include "benchpr/app/workflow_template.hpp"
#include "support/benchpr_process.hpp"
#include "support/contains.hpp"
#include "support/fake_github.hpp"
#include "support/file_server.hpp"
#include "support/gbench_project.hpp"
#include "support/git_http_remote.hpp"
#include "support/released_action.hpp"
#include "support/temp_dir.hpp"
#include "support/temp_repo.hpp"
#include "support/workflow_sim.hpp"

namespace benchpr::testing {
namespace {

using nlohmann::json;

constexpr const char* kRepo = "acme/widgets";
constexpr const char* kFork = "contributor/widgets";
constexpr int kNumber = 1;

// The workflow files `benchpr init FLAGS` writes, by file name.
std::map<std::string, std::string> init_workflows(const std::vector<std::string>& flags) {
  TempRepo project;
  project.write("CMakeLists.txt",
                "cmake_minimum_required(VERSION 3.20)\nproject(demo CXX)\n"
                "find_package(benchmark REQUIRED)\n"
                "add_executable(core_bench bench/core_bench.cpp)\n"
                "target_link_libraries(core_bench benchmark::benchmark)\n");
  project.write("bench/core_bench.cpp", gbench_source({{"BM_Work", spin(10), ""}}));
  std::vector<std::string> args = {"init", "-C", project.path()};
  args.insert(args.end(), flags.begin(), flags.end());
  const BenchprRun r = run_benchpr(BENCHPR_BINARY, args);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  std::map<std::string, std::string> files;
  const std::string dir = project.path() + "/.github/workflows";
  if (!std::filesystem::is_directory(dir)) return files;
  for (const auto& entry : std::filesystem::directory_iterator(dir))
    files[entry.path().filename().string()] = read_file(entry.path().string());
  return files;
}

// A project whose three suites print their numbers (custom format), so a comparison takes
// seconds: the pull request makes `parse` twice as slow.
struct Project {
  TempRepo origin;
  std::string base_sha;
  std::string head_sha;

  Project() {
    origin.write(".benchpr.yml",
                 "build: \"true\"\n"
                 "rounds: 6\n"
                 "warmup_rounds: 1\n"
                 "suites:\n"
                 "  - name: parse\n    run: sh bench.sh parse\n    format: custom\n"
                 "  - name: render\n    run: sh bench.sh render\n    format: custom\n"
                 "  - name: store\n    run: sh bench.sh store\n    format: custom\n");
    origin.write("bench.sh",
                 "v=$(cat \"values/$1\")\n"
                 "printf '[{\"name\":\"%s\",\"unit\":\"ns\",\"value\":%s.%03d}]\\n' \"$1\" \"$v\" "
                 "$(od -An -N1 -tu1 /dev/urandom)\n");
    for (const char* name : {"parse", "render", "store"})
      origin.write(std::string("values/") + name, "1000\n");
    base_sha = origin.commit_base_and_branch();
    origin.write("values/parse", "2000\n");
    head_sha = origin.commit("parse twice the work");
    origin.git("update-ref refs/pull/1/head " + head_sha);
    origin.checkout("main");
  }
};

json pull_request_event(const Project& p, bool fork) {
  return {{"action", "synchronize"},
          {"number", kNumber},
          {"pull_request",
           {{"number", kNumber},
            {"title", "Parse faster"},
            {"html_url", "https://github.com/acme/widgets/pull/1"},
            {"labels", json::array()},
            {"base", {{"ref", "main"}, {"sha", p.base_sha}, {"repo", {{"full_name", kRepo}}}}},
            {"head",
             {{"ref", "feature"},
              {"sha", p.head_sha},
              {"repo", {{"full_name", fork ? kFork : kRepo}}}}}}},
          {"repository", {{"full_name", kRepo}}}};
}

class Workflows : public ::testing::Test {
 protected:
  void add_pull_request(bool fork) {
    FakePullRequest pr;
    pr.number = kNumber;
    pr.base_sha = project.base_sha;
    pr.head_sha = project.head_sha;
    pr.head_repo = fork ? std::optional<std::string>(kFork) : std::optional<std::string>("");
    github.add_pull_request(kRepo, pr);
  }

  RunnerSetup setup(const std::string& event_name, json event, const std::string& sha) {
    RunnerSetup s;
    s.event_name = event_name;
    s.event = std::move(event);
    s.repository = kRepo;
    s.sha = sha;
    s.ref = event_name == "pull_request" ? "refs/pull/1/merge" : "refs/heads/main";
    s.origin = project.origin.path();
    s.api_url = github.url();
    s.action_dir = BENCHPR_SOURCE_DIR;
    s.benchpr_binary = BENCHPR_BINARY;
    s.artifacts_dir = artifacts / ("run" + std::to_string(++runs));
    s.action_refs = {std::string(app::kActionReference), "./", "./benchpr-action"};
    s.cache = &cache;
    s.token_for = [this](const std::vector<std::string>& writes) {
      const std::string token = "ghs_job_token_" + std::to_string(++tokens);
      github.add_token(token, writes);
      return token;
    };
    return s;
  }

  RunnerSetup pull_request_setup(bool fork) {
    RunnerSetup s = setup("pull_request", pull_request_event(project, fork), project.head_sha);
    s.read_only_token = fork;
    return s;
  }

  std::vector<FakeComment> benchpr_comments() const {
    std::vector<FakeComment> out;
    for (const FakeComment& c : github.comments(kRepo, kNumber))
      if (contains(c.body, "<!-- benchpr:comment key=default -->")) out.push_back(c);
    return out;
  }

  // The final commit status on the head, after a `pending` one when measuring started.
  std::string final_status() const {
    std::string state;
    for (const FakeStatus& s : github.statuses())
      if (s.sha == project.head_sha && s.context == "benchpr") state = s.state;
    return state;
  }

  Project project;
  ActionsCache cache;  // the repository's Actions cache, across the runs of a test
  FakeGitHub github;
  TempDir artifacts;
  int runs = 0;
  int tokens = 0;
};

void expect_benchpr_steps_succeeded(const WorkflowRunResult& run) {
  EXPECT_EQ(run.conclusion, "success") << run.log();
  for (const StepResult& s : run.steps)
    if (s.ran) {
      EXPECT_EQ(s.outcome, "success") << s.job << " / " << s.step << "\n" << s.log;
    }
}

TEST_F(Workflows, ThePlainWorkflowKeepsOneCommentAndSetsTheStatus) {
  const auto files = init_workflows({});
  ASSERT_EQ(files.size(), 1u);
  const Workflow wf = read_workflow(files.at("benchpr.yml"));
  add_pull_request(false);
  for (int push = 1; push <= 2; ++push) {
    SCOPED_TRACE("run " + std::to_string(push));
    const WorkflowRunResult run = run_workflow(wf, pull_request_setup(false));
    expect_benchpr_steps_succeeded(run);
    ASSERT_EQ(run.benchpr_steps().size(), 1u) << run.log();
    EXPECT_FALSE(run.benchpr_steps()[0]->outputs.at("comment-url").empty()) << run.log();
    EXPECT_EQ(benchpr_comments().size(), 1u) << run.log();
    EXPECT_TRUE(contains(run.log(), push == 1 ? "comment created: " : "comment updated: "))
        << run.log();
    EXPECT_TRUE(contains(run.log(), "recommendation: ")) << run.log();
    if (push == 2 && std::getenv("BENCHPR_SHOW_WORKFLOW_LOG")) std::cerr << run.log();
  }
  const auto statuses = github.statuses();
  ASSERT_GE(statuses.size(), 2u);
  EXPECT_EQ(statuses.front().state, "pending");
  const std::string state = final_status();
  EXPECT_TRUE(state == "failure" || state == "success") << state;
}

TEST_F(Workflows, ThePlainWorkflowOnAForkPullRequestMeasuresPostsNothingAndStaysGreen) {
  const Workflow wf = read_workflow(init_workflows({}).at("benchpr.yml"));
  add_pull_request(true);
  const WorkflowRunResult run = run_workflow(wf, pull_request_setup(true));
  expect_benchpr_steps_succeeded(run);
  EXPECT_TRUE(contains(run.log(), "::notice::benchpr: this pull request comes from a fork"))
      << run.log();
  EXPECT_TRUE(github.comments(kRepo, kNumber).empty());
  EXPECT_TRUE(github.statuses().empty());
}

TEST_F(Workflows, TheShardedWorkflowMergesItsShardsAndPostsOnce) {
  const auto files = init_workflows({"--shards", "3"});
  const Workflow wf = read_workflow(files.at("benchpr.yml"));
  add_pull_request(false);
  const WorkflowRunResult run = run_workflow(wf, pull_request_setup(false));
  expect_benchpr_steps_succeeded(run);
  int shards = 0;
  for (const StepResult& s : run.steps)
    if (s.job.starts_with("measure (") && s.step.starts_with("Measure shard")) ++shards;
  EXPECT_EQ(shards, 3) << run.log();
  EXPECT_TRUE(contains(run.log(), "merged 3 of 3 shards")) << run.log();
  EXPECT_EQ(benchpr_comments().size(), 1u) << run.log();
  const std::string state = final_status();
  EXPECT_TRUE(state == "failure" || state == "success") << state;
}

TEST_F(Workflows, TheShardedWorkflowOnAForkPullRequestStaysGreen) {
  const Workflow wf = read_workflow(init_workflows({"--shards", "3"}).at("benchpr.yml"));
  add_pull_request(true);
  const WorkflowRunResult run = run_workflow(wf, pull_request_setup(true));
  expect_benchpr_steps_succeeded(run);
  EXPECT_TRUE(contains(run.log(), "::notice::benchpr: this pull request comes from a fork"))
      << run.log();
  EXPECT_TRUE(github.comments(kRepo, kNumber).empty());
}

// The workflow_run event GitHub sends the publishing workflow when `measure` has run.
json workflow_run_event(const Workflow& measure, const WorkflowRunResult& measured,
                        const std::string& head_sha, bool fork) {
  return {{"action", "completed"},
          {"workflow_run",
           {{"id", 4242},
            {"name", measure.name},
            {"event", "pull_request"},
            {"conclusion", measured.conclusion},
            {"html_url", "https://github.com/acme/widgets/actions/runs/4242"},
            {"head_sha", head_sha},
            {"head_branch", "feature"},
            {"head_repository", {{"full_name", fork ? kFork : kRepo}}},
            {"pull_requests", fork ? json::array() : json::array({{{"number", kNumber}}})}}},
          {"repository", {{"full_name", kRepo}}}};
}

// The measuring workflow on pull_request, then the publishing one on workflow_run with the
// measuring run's artifacts and conclusion.
void run_fork_safe_pair(const std::map<std::string, std::string>& files, bool fork,
                        RunnerSetup measure_setup,
                        const std::function<RunnerSetup(const std::string&, json)>& publish_setup,
                        const std::string& main_sha, const std::string& head_sha) {
  const Workflow measure = read_workflow(files.at("benchpr.yml"));
  const Workflow publish = read_workflow(files.at("benchpr-publish.yml"));
  const WorkflowRunResult measured = run_workflow(measure, measure_setup);
  expect_benchpr_steps_succeeded(measured);
  RunnerSetup s =
      publish_setup("workflow_run", workflow_run_event(measure, measured, head_sha, fork));
  s.sha = main_sha;
  s.artifacts_dir = measure_setup.artifacts_dir;  // download-artifact's run-id
  const WorkflowRunResult published = run_workflow(publish, s);
  expect_benchpr_steps_succeeded(published);
}

TEST_F(Workflows, TheForkSafePairCommentsOnAForkPullRequest) {
  const auto files = init_workflows({"--fork-safe"});
  ASSERT_EQ(files.size(), 3u);  // the pair and the cache fill
  add_pull_request(true);
  const std::string main_sha = project.base_sha;
  for (int push = 1; push <= 2; ++push) {
    SCOPED_TRACE("run " + std::to_string(push));
    run_fork_safe_pair(
        files, true, pull_request_setup(true),
        [this](const std::string& name, json event) { return setup(name, event, ""); }, main_sha,
        project.head_sha);
    EXPECT_EQ(benchpr_comments().size(), 1u);
  }
  const std::string state = final_status();
  EXPECT_TRUE(state == "failure" || state == "success") << state;
}

// fail-on goes on the publishing step: the measuring run stays green, so its results are
// published; the publishing step posts the comment and the status, then fails with exit code 3.
TEST_F(Workflows, TheForkSafePairWithFailOnRegressionStillPostsThenFails) {
  auto files = init_workflows({"--fork-safe"});
  std::string& publish = files.at("benchpr-publish.yml");
  const std::size_t at = publish.find("fail-on: never");
  ASSERT_NE(at, std::string::npos) << publish;
  publish.replace(at, 14, "fail-on: regression");
  add_pull_request(true);
  const Workflow measure = read_workflow(files.at("benchpr.yml"));
  const RunnerSetup measure_setup = pull_request_setup(true);
  const WorkflowRunResult measured = run_workflow(measure, measure_setup);
  expect_benchpr_steps_succeeded(measured);
  RunnerSetup s =
      setup("workflow_run", workflow_run_event(measure, measured, project.head_sha, true),
            project.base_sha);
  s.artifacts_dir = measure_setup.artifacts_dir;
  const WorkflowRunResult published = run_workflow(read_workflow(publish), s);
  EXPECT_EQ(benchpr_comments().size(), 1u) << published.log();
  EXPECT_EQ(final_status(), "failure") << published.log();
  EXPECT_EQ(published.conclusion, "failure");
  const auto steps = published.benchpr_steps();
  ASSERT_EQ(steps.size(), 1u) << published.log();
  EXPECT_EQ(steps[0]->exit_code, 3) << published.log();
  EXPECT_EQ(steps[0]->outputs.at("recommendation"), "do-not-merge");
}

TEST_F(Workflows, TheShardedForkSafePairCommentsOnASameRepositoryPullRequest) {
  const auto files = init_workflows({"--fork-safe", "--shards", "3"});
  add_pull_request(false);
  run_fork_safe_pair(
      files, false, pull_request_setup(false),
      [this](const std::string& name, json event) { return setup(name, event, ""); },
      project.base_sha, project.head_sha);
  EXPECT_EQ(benchpr_comments().size(), 1u);
  EXPECT_FALSE(final_status().empty());
}

// What GitHub sends the /benchmark workflow for `body`, commented by a maintainer with write
// permission on a pull request from a fork; benchpr fetches the pull request from the clone URL
// the API reports, over HTTP as from GitHub: a bare copy of the origin served on 127.0.0.1.
class CommandWorkflows : public Workflows {
 protected:
  void SetUp() override {
    run_checked("git clone -q --bare " + shell_quote(project.origin.path()) + " " +
                shell_quote(bare / "widgets.git"));
    run_checked("git -C " + shell_quote(bare / "widgets.git") + " update-ref refs/pull/1/head " +
                project.head_sha);
    remote = std::make_unique<GitHttpRemote>(bare / "widgets.git");
    FakePullRequest pr;
    pr.number = kNumber;
    pr.base_sha = project.base_sha;
    pr.head_sha = project.head_sha;
    pr.head_repo = std::optional<std::string>(kFork);
    pr.clone_url = remote->url();
    github.add_pull_request(kRepo, pr);
    github.set_permission(kRepo, "maintainer", "write");
  }

  RunnerSetup command_setup(const std::string& body) {
    const std::int64_t command = github.add_comment(kRepo, kNumber, body, "maintainer");
    const json event = {
        {"action", "created"},
        {"issue",
         {{"number", kNumber},
          {"pull_request", {{"url", "https://api.github.com/repos/acme/widgets/pulls/1"}}}}},
        {"comment",
         {{"id", command},
          {"body", body},
          {"created_at", "2099-01-01T00:00:00Z"},
          {"user", {{"login", "maintainer"}}},
          {"author_association", "OWNER"}}},
        {"repository", {{"full_name", kRepo}}}};
    return setup("issue_comment", event, project.base_sha);
  }

  std::vector<std::string> reactions() const {
    std::vector<std::string> out;
    for (const FakeReaction& r : github.reactions()) out.push_back(r.content);
    return out;
  }

  // Neither a restore nor a save in this run: the /benchmark run is in the default branch's
  // scope, and its measuring job runs the pull request's code.
  void expect_no_cache_use(const WorkflowRunResult& run) const {
    EXPECT_TRUE(cache.restores.empty()) << cache.restores[0].job << "\n" << run.log();
    EXPECT_TRUE(cache.entries.empty()) << cache.entries[0].job << "\n" << run.log();
  }

  TempDir bare;
  std::unique_ptr<GitHttpRemote> remote;
};

TEST_F(CommandWorkflows, TheBenchmarkCommandWorkflowMeasuresAndAnswers) {
  const auto files = init_workflows({"--command"});
  ASSERT_EQ(files.size(), 2u);  // benchpr.yml and the command; no cache fill (nothing restores)
  const Workflow wf = read_workflow(files.at("benchpr-command.yml"));
  const WorkflowRunResult run = run_workflow(wf, command_setup("/benchmark rounds=6"));
  expect_benchpr_steps_succeeded(run);
  ASSERT_EQ(benchpr_comments().size(), 1u) << run.log();
  // The comment names the commit measured: the head when the command was written.
  EXPECT_TRUE(contains(benchpr_comments()[0].body, "PR `" + project.head_sha.substr(0, 7) + "`"))
      << benchpr_comments()[0].body;
  EXPECT_TRUE(contains(run.log(), "accepted: measuring " + project.head_sha)) << run.log();
  EXPECT_EQ(reactions(), (std::vector<std::string>{"eyes", "rocket"})) << run.log();
  EXPECT_FALSE(final_status().empty()) << run.log();
  expect_no_cache_use(run);
}

// The measuring job runs the pull request's code with root on the runner, so it decides what
// the artifact holds. The publishing job of the repository's own /benchmark workflow checks
// benchpr out at benchpr-action/ and runs `uses: ./benchpr-action` with a write token: an
// artifact entry benchpr-action/action.yml, downloaded into the workspace, replaced that action.
TEST_F(CommandWorkflows, AnActionPlantedInTheArtifactNeverRuns) {
  const Workflow wf = read_workflow(
      read_file(std::string(BENCHPR_SOURCE_DIR) + "/.github/workflows/benchpr-command.yml"));
  RunnerSetup s = command_setup("/benchmark rounds=6");
  TempDir loot;
  const std::string planted =
      "name: planted\ndescription: planted\ninputs:\n"
      "  command: {default: ''}\n  status: {default: ''}\n  comment: {default: ''}\n"
      "  args: {default: ''}\n  cache: {default: ''}\n  token: {default: '${{ github.token }}'}\n"
      "runs:\n  using: composite\n  steps:\n"
      "    - shell: bash\n      env:\n        LOOT: " +
      loot.path() +
      "\n        T: ${{ inputs.token }}\n"
      "      run: echo PLANTED-ACTION-RAN; printf %s \"$T\" > \"$LOOT/token\"\n";
  int planted_in = 0;
  s.after_upload = [&](const std::string&, const std::string& dir) {
    std::filesystem::create_directories(dir + "/benchpr-action");
    write_file(dir + "/benchpr-action/action.yml", planted);
    ++planted_in;
  };
  const WorkflowRunResult run = run_workflow(wf, s);
  ASSERT_EQ(planted_in, 1) << run.log();
  EXPECT_FALSE(contains(run.log(), "PLANTED-ACTION-RAN")) << run.log();
  EXPECT_FALSE(std::filesystem::exists(loot / "token")) << run.log();
  expect_benchpr_steps_succeeded(run);
  EXPECT_EQ(benchpr_comments().size(), 1u) << run.log();
  EXPECT_EQ(reactions(), (std::vector<std::string>{"eyes", "rocket"})) << run.log();
  expect_no_cache_use(run);
}

// Every workflow `init` writes and the repository's own: every artifact download goes under
// RUNNER_TEMP, never the workspace (where the job's checkout, a local action and the files
// benchpr reads live); and no job of a workflow that runs in the default branch's cache scope
// (issue_comment) lets benchpr's action restore or save a cache while it runs the pull
// request's code.
TEST_F(Workflows, ArtifactsGoUnderRunnerTempAndNoCommandJobUsesTheCache) {
  std::vector<std::pair<std::string, std::string>> texts;
  for (const std::vector<std::string>& flags : {std::vector<std::string>{},
                                                {"--shards", "3"},
                                                {"--fork-safe"},
                                                {"--fork-safe", "--shards", "3"},
                                                {"--command"}})
    for (const auto& [name, yaml] : init_workflows(flags)) texts.emplace_back("init " + name, yaml);
  for (const auto& entry :
       std::filesystem::directory_iterator(std::string(BENCHPR_SOURCE_DIR) + "/.github/workflows"))
    texts.emplace_back(entry.path().string(), read_file(entry.path().string()));
  int downloads = 0, command_jobs = 0;
  for (const auto& [name, yaml] : texts) {
    const Workflow wf = read_workflow(yaml);
    const bool default_scope =
        std::find(wf.events.begin(), wf.events.end(), "issue_comment") != wf.events.end();
    for (const WorkflowJob& job : wf.jobs) {
      for (const WorkflowStep& step : job.steps) {
        if (step.uses.starts_with("actions/download-artifact@")) {
          ++downloads;
          const auto path = step.with.find("path");
          ASSERT_NE(path, step.with.end()) << name << " / " << job.id << ": into the workspace";
          EXPECT_TRUE(path->second.starts_with("${{ runner.temp }}/"))
              << name << " / " << job.id << ": " << path->second;
        }
        const bool benchpr = step.uses == app::kActionReference || step.uses.starts_with("./");
        if (default_scope && benchpr) {
          ++command_jobs;
          const auto cache_input = step.with.find("cache");
          EXPECT_TRUE(cache_input != step.with.end() && cache_input->second == "false")
              << name << " / " << job.id << " / " << step.name;
        }
      }
    }
  }
  EXPECT_GE(downloads, 6);
  EXPECT_GE(command_jobs, 8);
}

// A GitHub App's installation token (GET /user answers 403, comments are by my-app[bot]): the
// second run of the written workflow updates the first run's comment.
TEST_F(Workflows, AnAppTokenKeepsOneComment) {
  github.set_app_token("my-app");
  const Workflow wf = read_workflow(init_workflows({}).at("benchpr.yml"));
  add_pull_request(false);
  for (int push = 1; push <= 2; ++push) {
    SCOPED_TRACE("run " + std::to_string(push));
    const WorkflowRunResult run = run_workflow(wf, pull_request_setup(false));
    expect_benchpr_steps_succeeded(run);
    ASSERT_EQ(benchpr_comments().size(), 1u) << run.log();
    EXPECT_EQ(benchpr_comments()[0].login, "my-app[bot]");
  }
}

json push_event(const std::string& sha) {
  return {{"ref", "refs/heads/main"}, {"after", sha}, {"repository", {{"full_name", kRepo}}}};
}

// The cache-fill workflow runs on a push to the default branch and saves benchpr's build under
// the key the pull request's measuring jobs then restore: their first run finds it (exact hit,
// from the default branch's scope), and they save nothing of their own.
TEST_F(Workflows, TheCacheFillWorkflowWarmsAPullRequestsFirstRun) {
  const auto files = init_workflows({"--shards", "3"});
  ASSERT_EQ(files.count("benchpr-cache.yml"), 1u);
  const Workflow fill = read_workflow(files.at("benchpr-cache.yml"));
  EXPECT_EQ(fill.events, (std::vector<std::string>{"push", "workflow_dispatch"}));
  const WorkflowRunResult filled =
      run_workflow(fill, setup("push", push_event(project.base_sha), project.base_sha));
  expect_benchpr_steps_succeeded(filled);
  EXPECT_TRUE(contains(filled.log(), "benchpr " BENCHPR_VERSION)) << filled.log();
  ASSERT_EQ(cache.entries.size(), 1u) << filled.log();
  EXPECT_EQ(cache.entries[0].scope, "refs/heads/main");
  const std::string saved = cache.entries[0].key;

  add_pull_request(false);
  const WorkflowRunResult run =
      run_workflow(read_workflow(files.at("benchpr.yml")), pull_request_setup(false));
  expect_benchpr_steps_succeeded(run);
  int restores = 0;
  for (const ActionsCache::Restore& r : cache.restores) {
    if (r.scope != "refs/pull/1/merge") continue;
    ++restores;
    EXPECT_EQ(r.key, saved) << r.job;
    EXPECT_TRUE(r.hit) << r.job << " restored " << r.matched;
  }
  EXPECT_EQ(restores, 3) << run.log();  // the shards; the merging job restores no cache
  EXPECT_EQ(cache.entries.size(), 1u) << run.log();
}

// Without the fill, the first shard of a pull request's first run compiles benchpr (a miss) and
// saves it in the pull request's own scope, where no other pull request finds it.
TEST_F(Workflows, WithoutTheCacheFillAPullRequestsFirstRunBuildsBenchpr) {
  const auto files = init_workflows({"--shards", "3"});
  add_pull_request(false);
  const WorkflowRunResult run =
      run_workflow(read_workflow(files.at("benchpr.yml")), pull_request_setup(false));
  expect_benchpr_steps_succeeded(run);
  ASSERT_FALSE(cache.restores.empty());
  EXPECT_FALSE(cache.restores[0].hit);
  ASSERT_EQ(cache.entries.size(), 1u) << run.log();
  EXPECT_EQ(cache.entries[0].scope, "refs/pull/1/merge");
}

// The plain workflow's one job holds a write token and restores no cache: init writes no fill
// workflow for it (it would spend a build on every push for nothing).
TEST_F(Workflows, ThePlainWorkflowGetsNoCacheFill) {
  EXPECT_EQ(init_workflows({}).count("benchpr-cache.yml"), 0u);
  EXPECT_EQ(init_workflows({"--fork-safe"}).count("benchpr-cache.yml"), 1u);
  // /benchmark's measuring job runs on issue_comment, in the default branch's cache scope: it
  // uses no cache, so nothing needs filling for it.
  EXPECT_EQ(init_workflows({"--command"}).count("benchpr-cache.yml"), 0u);
  EXPECT_EQ(init_workflows({"--command", "--shards", "3"}).count("benchpr-cache.yml"), 1u);
}

// The build cache key names benchpr's release and the ref the workflow takes the action at:
// moving from @v1 to @v1.0.0 (or to another major) builds afresh, while restore-keys still bring
// the older build's compiler cache.
TEST_F(Workflows, TheBuildCacheKeyNamesTheReleaseAndChangesWithTheRef) {
  for (const std::string ref : {"v1", "v1.0.0"}) {
    const std::string uses = std::string(app::kActionRepository) + "@" + ref;
    const Workflow wf =
        read_workflow("name: fill\non: push\njobs:\n  build:\n    steps:\n      - uses: " + uses +
                      "\n        with:\n          command: build\n          token: \"\"\n");
    RunnerSetup s = setup("push", push_event(project.base_sha), project.base_sha);
    s.action_refs.push_back(uses);
    const WorkflowRunResult run = run_workflow(wf, s);
    expect_benchpr_steps_succeeded(run);
  }
  ASSERT_EQ(cache.entries.size(), 2u);
  const std::string& v1 = cache.entries[0].key;
  const std::string& v100 = cache.entries[1].key;
  EXPECT_NE(v1, v100);
  const std::string release = "-v" BENCHPR_VERSION "-";
  ASSERT_TRUE(contains(v1, release + "v1-")) << v1;
  ASSERT_TRUE(contains(v100, release + "v1.0.0-")) << v100;
  // Same system part and sources hash: only the ref differs.
  EXPECT_EQ(v1.substr(0, v1.find(release)), v100.substr(0, v100.find(release)));
  EXPECT_EQ(v1.substr(v1.rfind('-')), v100.substr(v100.rfind('-')));
  ASSERT_EQ(cache.restores.size(), 2u);
  EXPECT_FALSE(cache.restores[1].hit);
  EXPECT_EQ(cache.restores[1].matched, v1);  // the other ref's build, through restore-keys
}

// The repository's own pull_request workflow (benchpr on benchpr, `uses: ./`) runs as written.
TEST_F(Workflows, TheRepositorysOwnWorkflowRuns) {
  const Workflow wf =
      read_workflow(read_file(std::string(BENCHPR_SOURCE_DIR) + "/.github/workflows/benchpr.yml"));
  add_pull_request(false);
  const WorkflowRunResult run = run_workflow(wf, pull_request_setup(false));
  expect_benchpr_steps_succeeded(run);
  EXPECT_EQ(benchpr_comments().size(), 1u) << run.log();
  EXPECT_FALSE(final_status().empty());
}

// One step of benchpr's action with these inputs (YAML lines under `with:`), in a pull_request
// job of the same repository.
WorkflowRunResult run_action_step(const std::string& with, RunnerSetup setup) {
  const Workflow wf = read_workflow(
      "name: one step\non: pull_request\npermissions:\n  pull-requests: write\njobs:\n"
      "  one:\n    steps:\n      - uses: " +
      app::pinned_uses(app::kCheckoutPin) + "\n      - id: benchpr\n        uses: " +
      std::string(app::kActionReference) + "\n        with:\n" + with);
  return run_workflow(wf, setup);
}

// Every line of a multi-line `args:` reaches benchpr: here the second line, --dry-run, keeps the
// comment from being posted (read as one line, it was lost and the comment was posted).
TEST_F(Workflows, EveryLineOfMultiLineArgsCounts) {
  add_pull_request(false);
  const WorkflowRunResult run =
      run_action_step("          args: |\n            --rounds 4\n            --dry-run\n",
                      pull_request_setup(false));
  expect_benchpr_steps_succeeded(run);
  EXPECT_TRUE(contains(run.log(), "4 rounds + 1 warm-up")) << run.log();
  EXPECT_TRUE(contains(run.log(), "dry run: nothing posted")) << run.log();
  EXPECT_TRUE(github.comments(kRepo, kNumber).empty());
}

TEST_F(Workflows, MergeWithoutArgsFailsSayingWhatToGive) {
  add_pull_request(false);
  const WorkflowRunResult run =
      run_action_step("          command: merge\n", pull_request_setup(false));
  EXPECT_EQ(run.conclusion, "failure");
  ASSERT_EQ(run.steps.size(), 2u);
  EXPECT_EQ(run.steps[1].exit_code, 2) << run.log();
  EXPECT_TRUE(contains(run.log(),
                       "::error::benchpr: command merge needs args naming the "
                       "directories that hold the shard results files"))
      << run.log();
}

TEST_F(Workflows, ANonLinuxRunnerGetsAClearError) {
  add_pull_request(false);
  RunnerSetup windows = pull_request_setup(false);
  windows.runner_os = "Windows";
  const WorkflowRunResult run = run_action_step("          rounds: \"4\"\n", windows);
  EXPECT_EQ(run.conclusion, "failure");
  EXPECT_TRUE(contains(run.log(),
                       "::error::benchpr runs on Linux runners only (ubuntu-22.04, "
                       "ubuntu-24.04 or ubuntu-latest, Debian 12); this job runs on "
                       "Windows"))
      << run.log();
  EXPECT_TRUE(github.requests().empty());
}

// At a release, the action downloads the released binary from the action repository's release,
// checks it against release/SHA256SUMS at its ref, and runs it: no build, no cache.
class ReleasedWorkflows : public Workflows {
 protected:
  RunnerSetup released_setup() {
    add_pull_request(false);
    RunnerSetup s = pull_request_setup(false);
    s.action_dir = released.dir();
    s.server_url = server.url();
    return s;
  }
  std::string download_path() const {
    return released.download_path(std::string(app::kActionRepository));
  }

  ReleasedAction released{BENCHPR_BINARY};
  FileServer server;
};

TEST_F(ReleasedWorkflows, TheReleasedBinaryIsDownloadedCheckedAndRunWithoutABuild) {
  server.serve(download_path(), released.tarball());
  const WorkflowRunResult run = run_action_step("          rounds: \"4\"\n", released_setup());
  expect_benchpr_steps_succeeded(run);
  EXPECT_EQ(server.requested(), std::vector<std::string>{download_path()});
  EXPECT_TRUE(contains(run.log(), "benchpr: running the released binary " + released.asset() +
                                      " (SHA-256 " + released.sha256() + ", checked)"))
      << run.log();
  EXPECT_TRUE(cache.restores.empty()) << run.log();  // nothing restored, built or saved
  EXPECT_TRUE(cache.entries.empty()) << run.log();
  EXPECT_FALSE(contains(run.log(), "building benchpr from source")) << run.log();
  EXPECT_EQ(benchpr_comments().size(), 1u) << run.log();
}

// What users run: the workflow `benchpr init` writes, with the action at a release.
TEST_F(ReleasedWorkflows, TheWorkflowInitWritesRunsTheReleasedBinary) {
  server.serve(download_path(), released.tarball());
  const Workflow wf = read_workflow(init_workflows({}).at("benchpr.yml"));
  const WorkflowRunResult run = run_workflow(wf, released_setup());
  expect_benchpr_steps_succeeded(run);
  EXPECT_EQ(server.requested(), std::vector<std::string>{download_path()});
  EXPECT_TRUE(contains(run.log(), "benchpr: running the released binary " + released.asset()))
      << run.log();
  EXPECT_TRUE(cache.restores.empty()) << run.log();
  EXPECT_EQ(benchpr_comments().size(), 1u) << run.log();
}

// An asset that is not the one whose SHA-256 the action's ref records is never run, and nothing
// is built in its place: the job fails, naming the mismatch.
TEST_F(ReleasedWorkflows, AReplacedReleaseAssetIsRefusedAndNeverRun) {
  TempDir planted;
  write_file(planted / "asset/benchpr", "#!/bin/sh\ntouch " + planted / "ran" + "\n");
  write_file(planted / "asset/runtime-packages", "git\n");
  run_checked("chmod +x asset/benchpr && tar -C asset -czf planted.tar.gz benchpr runtime-packages",
              planted.path());
  server.serve(download_path(), read_file(planted / "planted.tar.gz"));
  const WorkflowRunResult run = run_action_step("          rounds: \"4\"\n", released_setup());
  EXPECT_EQ(run.conclusion, "failure") << run.log();
  EXPECT_TRUE(contains(run.log(), "::error::benchpr: the downloaded " + released.asset() +
                                      " does not match the SHA-256 that release/SHA256SUMS "
                                      "records for it at this ref (expected " +
                                      released.sha256()))
      << run.log();
  EXPECT_FALSE(std::filesystem::exists(planted / "ran"));
  EXPECT_TRUE(cache.restores.empty()) << run.log();
  EXPECT_TRUE(benchpr_comments().empty()) << run.log();
}

// A release without this system's asset on the server (a failed upload, an image added later)
// costs a build, not the job: the warning names the URL and the fallback.
TEST_F(ReleasedWorkflows, AMissingReleaseAssetFallsBackToBuildingFromSource) {
  const WorkflowRunResult run = run_action_step("          rounds: \"4\"\n", released_setup());
  expect_benchpr_steps_succeeded(run);
  EXPECT_EQ(server.requested(), std::vector<std::string>{download_path()});
  EXPECT_TRUE(contains(run.log(), "::warning::benchpr: could not download the released binary " +
                                      server.url() + download_path()))
      << run.log();
  EXPECT_TRUE(contains(run.log(), "building benchpr from source instead")) << run.log();
  EXPECT_EQ(cache.restores.size(), 1u) << run.log();  // the build path, as before releases
  EXPECT_EQ(benchpr_comments().size(), 1u) << run.log();
}

// Only the sources a release was built from get its binary: an unreleased checkout (no binary
// listed) or an edited one (a branch after the release) builds from source and asks for nothing.
TEST_F(ReleasedWorkflows, SourcesThatAreNotAReleasesBuildWithoutDownloading) {
  server.serve(download_path(), released.tarball());
  {
    // A commit between releases: release/SHA256SUMS as main holds it, comments only (written
    // here, not read from this checkout, which holds a release's lines at a release commit).
    write_file(released.dir() + "/release/SHA256SUMS",
               "# The released benchpr binaries. This commit is no release.\n");
    const WorkflowRunResult run = run_action_step("          rounds: \"4\"\n", released_setup());
    expect_benchpr_steps_succeeded(run);
    EXPECT_TRUE(contains(run.log(), "this ref of the action is no release")) << run.log();
    released.commit_checksum(released.sha256());
  }
  write_file(released.dir() + "/src/benchpr/app/edited.cpp", "// a change after the release\n");
  const WorkflowRunResult run = run_action_step("          rounds: \"4\"\n", released_setup());
  expect_benchpr_steps_succeeded(run);
  EXPECT_TRUE(contains(
      run.log(), "the action's sources at this ref are not those of release v" BENCHPR_VERSION))
      << run.log();
  EXPECT_TRUE(server.requested().empty());
  EXPECT_EQ(cache.restores.size(), 2u) << run.log();
}

}  // namespace
}  // namespace benchpr::testing
