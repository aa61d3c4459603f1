#include "benchpr/app/progress.hpp"

#include <iostream>

#include "benchpr/github/actions_files.hpp"
#include "benchpr/github/workflow_commands.hpp"
#include "benchpr/render/escape.hpp"

namespace benchpr::app {

std::string progress_line(std::string_view text) {
  return "benchpr: " + render::terminal_line(text);
}

namespace {

std::string one_line(std::string_view text) { return render::terminal_line(text, 200); }

}  // namespace

void Progress::line(const std::string& text) const {
  std::ostream& out = actions_ ? std::cout : std::cerr;
  out << progress_line(text) << std::endl;
}

void Progress::begin_group(const std::string& title) const {
  if (actions_) {
    std::cout << github::group_command(one_line(title)) << std::endl;
  }
}

void Progress::end_group() const {
  if (actions_) std::cout << github::endgroup_command() << std::endl;
}

void Progress::print_untrusted_block(const std::string& title, const std::string& text) const {
  if (!actions_) {
    std::cout << text << std::flush;
    return;
  }
  // A fresh token per block: the text cannot guess it to switch commands back on.
  const std::string token = github::random_output_delimiter();
  std::cout << github::group_command(one_line(title)) << "\n"
            << "::stop-commands::" << token << "\n"
            << text << (text.empty() || text.back() == '\n' ? "" : "\n") << "::" << token << "::\n"
            << github::endgroup_command() << std::endl;
}

}  // namespace benchpr::app
