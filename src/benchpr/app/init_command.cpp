#include <filesystem>
#include <iostream>

#include "benchpr/app/commands.hpp"
#include "benchpr/app/user_error.hpp"
#include "benchpr/app/workflow_template.hpp"
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

}  // namespace

int init_command(const InitOptions& options) {
  const fs::path dir(options.directory);
  std::error_code ec;
  if (!fs::is_directory(dir, ec))
    throw UserError("-C " + options.directory + ": no such directory");
  std::string why_not;
  auto yaml = runner::suggest_config_yaml(options.directory, &why_not);
  if (!yaml) throw UserError(why_not);
  // Check both before writing either, so a refusal leaves nothing half done.
  const fs::path config = dir / ".benchpr.yml";
  const fs::path workflow = dir / ".github" / "workflows" / "benchpr.yml";
  if (!options.force) {
    for (const auto& p : {config, workflow})
      if (fs::exists(p, ec))
        throw UserError(p.string() + " exists already (pass --force to replace it)");
  }
  write_new_file(config, *yaml, options.force);
  write_new_file(workflow, pull_request_workflow_yaml(), options.force);
  std::cout << "Next: check the suites in .benchpr.yml, try `benchpr run --base main --dry-run`, "
               "and commit both files to the default branch (benchpr reads the configuration "
               "from the base revision)."
            << std::endl;
  return kExitOk;
}

}  // namespace benchpr::app
