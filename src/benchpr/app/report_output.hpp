// The end of every command: analyse, render, and write the markdown and the results where the
// user asked. Shared by `run` and `publish` so both produce the same comment from the same data.
#pragma once

#include <string>

#include "benchpr/core/model.hpp"

namespace benchpr::app {

struct Report {
  Analysis analysis;
  std::string markdown;
};

struct ReportTargets {
  std::string templates_dir;
  std::string key = "default";
  std::string markdown_file;   // "" = none
  std::string results_file;    // "" = none
  bool print_markdown = true;  // to stdout
};

// Throws runner::StoreError when a file cannot be written (the markdown is printed first).
Report make_report(const Results& results, const ReportTargets& targets);

}  // namespace benchpr::app
