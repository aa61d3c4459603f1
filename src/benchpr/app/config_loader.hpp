#pragma once

#include <optional>
#include <string>

#include "benchpr/app/options.hpp"
#include "benchpr/core/model/model.hpp"
#include "benchpr/git/repository.hpp"

namespace benchpr::app {

// The configuration for a run: --config FILE, else .benchpr.yml from the BASE revision (so a
// pull request cannot change what is run or how it is judged), then command-line overrides.
// nullopt when there is neither (zero-config then looks at the base worktree).
// Throws UserError with the file, line and key on any problem.
std::optional<Config> load_config(const RunOptions& options, git::Repository& repo,
                                  const std::string& base_sha);

// The configuration of a project without a .benchpr.yml, recognised from the materialised base
// worktree (suites are discovered after the build), with the command-line overrides applied.
// Throws UserError saying what configuration to add when the project is not recognised.
Config zero_config_for(const RunOptions& options, const std::string& base_worktree);

// Applies --rounds, --warmup, --threshold and --budget (throws UserError on bad values).
void apply_overrides(Config& config, const RunOptions& options);

// A --filter or --why pattern: bounded, and a regular expression; a UserError naming the flag
// otherwise. Nothing for "".
void check_name_pattern(const std::string& flag, const std::string& pattern);

}  // namespace benchpr::app
