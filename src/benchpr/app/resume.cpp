#include "benchpr/app/resume.hpp"

#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "benchpr/app/user_error.hpp"
#include "benchpr/core/results_json.hpp"
#include "benchpr/runner/results_store.hpp"

namespace benchpr::app {

namespace {

std::string short_sha(const std::string& sha) { return sha.substr(0, 12); }

// The keys of two configurations' JSON that differ, in order ("threshold, suites").
std::string differing_keys(const nlohmann::json& a, const nlohmann::json& b) {
  std::string out;
  for (const auto& [key, value] : a.items()) {
    if (b.contains(key) && b[key] == value) continue;
    out += (out.empty() ? "" : ", ") + key;
  }
  for (const auto& [key, value] : b.items()) {
    if (!a.contains(key)) out += (out.empty() ? "" : ", ") + key;
  }
  return out;
}

}  // namespace

Results read_resumable(const std::string& path) {
  Results r;
  try {
    r = results_from_string(runner::read_text_file(path));
  } catch (const std::exception& e) {
    throw UserError(fmt::format("--resume {}: {}", path, e.what()));
  }
  if (r.complete) {
    throw UserError(fmt::format(
        "--resume {}: this comparison is complete ({}); nothing to resume (run without --resume "
        "for a new one)",
        path, r.stop_reason.empty() ? "finished" : r.stop_reason));
  }
  if (r.builds.size() < 2 || !r.builds[0].ok || !r.builds[1].ok) {
    throw UserError(fmt::format(
        "--resume {}: it was interrupted before both revisions were built; run again without "
        "--resume",
        path));
  }
  return r;
}

void take_revisions_from(RunOptions& options, const Results& resumed) {
  if (options.pr) return;
  if (options.base.empty()) options.base = resumed.base.sha;
  if (options.head.empty()) options.head = resumed.head.sha;
}

void check_resumable(const std::string& path, const Results& resumed, const Results& now,
                     bool zero_config) {
  if (resumed.base.sha != now.base.sha || resumed.head.sha != now.head.sha) {
    throw UserError(fmt::format(
        "--resume {}: it compares {} with {}, this run {} with {} (pass the file's revisions, "
        "or run without --resume for a new comparison)",
        path, short_sha(resumed.base.sha), short_sha(resumed.head.sha), short_sha(now.base.sha),
        short_sha(now.head.sha)));
  }
  Config mine = now.config;
  mine.rounds = resumed.config.rounds;
  mine.budget_seconds = resumed.config.budget_seconds;
  if (zero_config) mine.suites = resumed.config.suites;
  const nlohmann::json a = config_to_json(resumed.config);
  const nlohmann::json b = config_to_json(mine);
  if (a != b) {
    throw UserError(fmt::format(
        "--resume {}: its configuration differs from this run's ({}); resume with the same "
        ".benchpr.yml and options, or run without --resume for a new comparison",
        path, differing_keys(a, b)));
  }
}

}  // namespace benchpr::app
