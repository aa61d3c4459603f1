#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include "benchpr/app/commands.hpp"
#include "benchpr/app/user_error.hpp"
#include "benchpr/app/workflow_template.hpp"
#include "benchpr/core/base/text.hpp"
#include "benchpr/git/repository.hpp"
#include "benchpr/runner/results_store.hpp"
#include "benchpr/runner/zero_config.hpp"

namespace benchpr::app {

namespace {

namespace fs = std::filesystem;

void write_new_file(const fs::path& path, const std::string& content, bool force) {
  std::error_code ec;
  if (fs::exists(path, ec) && !force)
    throw UserError(path.string() + " exists already (pass --force to replace it)");
  fs::create_directories(path.parent_path(), ec);
  runner::write_file_atomically(path.string(), content);
  std::cout << "wrote " << path.string() << "\n";
}

std::string first_line(const fs::path& file) {
  std::ifstream in(file);
  std::string line;
  std::getline(in, line);
  while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.pop_back();
  return line;
}

// The repository's git directory: `.git`, or where a `.git` file (worktree, submodule) points.
fs::path git_dir_of(const fs::path& dir) {
  std::error_code ec;
  for (fs::path d = fs::absolute(dir, ec); !d.empty(); d = d.parent_path()) {
    const fs::path dot_git = d / ".git";
    if (fs::is_directory(dot_git, ec)) return dot_git;
    if (fs::is_regular_file(dot_git, ec)) {
      const std::string line = first_line(dot_git);
      if (line.rfind("gitdir: ", 0) == 0) {
        fs::path target(line.substr(8));
        return target.is_absolute() ? target : d / target;
      }
    }
    if (d == d.parent_path()) break;
  }
  return {};
}

bool has_branch(const fs::path& git_dir, const fs::path& common_dir, const std::string& name) {
  std::error_code ec;
  for (const fs::path& g : {git_dir, common_dir}) {
    if (fs::is_regular_file(g / "refs" / "heads" / name, ec)) return true;
    std::ifstream packed(g / "packed-refs");
    std::string line;
    while (std::getline(packed, line))
      if (line.size() > 41 && line.substr(41) == "refs/heads/" + name) return true;
  }
  return false;
}

// The branch pull requests go to: origin's HEAD when it is known, else main or master when
// the repository has one, else the branch checked out; "main" when nothing says.
std::string default_branch(const fs::path& dir) {
  const fs::path git = git_dir_of(dir);
  if (git.empty()) return "main";
  fs::path common = git;
  if (const std::string c = first_line(git / "commondir"); !c.empty())
    common = fs::path(c).is_absolute() ? fs::path(c) : git / c;
  constexpr std::string_view kOrigin = "ref: refs/remotes/origin/";
  for (const fs::path& g : {git, common}) {
    const std::string origin_head = first_line(g / "refs" / "remotes" / "origin" / "HEAD");
    if (origin_head.rfind(kOrigin, 0) == 0) return origin_head.substr(kOrigin.size());
  }
  for (const char* name : {"main", "master"})
    if (has_branch(git, common, name)) return name;
  constexpr std::string_view kHead = "ref: refs/heads/";
  const std::string head = first_line(git / "HEAD");
  if (head.rfind(kHead, 0) == 0) return head.substr(kHead.size());
  return "main";
}

// A branch name as it can be pasted into a shell command unquoted, or "main".
std::string shell_safe(const std::string& branch) {
  const bool ok = !branch.empty() && branch.size() < 200 &&
                  branch.find_first_not_of(
                      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
                      "0123456789._/-+") == std::string::npos &&
                  branch[0] != '-';
  return ok ? branch : "main";
}

bool resolves(git::Repository& repo, const std::string& revision) {
  try {
    repo.resolve(revision);
    return true;
  } catch (const git::GitError&) {
    // Not found, or a repository that cannot say: either way not a revision to suggest.
    return false;
  }
}

// The first run to try the new file with, asked of the repository itself: "try it with
// `benchpr run --base HEAD~1 --head HEAD --config .benchpr.yml` (the last commit against its
// parent)". HEAD~1 does not exist in a repository of one commit, nor HEAD in one of none; the
// working tree (WORKTREE) is then what HEAD is compared with.
std::string first_run(const fs::path& dir, const std::string& in_dir,
                      const std::string& config_arg) {
  const auto command = [&](const std::string& revisions) {
    return "`benchpr run" + in_dir + " " + revisions + " --config " + config_arg + "`";
  };
  const std::string against_worktree = command("--base HEAD --head WORKTREE");
  std::unique_ptr<git::Repository> repo;
  try {
    repo = git::open_repository(dir.string());
  } catch (const git::GitError&) {
    return "make it a git repository with a first commit (benchpr compares revisions), try it "
           "with " +
           against_worktree + " (that commit against the working tree)";
  }
  if (resolves(*repo, "HEAD~1"))
    return "try it with " + command("--base HEAD~1 --head HEAD") +
           " (the last commit against its parent)";
  if (resolves(*repo, "HEAD"))
    return "try it with " + against_worktree +
           " (the only commit against the working tree, uncommitted edits included: there is no "
           "HEAD~1 to compare with)";
  return "commit the project (the repository has no commit yet), try it with " + against_worktree +
         " (that commit against the working tree)";
}

}  // namespace

int init_command(const InitOptions& options) {
  const fs::path dir(options.directory);
  std::error_code ec;
  if (!fs::is_directory(dir, ec))
    throw UserError("-C " + options.directory + ": no such directory");
  const std::string yaml = runner::suggest_config_yaml(options.directory);
  // Check both before writing either, so a refusal leaves nothing half done.
  const fs::path config = dir / ".benchpr.yml";
  WorkflowChoice choice;
  choice.shards = options.shards;
  choice.fork_safe = options.fork_safe;
  choice.command = options.command;
  const std::string branch = shell_safe(default_branch(dir));
  choice.default_branch = branch;
  const std::vector<WorkflowFile> workflows = workflow_files(choice);
  if (!options.force) {
    std::vector<fs::path> targets = {config};
    for (const WorkflowFile& w : workflows) targets.push_back(dir / w.path);
    for (const auto& p : targets)
      if (fs::exists(p, ec))
        throw UserError(p.string() + " exists already (pass --force to replace it)");
  }
  write_new_file(config, yaml, options.force);
  for (const WorkflowFile& w : workflows) write_new_file(dir / w.path, w.yaml, options.force);
  // The workflows pin their actions by commit SHA: Dependabot keeps the pins current. A
  // dependabot.yml of the project's own is never replaced (it may hold other ecosystems).
  const fs::path dependabot = dir / ".github" / "dependabot.yml";
  if (!fs::exists(dependabot, ec)) {
    write_new_file(dependabot, dependabot_yaml(), false);
  } else if (runner::read_text_file(dependabot.string()).find("github-actions") ==
             std::string::npos) {
    std::cout << "note: " << dependabot.string()
              << " has no github-actions entry; add one (package-ecosystem: github-actions, "
                 "directory: /) so the actions the workflows pin by commit SHA are kept up to "
                 "date\n";
  }
  for (const std::string& note : runner::build_option_notes(options.directory))
    std::cout << note << "\n";
  for (const std::string& note : runner::argument_notes(options.directory))
    std::cout << note << "\n";
  // The new .benchpr.yml is in no revision yet, so a run reads it only through --config.
  const std::string config_arg =
      options.directory == "." ? ".benchpr.yml" : shell_quote((dir / ".benchpr.yml").string());
  const std::string in_dir =
      options.directory == "." ? "" : " -C " + shell_quote(options.directory);
  std::cout << "Next: check the suites in .benchpr.yml, " << first_run(dir, in_dir, config_arg)
            << ", check the `uses: " << kActionReference << "` lines of the workflows (benchpr "
            << BENCHPR_VERSION
            << "'s major release; put the OWNER/NAME@REF you take benchpr from), and commit the "
               "files to "
            << branch << " (pull requests are measured with the base branch's configuration)."
            << std::endl;
  return kExitOk;
}

}  // namespace benchpr::app
