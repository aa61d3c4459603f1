#include "benchpr/app/workflow_template.hpp"

#include <stdexcept>
#include <utility>

#include "benchpr/app/embedded_workflow_templates.hpp"

namespace benchpr::app {

namespace {

// A workflow template of templates/workflows/ (compiled into the binary) by its file name without
// `.yml`. The templates are written as they are read in the workflow (GitHub's `${{ }}`
// untouched); @NAME@ stands for what fill() puts in.
std::string_view workflow_template(std::string_view name) {
  for (const render::EmbeddedTemplate& t : embedded_workflow_templates()) {
    if (t.name == name) return t.text;
  }
  throw std::logic_error("no workflow template " + std::string(name));
}

// A template that is part of others (the jobs of a workflow), without its last newline: it
// stands for a placeholder that has a line of its own.
std::string fragment(std::string_view name) {
  std::string_view text = workflow_template(name);
  if (text.ends_with('\n')) text.remove_suffix(1);
  return std::string(text);
}

// Puts the action references (which live in the header), the shard count and list, and the
// `parts` (fragments, first, so that their own placeholders are filled too) in `name`.
std::string fill(std::string_view name, int shards = 0,
                 const std::vector<std::pair<std::string_view, std::string>>& parts = {}) {
  std::string text(workflow_template(name));
  std::string list;
  for (int i = 1; i <= shards; ++i) list += (i > 1 ? ", " : "") + std::to_string(i);
  std::vector<std::pair<std::string_view, std::string>> values = parts;
  values.insert(values.end(), {{"@ACTION@", std::string(kActionReference)},
                               {"@CHECKOUT@", pinned_uses(kCheckoutPin)},
                               {"@UPLOAD@", pinned_uses(kUploadArtifactPin)},
                               {"@DOWNLOAD@", pinned_uses(kDownloadArtifactPin)},
                               {"@SHARDS@", std::to_string(shards)},
                               {"@SHARD_LIST@", list}});
  for (const auto& [placeholder, value] : values) {
    for (std::size_t at = text.find(placeholder); at != std::string::npos;
         at = text.find(placeholder, at + value.size()))
      text.replace(at, placeholder.size(), value);
  }
  return text;
}

}  // namespace

std::string pinned_uses(const ActionPin& pin) {
  return std::string(pin.uses) + "  # " + std::string(pin.version);
}

std::string dependabot_yaml() { return std::string(workflow_template("dependabot")); }

std::string pull_request_workflow_yaml() { return fill("pull_request"); }

std::string sharded_workflow_yaml(int shards) {
  return fill("sharded", shards, {{"@SHARD_JOBS@", fragment("shard_jobs")}});
}

std::string fork_safe_measure_workflow_yaml(int shards) {
  // With shards: the matrix's measuring jobs and a merging job that uploads what the publishing
  // workflow posts; else one measuring job that uploads it.
  const std::string jobs = shards > 1
                               ? fragment("shard_jobs") + "\n\n" + fragment("fork_safe_merge_job")
                               : fragment("fork_safe_measure_job");
  return fill("fork_safe_measure", shards > 1 ? shards : 0, {{"@JOBS@", jobs}});
}

std::string fork_safe_publish_workflow_yaml() { return fill("fork_safe_publish"); }

std::string command_workflow_yaml() { return fill("command"); }

bool restores_build_cache(const WorkflowChoice& choice) {
  // Not /benchmark's measuring job: on issue_comment it would use the default branch's scope.
  return choice.shards > 1 || choice.fork_safe;
}

std::string cache_fill_workflow_yaml(const std::string& default_branch) {
  std::string yaml = fill("cache_fill");
  const std::string name = "@BRANCH@";
  yaml.replace(yaml.find(name), name.size(), default_branch);
  return yaml;
}

std::vector<WorkflowFile> workflow_files(const WorkflowChoice& choice) {
  std::vector<WorkflowFile> files;
  if (choice.fork_safe) {
    files.push_back(
        {".github/workflows/benchpr.yml", fork_safe_measure_workflow_yaml(choice.shards)});
    files.push_back({".github/workflows/benchpr-publish.yml", fork_safe_publish_workflow_yaml()});
  } else {
    files.push_back({".github/workflows/benchpr.yml", choice.shards > 1
                                                          ? sharded_workflow_yaml(choice.shards)
                                                          : pull_request_workflow_yaml()});
  }
  if (choice.command)
    files.push_back({".github/workflows/benchpr-command.yml", command_workflow_yaml()});
  if (restores_build_cache(choice))
    files.push_back(
        {".github/workflows/benchpr-cache.yml", cache_fill_workflow_yaml(choice.default_branch)});
  return files;
}

}  // namespace benchpr::app
