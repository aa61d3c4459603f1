#include "support/workflow_sim.hpp"

#include <fnmatch.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <stdexcept>

#include "support/benchpr_process.hpp"
#include "support/temp_dir.hpp"
#include "support/temp_repo.hpp"
#include "support/workflow_expr.hpp"

namespace benchpr::testing {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

std::string scalar(const YAML::Node& n) { return n && n.IsScalar() ? n.as<std::string>() : ""; }

std::map<std::string, std::string> string_map(const YAML::Node& n) {
  std::map<std::string, std::string> out;
  if (n && n.IsMap())
    for (const auto& kv : n) out[kv.first.as<std::string>()] = scalar(kv.second);
  return out;
}

std::vector<std::string> string_list(const YAML::Node& n) {
  std::vector<std::string> out;
  if (!n) return out;
  if (n.IsScalar()) return {n.as<std::string>()};
  for (const auto& item : n) out.push_back(scalar(item));
  return out;
}

WorkflowStep read_step(const YAML::Node& n) {
  WorkflowStep s;
  s.name = scalar(n["name"]);
  s.id = scalar(n["id"]);
  s.uses = scalar(n["uses"]);
  s.run = scalar(n["run"]);
  s.condition = scalar(n["if"]);
  s.continue_on_error = scalar(n["continue-on-error"]) == "true";
  s.with = string_map(n["with"]);
  if (s.name.empty()) s.name = s.uses.empty() ? s.run.substr(0, 40) : s.uses;
  return s;
}

std::map<std::string, std::string> read_permissions(const YAML::Node& n, bool* present) {
  *present = static_cast<bool>(n);
  return string_map(n);
}

// `name=value` lines and `name<<DELIMITER` blocks, as runners read $GITHUB_OUTPUT.
std::map<std::string, std::string> read_outputs(const std::string& path) {
  std::map<std::string, std::string> out;
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line)) {
    if (const auto heredoc = line.find("<<");
        heredoc != std::string::npos && line.find('=') == std::string::npos) {
      const std::string name = line.substr(0, heredoc), end = line.substr(heredoc + 2);
      std::string value, body;
      bool first = true;
      while (std::getline(in, body) && body != end) {
        value += (first ? "" : "\n") + body;
        first = false;
      }
      out[name] = value;
    } else if (const auto eq = line.find('='); eq != std::string::npos) {
      out[line.substr(0, eq)] = line.substr(eq + 1);
    }
  }
  return out;
}

std::optional<ExprValue> from_json(const json& j) {
  if (j.is_null()) return ExprValue{};
  if (j.is_boolean()) return ExprValue::of_bool(j.get<bool>());
  if (j.is_number()) {
    ExprValue v;
    v.kind = ExprValue::Kind::Number;
    v.number = j.get<double>();
    return v;
  }
  if (j.is_string()) return ExprValue::string(j.get<std::string>());
  return ExprValue::object();
}

std::vector<std::string> split_path(const std::string& path) {
  std::vector<std::string> parts;
  std::size_t start = 0;
  for (std::size_t dot = path.find('.'); dot != std::string::npos; dot = path.find('.', start)) {
    parts.push_back(path.substr(start, dot - start));
    start = dot + 1;
  }
  parts.push_back(path.substr(start));
  return parts;
}

struct StepState {
  std::map<std::string, std::string> outputs;
  std::string outcome;     // before continue-on-error
  std::string conclusion;  // after it
};

struct NeedState {
  std::string result;
  std::map<std::string, std::string> outputs;
};

// Everything `${{ }}` can see in one job (or inside the action).
struct Scope {
  const RunnerSetup* setup = nullptr;
  std::string token;
  std::string workspace;
  std::string runner_temp;
  std::string matrix_shard;
  std::string action_ref;  // inside an action: the ref its `uses:` names ("" for a local one)
  std::string action_repository;  // inside an action: the owner/name of its `uses:` ("" local)
  const std::map<std::string, StepState>* steps = nullptr;
  const std::map<std::string, NeedState>* needs = nullptr;
  const std::map<std::string, std::string>* inputs = nullptr;

  std::optional<ExprValue> lookup(const std::string& path) const {
    const auto p = split_path(path);
    const std::string& root = p[0];
    auto from_map = [](const std::map<std::string, std::string>& m,
                       const std::string& key) -> std::optional<ExprValue> {
      auto it = m.find(key);
      if (it == m.end()) return ExprValue{};
      return ExprValue::string(it->second);
    };
    if (root == "github") {
      if (p.size() >= 2 && p[1] == "event") {
        const json* j = &setup->event;
        for (std::size_t i = 2; i < p.size(); ++i) {
          if (!j->is_object() || !j->contains(p[i])) return ExprValue{};
          j = &(*j)[p[i]];
        }
        return from_json(*j);
      }
      if (p.size() == 2 && p[1] == "token") return ExprValue::string(token);
      if (p.size() == 2 && p[1] == "event_name") return ExprValue::string(setup->event_name);
      if (p.size() == 2 && p[1] == "repository") return ExprValue::string(setup->repository);
      if (p.size() == 2 && p[1] == "sha") return ExprValue::string(setup->sha);
      if (p.size() == 2 && p[1] == "workspace") return ExprValue::string(workspace);
      if (p.size() == 2 && p[1] == "action_ref") return ExprValue::string(action_ref);
      if (p.size() == 2 && p[1] == "action_repository") return ExprValue::string(action_repository);
    }
    if (root == "runner" && p.size() == 2 && p[1] == "temp") return ExprValue::string(runner_temp);
    if (root == "secrets" && p.size() == 2 && p[1] == "GITHUB_TOKEN")
      return ExprValue::string(token);
    if (root == "matrix" && p.size() == 2 && p[1] == "shard" && !matrix_shard.empty())
      return ExprValue::string(matrix_shard);
    if (root == "steps" && steps && p.size() >= 3) {
      auto it = steps->find(p[1]);
      if (it == steps->end()) return ExprValue{};
      if (p[2] == "outputs" && p.size() == 4) return from_map(it->second.outputs, p[3]);
      if (p[2] == "outcome" && p.size() == 3) return ExprValue::string(it->second.outcome);
      if (p[2] == "conclusion" && p.size() == 3) return ExprValue::string(it->second.conclusion);
    }
    if (root == "needs" && needs && p.size() >= 3) {
      auto it = needs->find(p[1]);
      if (it == needs->end()) throw std::runtime_error(path + ": not a job this one needs");
      if (p[2] == "outputs" && p.size() == 4) return from_map(it->second.outputs, p[3]);
      if (p[2] == "result" && p.size() == 3) return ExprValue::string(it->second.result);
    }
    if (root == "inputs" && inputs && p.size() == 2) {
      if (!inputs->count(p[1])) throw std::runtime_error(path + ": the action has no such input");
      return from_map(*inputs, p[1]);
    }
    throw std::runtime_error("no context value " + path + " in this simulation");
  }
};

ExprContext context_of(const Scope& scope, bool failed) {
  ExprContext c;
  c.lookup = [&scope](const std::string& path) { return scope.lookup(path); };
  c.failed = failed;
  return c;
}

std::string shell_env_word(const std::string& name, const std::string& value) {
  return name + "=" + value;
}

struct Job {
  const RunnerSetup& setup;
  Scope scope;
  std::string job_dir;
  std::string runner_temp;
  std::string home;
  std::string name;  // "measure (2)"
  int step_counter = 0;

  // The variables a runner sets for every step (GitHub's "Default environment variables").
  std::vector<std::string> base_env(const std::string& output_file,
                                    const std::string& summary_file) const {
    const char* path = std::getenv("PATH");
    return {shell_env_word("PATH", path ? path : "/usr/bin:/bin"),
            shell_env_word("HOME", home),
            "CI=true",
            "GITHUB_ACTIONS=true",
            shell_env_word("GITHUB_EVENT_NAME", setup.event_name),
            shell_env_word("GITHUB_EVENT_PATH", job_dir + "/event.json"),
            shell_env_word("GITHUB_REPOSITORY", setup.repository),
            shell_env_word("GITHUB_REPOSITORY_OWNER",
                           setup.repository.substr(0, setup.repository.find('/'))),
            shell_env_word("GITHUB_API_URL", setup.api_url),
            shell_env_word("GITHUB_SERVER_URL", setup.server_url),
            shell_env_word("GITHUB_SHA", setup.sha),
            shell_env_word("GITHUB_REF", setup.ref),
            "GITHUB_RUN_ID=4242",
            "GITHUB_RUN_ATTEMPT=1",
            shell_env_word("GITHUB_WORKSPACE", scope.workspace),
            shell_env_word("GITHUB_OUTPUT", output_file),
            shell_env_word("GITHUB_STEP_SUMMARY", summary_file),
            shell_env_word("GITHUB_ENV", job_dir + "/env"),
            shell_env_word("GITHUB_PATH", job_dir + "/path"),
            shell_env_word("RUNNER_TEMP", runner_temp),
            shell_env_word("RUNNER_OS", setup.runner_os),
            "RUNNER_ARCH=X64",
            "GIT_CONFIG_NOSYSTEM=1",
            shell_env_word("GIT_CONFIG_GLOBAL", home + "/.gitconfig")};
  }

  // One bash script as a runner runs `shell: bash` (`bash --noprofile --norc -eo pipefail`),
  // in a clean environment: only the runner's variables and the step's `env:`.
  StepResult bash(const std::string& script, const std::map<std::string, std::string>& env,
                  const std::string& cwd) {
    const std::string n = std::to_string(++step_counter);
    const std::string script_file = job_dir + "/step" + n + ".sh";
    const std::string output_file = job_dir + "/output" + n;
    write_file(script_file, script);
    write_file(output_file, "");
    std::vector<std::string> args = {"-i"};
    for (const auto& word : base_env(output_file, job_dir + "/summary")) args.push_back(word);
    for (const auto& [k, v] : env) args.push_back(shell_env_word(k, v));
    for (const char* shell : {"/bin/bash", "--noprofile", "--norc", "-eo", "pipefail"})
      args.push_back(shell);
    args.push_back(script_file);
    const BenchprRun r = run_benchpr("/usr/bin/env", args, {}, cwd);
    StepResult result;
    result.ran = true;
    result.exit_code = r.exit_code;
    result.outcome = r.exit_code == 0 ? "success" : "failure";
    result.log = r.out + r.err;
    result.outputs = read_outputs(output_file);
    return result;
  }

  StepResult fail(const std::string& why) {
    StepResult r;
    r.ran = true;
    r.outcome = "failure";
    r.exit_code = 1;
    r.log = "simulation: " + why + "\n";
    return r;
  }

  StepResult checkout(const std::map<std::string, std::string>& with) {
    const std::string target =
        with.count("path") ? scope.workspace + "/" + with.at("path") : scope.workspace;
    std::error_code ec;
    fs::remove_all(target, ec);
    const std::string script =
        "git clone -q --no-checkout " + shell_quote(setup.origin) + " " + shell_quote(target) +
        "\ngit -C " + shell_quote(target) +
        " fetch -q origin '+refs/pull/*:refs/remotes/origin/pull/*'\ngit -C " +
        shell_quote(target) + " -c advice.detachedHead=false checkout -q --detach " +
        shell_quote(setup.sha) + "\n";
    return bash(script, {}, job_dir);
  }

  StepResult upload(const std::map<std::string, std::string>& with) {
    const std::string name = with.count("name") ? with.at("name") : "artifact";
    const std::string path = with.count("path") ? with.at("path") : "";
    const std::string source = path.empty() || path[0] == '/' ? path : scope.workspace + "/" + path;
    std::error_code ec;
    if (path.empty() || !fs::is_regular_file(source, ec)) {
      if (with.count("if-no-files-found") && with.at("if-no-files-found") == "error")
        return fail("upload-artifact: no file at '" + path + "' (if-no-files-found: error)");
      StepResult r;
      r.ran = true;
      r.outcome = "success";
      r.log = "simulation: upload-artifact found nothing at '" + path + "'\n";
      return r;
    }
    const fs::path dir = fs::path(setup.artifacts_dir) / name;
    if (fs::exists(dir, ec)) return fail("upload-artifact: an artifact named " + name + " exists");
    fs::create_directories(dir, ec);
    fs::copy_file(source, dir / fs::path(source).filename(), ec);
    if (ec) return fail("upload-artifact: " + ec.message());
    if (setup.after_upload) setup.after_upload(name, dir.string());
    StepResult r;
    r.ran = true;
    r.outcome = "success";
    return r;
  }

  StepResult download(const std::map<std::string, std::string>& with) {
    std::error_code ec;
    const fs::path target = with.count("path") ? fs::path(scope.workspace) / with.at("path")
                                               : fs::path(scope.workspace);
    fs::create_directories(target, ec);
    if (with.count("name")) {
      const fs::path dir = fs::path(setup.artifacts_dir) / with.at("name");
      if (!fs::is_directory(dir, ec))
        return fail("download-artifact: Artifact not found for name: " + with.at("name"));
      fs::copy(dir, target, fs::copy_options::recursive | fs::copy_options::overwrite_existing, ec);
    } else if (with.count("pattern")) {
      // Each matching artifact in a directory of its own name (merge-multiple: false).
      if (fs::is_directory(setup.artifacts_dir, ec)) {
        for (const auto& entry : fs::directory_iterator(setup.artifacts_dir)) {
          const std::string name = entry.path().filename().string();
          if (fnmatch(with.at("pattern").c_str(), name.c_str(), 0) != 0) continue;
          fs::copy(entry.path(), target / name, fs::copy_options::recursive, ec);
        }
      }
    } else {
      return fail("download-artifact without name or pattern is not simulated");
    }
    StepResult r;
    r.ran = true;
    r.outcome = ec ? "failure" : "success";
    r.log = ec ? "simulation: download-artifact: " + ec.message() + "\n" : "";
    return r;
  }

  // actions/cache/restore and actions/cache/save against setup.cache (the path's content is
  // not kept: the build it holds is the binary under test either way).
  StepResult cache_step(const std::string& uses, const std::map<std::string, std::string>& with) {
    StepResult r;
    r.ran = true;
    r.outcome = "success";
    ActionsCache* cache = setup.cache;
    const std::string key = with.count("key") ? with.at("key") : "";
    if (key.empty()) return fail(uses + ": no key");
    std::vector<std::string> scopes = {setup.ref};
    if (setup.ref != "refs/heads/" + setup.default_branch)
      scopes.push_back("refs/heads/" + setup.default_branch);
    if (uses.starts_with("actions/cache/save@")) {
      if (!cache) return r;
      for (const auto& e : cache->entries)
        if (e.key == key && e.scope == setup.ref) {
          cache->refused.push_back({key, setup.ref, name});
          r.log = "simulation: cache save: " + key + " exists in " + setup.ref + "\n";
          return r;
        }
      cache->entries.push_back({key, setup.ref, name});
      r.log = "simulation: cache saved: " + key + "\n";
      return r;
    }
    std::vector<std::string> prefixes = {key};
    if (with.count("restore-keys")) {
      std::string rest = with.at("restore-keys");
      for (std::size_t start = 0; start <= rest.size();) {
        std::size_t end = rest.find('\n', start);
        if (end == std::string::npos) end = rest.size();
        std::string line = rest.substr(start, end - start);
        while (!line.empty() && (line.back() == ' ' || line.back() == '\r')) line.pop_back();
        line.erase(0, line.find_first_not_of(' ') == std::string::npos
                          ? line.size()
                          : line.find_first_not_of(' '));
        if (!line.empty()) prefixes.push_back(line);
        start = end + 1;
      }
    }
    ActionsCache::Restore restore{name, setup.ref, key, "", false};
    if (cache) {
      for (const std::string& scope : scopes) {
        for (const auto& e : cache->entries)
          if (e.scope == scope && e.key == key) restore.matched = e.key;
        for (std::size_t i = 0; restore.matched.empty() && i < prefixes.size(); ++i)
          for (auto e = cache->entries.rbegin(); e != cache->entries.rend(); ++e)
            if (e->scope == scope && e->key.starts_with(prefixes[i])) {
              restore.matched = e->key;
              break;
            }
        if (!restore.matched.empty()) break;
      }
      restore.hit = restore.matched == key;
      cache->restores.push_back(restore);
    }
    r.outputs["cache-hit"] = restore.hit ? "true" : "false";
    r.outputs["cache-matched-key"] = restore.matched;
    r.outputs["cache-primary-key"] = key;
    r.log = "simulation: cache restore of " + key +
            (restore.matched.empty() ? ": miss" : ": found " + restore.matched) + "\n";
    return r;
  }

  // benchpr's composite action: action.yml's inputs, steps and outputs, its scripts run as
  // written; the build step (apt-get, cmake) is the one thing replaced, by the binary under test.
  StepResult action(const std::map<std::string, std::string>& with, const std::string& uses) {
    std::string action_dir = setup.action_dir;
    if (uses.starts_with("./")) {
      // A runner reads a local action from the workspace as it is now.
      const fs::path local = fs::path(scope.workspace) / uses.substr(2);
      std::error_code ec;
      if (fs::exists(local / "action.yml", ec)) action_dir = local.lexically_normal().string();
    }
    const YAML::Node action = YAML::LoadFile(action_dir + "/action.yml");
    std::map<std::string, std::string> inputs;
    std::map<std::string, StepState> steps;
    Scope inner = scope;
    inner.steps = &steps;
    inner.inputs = &inputs;
    inner.needs = nullptr;
    inner.action_ref = uses.find('@') == std::string::npos ? "" : uses.substr(uses.find('@') + 1);
    inner.action_repository =
        uses.find('@') == std::string::npos ? "" : uses.substr(0, uses.find('@'));
    for (const auto& kv : action["inputs"]) {
      const std::string name = kv.first.as<std::string>();
      inputs[name] = expand(scalar(kv.second["default"]), context_of(inner, false));
    }
    for (const auto& [name, value] : with) {
      if (!inputs.count(name)) return fail("the action has no input '" + name + "'");
      inputs[name] = value;
    }
    StepResult total;
    total.ran = true;
    total.outcome = "success";
    bool failed = false;
    for (const auto& node : action["runs"]["steps"]) {
      const WorkflowStep s = read_step(node);
      const ExprContext ctx = context_of(inner, failed);
      if (!condition(s.condition, ctx)) {
        steps[s.id] = {{}, "skipped", "skipped"};
        continue;
      }
      StepResult r;
      if (s.uses.starts_with("actions/cache/restore@") ||
          s.uses.starts_with("actions/cache/save@")) {
        std::map<std::string, std::string> step_with;
        for (const auto& [k, v] : s.with) step_with[k] = expand(v, ctx);
        r = cache_step(s.uses, step_with);
      } else if (!s.uses.empty()) {
        r = fail("a step of the action this simulation cannot carry out: " + s.uses);
      } else if (s.id == "build") {
        const std::string dir = steps["key"].outputs["dir"];
        std::error_code ec;
        fs::create_directories(dir, ec);
        fs::remove(dir + "/benchpr", ec);
        fs::create_symlink(setup.benchpr_binary, dir + "/benchpr", ec);
        r.ran = true;
        r.outcome = ec ? "failure" : "success";
        // Built unless the exact key was restored (a restore-keys hit brings an older build,
        // which the script rebuilds from): what decides whether the save step runs.
        r.outputs["built"] = steps["cache"].outputs["cache-hit"] == "true" ? "false" : "true";
      } else {
        std::map<std::string, std::string> env;
        for (const auto& [k, v] : string_map(node["env"])) env[k] = expand(v, ctx);
        env["GITHUB_ACTION_PATH"] = action_dir;
        r = bash(s.run, env, scope.workspace);
      }
      total.log += r.log;
      steps[s.id] = {r.outputs, r.outcome, r.outcome};
      if (r.outcome == "failure") {
        failed = true;
        total.outcome = "failure";
        total.exit_code = r.exit_code;
      }
    }
    for (const auto& kv : action["outputs"]) {
      total.outputs[kv.first.as<std::string>()] =
          expand(scalar(kv.second["value"]), context_of(inner, false));
    }
    return total;
  }
};

}  // namespace

Workflow read_workflow(const std::string& yaml_text) {
  const YAML::Node root = YAML::Load(yaml_text);
  Workflow w;
  w.name = scalar(root["name"]);
  const YAML::Node on = root["on"];
  if (on.IsMap()) {
    for (const auto& kv : on) w.events.push_back(kv.first.as<std::string>());
  } else {
    w.events = string_list(on);
  }
  bool unused = false;
  w.permissions = read_permissions(root["permissions"], &unused);
  std::vector<WorkflowJob> jobs;
  for (const auto& kv : root["jobs"]) {
    WorkflowJob j;
    j.id = kv.first.as<std::string>();
    const YAML::Node n = kv.second;
    j.needs = string_list(n["needs"]);
    j.condition = scalar(n["if"]);
    if (n["strategy"] && n["strategy"]["matrix"])
      j.matrix_shards = string_list(n["strategy"]["matrix"]["shard"]);
    j.permissions = read_permissions(n["permissions"], &j.has_permissions);
    j.outputs = string_map(n["outputs"]);
    for (const auto& step : n["steps"]) j.steps.push_back(read_step(step));
    jobs.push_back(std::move(j));
  }
  // In an order where every job comes after the jobs it needs.
  std::set<std::string> placed;
  while (!jobs.empty()) {
    auto ready = std::find_if(jobs.begin(), jobs.end(), [&](const WorkflowJob& j) {
      return std::all_of(j.needs.begin(), j.needs.end(),
                         [&](const std::string& n) { return placed.count(n) > 0; });
    });
    if (ready == jobs.end()) throw std::runtime_error("jobs whose needs cannot be met");
    placed.insert(ready->id);
    w.jobs.push_back(*ready);
    jobs.erase(ready);
  }
  return w;
}

std::string WorkflowRunResult::log() const {
  std::string out;
  for (const StepResult& s : steps)
    out += "=== " + s.job + " / " + s.step + ": " + s.outcome +
           (s.ran ? " (exit " + std::to_string(s.exit_code) + ")" : "") + "\n" + s.log;
  return out;
}

std::vector<const StepResult*> WorkflowRunResult::benchpr_steps() const {
  std::vector<const StepResult*> out;
  for (const StepResult& s : steps)
    if (s.ran && s.outputs.count("recommendation")) out.push_back(&s);
  return out;
}

WorkflowRunResult run_workflow(const Workflow& workflow, const RunnerSetup& setup) {
  WorkflowRunResult run;
  std::map<std::string, NeedState> finished;
  for (const WorkflowJob& job : workflow.jobs) {
    std::map<std::string, NeedState> needs;
    bool needs_failed = false;
    for (const std::string& n : job.needs) {
      needs[n] = finished.at(n);
      needs_failed |= needs[n].result != "success";
    }
    const std::map<std::string, std::string>& perms =
        job.has_permissions ? job.permissions : workflow.permissions;
    std::vector<std::string> writes;
    for (const char* scope : {"pull-requests", "statuses"}) {
      auto it = perms.find(scope);
      if (it != perms.end() && it->second == "write" && !setup.read_only_token)
        writes.push_back(scope);
    }
    NeedState state;
    state.result = "success";
    bool any_ran = false;
    const std::vector<std::string> instances =
        job.matrix_shards.empty() ? std::vector<std::string>{""} : job.matrix_shards;
    for (const std::string& shard : instances) {
      TempDir dir;
      const std::string job_name = shard.empty() ? job.id : job.id + " (" + shard + ")";
      Job j{setup, {}, dir.path(), dir / "temp", dir / "home", job_name};
      j.scope.setup = &setup;
      j.scope.token = setup.token_for(writes);
      j.scope.workspace = dir / "work";
      j.scope.runner_temp = j.runner_temp;
      j.scope.matrix_shard = shard;
      j.scope.needs = &needs;
      std::map<std::string, StepState> steps;
      j.scope.steps = &steps;
      for (const std::string& d : {j.scope.workspace, j.runner_temp, j.home})
        fs::create_directories(d);
      write_file(j.job_dir + "/event.json", setup.event.dump());
      if (!condition(job.condition, context_of(j.scope, needs_failed))) {
        state.result = "skipped";
        run.steps.push_back({job_name, "(job skipped: if)", false, "skipped", 0, "", {}});
        continue;
      }
      any_ran = true;
      bool failed = false;
      for (const WorkflowStep& step : job.steps) {
        const ExprContext ctx = context_of(j.scope, failed);
        StepResult r;
        if (!condition(step.condition, ctx)) {
          r.outcome = "skipped";
        } else {
          std::map<std::string, std::string> with;
          for (const auto& [k, v] : step.with) with[k] = expand(v, ctx);
          const bool benchpr = std::find(setup.action_refs.begin(), setup.action_refs.end(),
                                         step.uses) != setup.action_refs.end();
          if (step.uses.starts_with("actions/checkout@")) {
            r = j.checkout(with);
          } else if (step.uses.starts_with("actions/upload-artifact@")) {
            r = j.upload(with);
          } else if (step.uses.starts_with("actions/download-artifact@")) {
            r = j.download(with);
          } else if (benchpr) {
            r = j.action(with, step.uses);
          } else if (!step.run.empty()) {
            r = j.bash(expand(step.run, ctx), {}, j.scope.workspace);
          } else {
            r = j.fail("a step this simulation cannot carry out: " + step.uses);
          }
        }
        r.job = job_name;
        r.step = step.name;
        const bool step_failed = r.outcome == "failure";
        if (!step.id.empty())
          steps[step.id] = {r.outputs, r.outcome,
                            step_failed && step.continue_on_error ? "success" : r.outcome};
        if (step_failed && !step.continue_on_error) failed = true;
        run.steps.push_back(r);
      }
      if (failed) state.result = "failure";
      for (const auto& [name, value] : job.outputs)
        state.outputs[name] = expand(value, context_of(j.scope, false));
    }
    if (!any_ran) state.result = "skipped";
    finished[job.id] = state;
    run.job_results[job.id] = state.result;
  }
  run.conclusion = "success";
  for (const auto& [id, result] : run.job_results)
    if (result == "failure") run.conclusion = "failure";
  return run;
}

}  // namespace benchpr::testing
