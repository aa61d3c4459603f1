// Runs a GitHub workflow as written, on this machine, the way a runner would: reads the jobs and
// steps from the YAML, orders the jobs by `needs` (a matrix job once per value), evaluates every
// `if:` and `${{ }}`, gives each job a fresh checkout, RUNNER_TEMP, token and the GITHUB_* files,
// and carries out each step: benchpr's action by running action.yml's own scripts (the build
// itself replaced by the benchpr binary under test), actions/checkout as a clone of a local
// "origin" repository, upload/download-artifact through a directory shared by the jobs of a run,
// and `run:` steps with bash. A local action (`uses: ./DIR`) is read from the workspace, as a
// runner reads it: when DIR/action.yml is there (a checkout of benchpr at DIR, or anything a
// step wrote there), that file is the action run; when it is not, the checkout of the project
// stands for benchpr's and action_dir's action.yml is run. What it cannot carry out fails the
// test instead of passing quietly.
#pragma once

#include <functional>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace benchpr::testing {

struct WorkflowStep {
  std::string name;
  std::string id;
  std::string uses;
  std::string run;
  std::string condition;  // `if:`
  bool continue_on_error = false;
  std::map<std::string, std::string> with;
};

struct WorkflowJob {
  std::string id;
  std::vector<std::string> needs;
  std::string condition;
  std::vector<std::string> matrix_shards;          // values of matrix.shard; empty: no matrix
  std::map<std::string, std::string> permissions;  // the job's own, else the workflow's
  bool has_permissions = false;
  std::map<std::string, std::string> outputs;
  std::vector<WorkflowStep> steps;
};

struct Workflow {
  std::string name;
  std::vector<std::string> events;  // the keys of `on:`
  std::map<std::string, std::string> permissions;
  std::vector<WorkflowJob> jobs;  // in the order they can run
};

Workflow read_workflow(const std::string& yaml_text);

// The Actions cache of one repository, shared by the runs of a test: what a run's
// actions/cache/save stores, a later run's actions/cache/restore finds, with GitHub's scoping
// (a run sees its own ref's entries, then the default branch's) and matching (the exact key,
// then the key and each restore-key as a prefix, newest entry first; cache-hit only for the
// exact key).
struct ActionsCache {
  struct Entry {
    std::string key;
    std::string scope;  // the GITHUB_REF of the run that saved it
    std::string job;
  };
  struct Restore {
    std::string job;
    std::string scope;
    std::string key;      // asked for
    std::string matched;  // "" on a miss
    bool hit = false;     // the exact key
  };
  std::vector<Entry> entries;  // oldest first
  std::vector<Restore> restores;
  std::vector<Entry> refused;  // saves of a key its scope holds already (caches are immutable)
};

// What a runner knows about the run and the repository.
struct RunnerSetup {
  std::string event_name;  // pull_request, workflow_run, issue_comment
  nlohmann::json event;    // the payload written to $GITHUB_EVENT_PATH
  std::string repository;  // owner/name
  std::string sha;         // GITHUB_SHA: what actions/checkout checks out
  std::string ref;         // GITHUB_REF
  std::string origin;      // path of the git repository actions/checkout clones
  std::string api_url;
  std::string server_url = "https://github.com";  // GITHUB_SERVER_URL: where releases are
  std::string action_dir;                         // benchpr's checkout: action.yml and its sources
  std::string benchpr_binary;                     // stands for the action's build
  std::vector<std::string> action_refs;           // the `uses:` values that mean benchpr's action
  std::string artifacts_dir;  // shared by the jobs of a run (and the run that reads them)
  // The job's GITHUB_TOKEN for the writes its permissions allow ("pull-requests", "statuses");
  // a fork's pull_request job gets one without writes whatever it asks for.
  std::function<std::string(const std::vector<std::string>& writes)> token_for;
  bool read_only_token = false;     // a pull_request event from a fork
  std::string runner_os = "Linux";  // RUNNER_OS
  ActionsCache* cache = nullptr;    // nullptr: every restore misses, saves are dropped
  std::string default_branch = "main";
  // Called after upload-artifact stored artifact `name` in `dir`: a test adds entries there, as
  // code of the pull request that ran in the uploading job (root on the runner) can.
  std::function<void(const std::string& name, const std::string& dir)> after_upload;
};

struct StepResult {
  std::string job;  // "measure (2)" for a matrix instance
  std::string step;
  bool ran = false;
  std::string outcome;  // success, failure, skipped
  int exit_code = 0;
  std::string log;  // stdout and stderr of what the step ran
  std::map<std::string, std::string> outputs;
};

struct WorkflowRunResult {
  std::vector<StepResult> steps;
  std::map<std::string, std::string> job_results;  // success, failure, skipped
  std::string conclusion;                          // success or failure
  // Every line the steps printed, for a test's failure message.
  std::string log() const;
  // The steps that ran a benchpr action, in order.
  std::vector<const StepResult*> benchpr_steps() const;
};

WorkflowRunResult run_workflow(const Workflow& workflow, const RunnerSetup& setup);

}  // namespace benchpr::testing
