#include "benchpr/app/actions_event.hpp"

#include <cstdlib>

namespace benchpr::app {

std::string env_or_empty(const char* name) {
  const char* value = std::getenv(name);
  return value ? std::string(value) : std::string();
}

std::string this_workflow_run_url() {
  const std::string server = env_or_empty("GITHUB_SERVER_URL");
  const std::string repo = env_or_empty("GITHUB_REPOSITORY");
  const std::string run_id = env_or_empty("GITHUB_RUN_ID");
  if (server.empty() || repo.empty() || run_id.empty()) return "";
  return server + "/" + repo + "/actions/runs/" + run_id;
}

}  // namespace benchpr::app
