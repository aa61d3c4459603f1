// `benchpr run --resume results.json`: continue an interrupted comparison with the same builds
// (the work directory's), seed and schedule, adding rounds to the same file. The file must be
// an unfinished comparison of the same revisions under the same configuration.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "benchpr/app/options.hpp"
#include "benchpr/core/model/model.hpp"

namespace benchpr::app {

// Reads the file to resume; refuses (UserError) one that cannot be read or is already complete.
Results read_resumable(const std::string& path);

// The revisions to compare when the command line names none: the file's commits.
void take_revisions_from(RunOptions& options, const Results& resumed);

// What this run derives by itself for the plan of a resumed comparison, instead of reading it
// from the file (which code run since the interruption, as the same user, can rewrite).
struct ResumeDerived {
  // The budget of `now` is only the default (no budget configured, no --rounds): a file with a
  // fixed plan (run with --rounds) keeps its fixed plan.
  bool default_budget = false;
  // Without .benchpr.yml: the suites discovery finds now in the base's build tree.
  std::optional<std::vector<SuiteConfig>> discovered;
};

// Refuses (UserError naming the file, what differs and the fix) a file whose revisions or
// configuration differ from this run's, or whose discovered suites differ from the ones found
// now. Returns the file's results with the plan this run derives: the budget from the
// configuration and the command line; a fixed plan's rounds from them too and its schedule made
// again from the seed (the time plan of an adaptive comparison sets its rounds during the run:
// those stay the file's); the suites discovery finds now. `notes` gets what was not taken from
// the file.
Results check_resumable(const std::string& path, Results resumed, const Results& now,
                        const ResumeDerived& derived, std::vector<std::string>& notes);

// Refuses a comparison that ended void (a side's files changed under it): its rounds are not
// evidence of anything. `void_marker`: the work directory's record of a void ending, if any.
void refuse_void(const std::string& path, const Results& resumed, bool void_marker);

// Refuses when a worktree is not at the file's commit (`recorded`: the commit the work
// directory's last materialisation of that side wrote, "" when none was recorded).
void check_worktree_commit(const std::string& path, const std::string& side,
                           const std::string& expected, const std::string& recorded);

}  // namespace benchpr::app
