#pragma once

#include <string>

#include "benchpr/app/options.hpp"
#include "benchpr/core/model.hpp"
#include "benchpr/git/repository.hpp"

namespace benchpr::app {

// The configuration for a run: --config FILE, else .benchpr.yml from the BASE revision (so a
// pull request cannot change what is run or how it is judged), then command-line overrides.
// Throws UserError with the file, line and key on any problem.
Config load_config(const RunOptions& options, git::Repository& repo, const std::string& base_sha);

}  // namespace benchpr::app
