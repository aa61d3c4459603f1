#include "benchpr/app/measuring_session_setup.hpp"

#include "benchpr/core/plan/time_plan.hpp"

namespace benchpr::app {

runner::SessionSetup measuring_session_setup(const runner::Workspace& ws, const RunOptions& options,
                                             const Config& config) {
  runner::SessionSetup setup;
  setup.base_dir = ws.base_dir;
  setup.head_dir = ws.head_dir;
  setup.out_dir = ws.out_dir;
  setup.log_dir = ws.log_dir;
  setup.records_dir = ws.root;
  setup.persist_paths = {ws.results_path};
  if (!options.output.empty()) setup.persist_paths.push_back(options.output);
  // The warm-up round tells what a round costs.
  if (!config.budget_seconds) setup.budget_seconds = kDefaultBudgetSeconds;
  setup.rounds_fixed = options.rounds.has_value();
  setup.time_identical = options.time_identical;
  return setup;
}

}  // namespace benchpr::app
