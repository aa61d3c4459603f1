#include "benchpr/app/resume.hpp"

#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "benchpr/app/user_error.hpp"
#include "benchpr/core/plan/schedule.hpp"
#include "benchpr/core/results_file/results_json.hpp"
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
  } catch (const Error& e) {
    // Named with the flag, kept of its kind: a file refused by the reader is an input error
    // (exit 2), one that cannot be read stays a StoreError's exit 1, and anything that is not
    // benchpr's own error (a bug) rises unchanged to end as internal.
    throw e.with_context(fmt::format("--resume {}: ", path));
  }
  if (r.complete) {
    throw UserError(fmt::format(
        "--resume {}: this comparison is complete ({}); nothing to resume (run without --resume "
        "for a new one)",
        path, r.stop.empty() ? "finished" : describe(r.stop)));
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

Results check_resumable(const std::string& path, Results resumed, const Results& now,
                        const ResumeDerived& derived, std::vector<std::string>& notes) {
  if (resumed.base.sha != now.base.sha || resumed.head.sha != now.head.sha) {
    throw UserError(fmt::format(
        "--resume {}: it compares {} with {}, this run {} with {} (pass the file's revisions, "
        "or run without --resume for a new comparison)",
        path, short_sha(resumed.base.sha), short_sha(resumed.head.sha), short_sha(now.base.sha),
        short_sha(now.head.sha)));
  }
  Config mine = now.config;
  // A comparison run with --rounds has a fixed plan and no budget; resumed without --rounds,
  // the default budget this run would set is not a configured one.
  const bool fixed = !resumed.config.budget_seconds;
  if (fixed && derived.default_budget) mine.budget_seconds.reset();
  if (derived.discovered) {
    Config discovered;
    discovered.suites = *derived.discovered;
    const nlohmann::json found = config_to_json(discovered)["suites"];
    const nlohmann::json listed = config_to_json(resumed.config)["suites"];
    if (found != listed) {
      throw UserError(fmt::format(
          "--resume {}: the base's build holds other benchmark executables than the file lists "
          "({} found now, {} listed): its build tree changed since the interruption; run "
          "without --resume for a new comparison",
          path, found.size(), listed.size()));
    }
    mine.suites = *derived.discovered;
  }
  // The rounds: a fixed plan's are this run's (configuration and --rounds), in whole cycles of
  // the placements when the comparison ran under the placement control, as it did then; an
  // adaptive plan's were set by its time plan during the run, against the same budget.
  if (fixed) {
    mine.rounds = whole_placement_cycles(mine.rounds, resumed.placement_shifts.size());
    if (resumed.config.rounds != mine.rounds)
      notes.push_back(fmt::format(
          "--resume {}: the file plans {} rounds, the configuration and command line {}: the "
          "resumed comparison runs {} (pass --rounds N for another number)",
          path, resumed.config.rounds, mine.rounds, mine.rounds));
  } else {
    mine.rounds = resumed.config.rounds;
  }
  const nlohmann::json a = config_to_json(resumed.config);
  const nlohmann::json b = config_to_json(mine);
  nlohmann::json a_rest = a, b_rest = b;
  a_rest.erase("rounds");
  b_rest.erase("rounds");
  if (a_rest != b_rest) {
    throw UserError(fmt::format(
        "--resume {}: its configuration differs from this run's ({}); resume with the same "
        ".benchpr.yml and options, or run without --resume for a new comparison",
        path, differing_keys(a_rest, b_rest)));
  }
  resumed.config = mine;
  if (fixed) {
    resumed.plan = make_schedule(mine.rounds, mine.warmup_rounds, resumed.seed);
    if (resumed.rounds_done > static_cast<int>(resumed.plan.size())) {
      throw UserError(fmt::format(
          "--resume {}: it records {} rounds done, more than the {} planned; run without "
          "--resume for a new comparison",
          path, resumed.rounds_done, resumed.plan.size()));
    }
  }
  return resumed;
}

void refuse_void(const std::string& path, const Results& resumed, bool void_marker) {
  // A file written before the reason's kind was recorded says so only in its sentence.
  const bool file_says = resumed.stop.kind == StopKind::Void ||
                         (resumed.stop.kind == StopKind::Unknown &&
                          resumed.stop.detail.find("comparison is void") != std::string::npos);
  if (!file_says && !void_marker) return;
  throw UserError(fmt::format(
      "--resume {}: that comparison ended void ({}): a side's files changed under it, so none "
      "of its rounds can be trusted; run the comparison again without --resume",
      path,
      file_says ? describe(resumed.stop)
                : "the work directory records it, though the file no longer says so"));
}

void check_worktree_commit(const std::string& path, const std::string& side,
                           const std::string& expected, const std::string& recorded) {
  if (recorded == expected) return;
  throw UserError(fmt::format(
      "--resume {}: the {} worktree holds {}, not the file's {} (another comparison ran in this "
      "work directory since the interruption); run without --resume for a new comparison",
      path, side, recorded.empty() ? "an unrecorded commit" : short_sha(recorded),
      short_sha(expected)));
}

}  // namespace benchpr::app
