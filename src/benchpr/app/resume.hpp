// `benchpr run --resume results.json`: continue an interrupted comparison with the same builds
// (the work directory's), seed and schedule, adding rounds to the same file. The file must be
// an unfinished comparison of the same revisions under the same configuration.
#pragma once

#include <string>

#include "benchpr/app/options.hpp"
#include "benchpr/core/model.hpp"

namespace benchpr::app {

// Reads the file to resume; refuses (UserError) one that cannot be read or is already complete.
Results read_resumable(const std::string& path);

// The revisions to compare when the command line names none: the file's commits.
void take_revisions_from(RunOptions& options, const Results& resumed);

// Refuses (UserError naming the file, what differs and the fix) a file whose revisions or
// configuration differ from this run's. The rounds, the budget and (without .benchpr.yml) the
// suites are the file's: the time plan and zero-config discovery set them during the run.
void check_resumable(const std::string& path, const Results& resumed, const Results& now,
                     bool zero_config);

}  // namespace benchpr::app
