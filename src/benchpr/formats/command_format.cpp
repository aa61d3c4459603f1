// The `command` format has no output to read: benchpr runs the suite's command itself and
// measures the process (runner::measure_command). The Format exists so that configuration,
// make_format treats it like every other format.
#include "benchpr/formats/format.hpp"

namespace benchpr::formats {
namespace {

class CommandFormat final : public Format {
 public:
  FormatKind kind() const override { return FormatKind::Command; }

  // Nothing to append: the suite's command runs exactly as written.
  std::string extra_arguments(const std::string&, int) const override { return ""; }

  ParsedRun parse(std::string_view) const override {
    throw ParseError(
        "the command format is measured by benchpr (wall time, CPU time, peak memory); there is "
        "no output to parse");
  }

  bool measures_process() const override { return true; }
};

}  // namespace

std::unique_ptr<Format> make_command_format() { return std::make_unique<CommandFormat>(); }

}  // namespace benchpr::formats
