// What every comparison that measures (`run`, and `run --base-exe/--head-exe`) tells its
// runner::Session alike: where it works, where the results go after every round, and how its
// rounds are sized.
#pragma once

#include "benchpr/app/options.hpp"
#include "benchpr/core/model/model.hpp"
#include "benchpr/runner/session.hpp"
#include "benchpr/runner/workspace.hpp"

namespace benchpr::app {

// The workspace's directories; the results rewritten in the workspace and at --output; without
// a budget of the configuration's own (which makes the rounds adaptive) the default budget,
// which still sizes the comparison to fit a CI job; fixed rounds with --rounds.
runner::SessionSetup measuring_session_setup(const runner::Workspace& ws, const RunOptions& options,
                                             const Config& config);

}  // namespace benchpr::app
