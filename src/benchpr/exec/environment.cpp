#include <algorithm>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "benchpr/exec/process.hpp"

namespace benchpr::exec {

const std::vector<std::string>& secret_env() {
  static const std::vector<std::string> names = {
      "GITHUB_TOKEN",
      "GH_TOKEN",
      "ACTIONS_RUNTIME_TOKEN",
      "ACTIONS_ID_TOKEN_REQUEST_TOKEN",
      "ACTIONS_ID_TOKEN_REQUEST_URL",
      "BENCHPR_TOKEN",
      "BENCHPR_TOKEN_FILE",
  };
  return names;
}

const std::vector<std::string>& actions_file_env() {
  static const std::vector<std::string> names = {
      "GITHUB_OUTPUT", "GITHUB_ENV", "GITHUB_PATH", "GITHUB_STATE", "GITHUB_STEP_SUMMARY",
  };
  return names;
}

const std::vector<std::string>& default_scrubbed_env() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> all = secret_env();
    all.insert(all.end(), actions_file_env().begin(), actions_file_env().end());
    return all;
  }();
  return names;
}

namespace {

bool contains(const std::vector<std::string>& names, std::string_view name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

}  // namespace

std::vector<std::string> child_environment(
    const char* const* parent, const std::vector<std::string>& scrub,
    const std::vector<std::pair<std::string, std::string>>& set) {
  std::vector<std::string> env;
  for (const char* const* entry = parent; entry && *entry; ++entry) {
    std::string_view text(*entry);
    std::string_view name = text.substr(0, text.find('='));
    bool overridden =
        std::any_of(set.begin(), set.end(), [&](const auto& kv) { return kv.first == name; });
    if (overridden || contains(default_scrubbed_env(), name) || contains(scrub, name)) continue;
    env.emplace_back(text);
  }
  // A configured value for a scrubbed name is still passed: the scrub protects benchpr's own
  // secrets and files, an explicit set_env is a deliberate choice of the configuration (the
  // base revision's, or benchpr's own for git).
  for (const auto& [name, value] : set) env.push_back(name + "=" + value);
  return env;
}

}  // namespace benchpr::exec
