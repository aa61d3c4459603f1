// The end that `run` and `publish` share once the comment is made: the Actions files, then
// every failure of the job (those files, the posting, a file not written) as one line on stderr.
#pragma once

#include <string>
#include <vector>

#include "benchpr/app/comment_posting.hpp"
#include "benchpr/app/progress.hpp"
#include "benchpr/app/report_output.hpp"

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
// not post" (1). `fail_on` is never, regression or failed.
int fail_on_exit_code(const std::string& fail_on, const Results& results, const Analysis& analysis);

}  // namespace benchpr::app
