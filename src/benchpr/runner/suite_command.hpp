// The command line of one run: the suite's `run` with benchpr's output flags. Pure string work,
// kept apart from the session loop so it can be unit tested.
#pragma once

#include <string>

#include "benchpr/core/model.hpp"
#include "benchpr/formats/format.hpp"

namespace benchpr::runner {

struct RunCommand {
  std::string command;
  bool reads_file = true;  // false: the tool's stdout is parsed
};

// `{out}` in the suite's command is replaced by the quoted out path; otherwise the format's
// extra arguments (which name out_path) are appended; a format with neither reads stdout.
RunCommand make_run_command(const SuiteConfig& suite, const formats::Format& format,
                            const std::string& out_path, int repetitions);

}  // namespace benchpr::runner
