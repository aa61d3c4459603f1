#include "benchpr/runner/suite_command.hpp"

#include "benchpr/core/text.hpp"

namespace benchpr::runner {

RunCommand make_run_command(const SuiteConfig& suite, const formats::Format& format,
                            const std::string& out_path, int repetitions) {
  RunCommand rc;
  const std::string placeholder = "{out}";
  if (auto pos = suite.run.find(placeholder); pos != std::string::npos) {
    rc.command = suite.run;
    const std::string quoted = shell_quote(out_path);
    for (; pos != std::string::npos; pos = rc.command.find(placeholder, pos + quoted.size())) {
      rc.command.replace(pos, placeholder.size(), quoted);
    }
    return rc;
  }
  const std::string extra = format.extra_arguments(out_path, repetitions);
  rc.command = suite.run + extra;
  rc.reads_file = !extra.empty();
  return rc;
}

}  // namespace benchpr::runner
