// A comparison's report as made: the analysis, the comment's markdown, the job summary, and the
// files that could not be written. Its own header so the end of a command (report_failures) and
// its making (report_output) share it without including each other.
#pragma once

#include <string>
#include <vector>

#include "benchpr/core/model/model.hpp"

namespace benchpr::app {

struct Report {
  Analysis analysis;
  std::string markdown;
  // The job summary in GitHub Actions: the whole report, rendered up to what the step's summary
  // file may still take (GitHub refuses a step summary over 1 MiB), where the comment stops at
  // 65,536 bytes. "" outside Actions.
  std::string summary_markdown;
  // Files that could not be written ("cannot write /x: No space left on device"), none when all
  // were: the caller still posts the comment, then fails the job.
  std::vector<std::string> write_errors;
};

}  // namespace benchpr::app
