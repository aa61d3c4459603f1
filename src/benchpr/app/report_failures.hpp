// The end that `run` and `publish` share once the comment is made: the Actions files, then
// every failure of the job (those files, the posting, a file not written) as one line on stderr.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "benchpr/app/comment_posting.hpp"
#include "benchpr/app/options.hpp"
#include "benchpr/app/progress.hpp"
#include "benchpr/app/report.hpp"

namespace benchpr::app {

struct ReportEnd {
  std::string results_path;               // named in the step outputs
  std::vector<std::string> write_errors;  // files that could not be written (none when all were)
  std::string posting_after;  // appended to "posting failed: …", e.g. " (the report was printed)"
  std::string write_after;    // appended to the write errors
};

// Writes the Actions files (in a job) and reports what failed; kExitFailure when anything did,
// kExitOk otherwise. Nothing here stops the other steps: each failure is reported.
int finish_report(const Report& report, const PostOutcome& posted, const ReportEnd& end,
                  const Progress& progress);

// The exit code --fail-on asks for (kExitOk when it does not apply): each cause has a code of
// its own, so CI can tell "the PR regressed" (3) and "something failed" (4) from "benchpr could
// not post" (1).
int fail_on_exit_code(FailOn fail_on, const Results& results, const Analysis& analysis);

// Why a finished comparison measured nothing on either side, as one line that names what failed
// and what to do; none when something was measured. Both sides failing to build says the build
// does not work on this machine (a configure step that downloads without a network, a missing
// package), not anything about the pull request; both built and no benchmark gave a value says
// the suites do not run here. One side failing to build alone is a finding about that revision,
// reported in the comment (exit 4 with --fail-on failed), and so is a shard given no work.
std::optional<std::string> nothing_measured(const Results& results);

// The exit code a comparison ends with, in one order for run, compare and publish: a session that
// did not finish (kExitFailure: its verdicts are partial), then a comparison that measured
// nothing (kExitSuiteFailed whatever --fail-on says: there is no reading to gate on), then what
// --fail-on asks for (3 or 4: what CI gates on; the job fails either way, and stderr names every
// failure of the end), then a failure of the end itself (`report_code`, finish_report's: the
// Actions files, the posting, a file not written), else kExitOk.
int comparison_exit_code(bool unfinished, bool measured_nothing, int fail_on_code, int report_code);

// comparison_exit_code for `results`, with nothing_measured's line on stderr when it applies
// (after the comment and the results file are written: nothing measured is lost).
int final_exit_code(const Results& results, bool unfinished, int fail_on_code, int report_code);

}  // namespace benchpr::app
