// Progress lines for a person (stderr) or, inside GitHub Actions, for the job log (stdout, in
// collapsible groups), so the log reads in order and the runner sees the workflow commands.
#pragma once

#include <string>
#include <string_view>

namespace benchpr::app {

// A progress line as printed: "benchpr: " and the text with every control character removed
// (no escape sequence of a benchmark name or commit subject reaches the terminal), newlines
// flattened, at most 500 characters (render::terminal_line).
std::string progress_line(std::string_view text);

class Progress {
 public:
  explicit Progress(bool github_actions) : actions_(github_actions) {}

  // One line, prefixed "benchpr: " (progress_line). Newlines in it are flattened so nothing it
  // quotes can start a line of its own (a workflow command in the Actions log).
  void line(const std::string& text) const;
  // ::group::TITLE ... ::endgroup:: in Actions; a plain line elsewhere.
  void begin_group(const std::string& title) const;
  void end_group() const;
  // Prints `text` (untrusted: it quotes names and logs from the pull request) to stdout; in
  // Actions inside a group and between ::stop-commands:: markers, so none of it is obeyed.
  void print_untrusted_block(const std::string& title, const std::string& text) const;

  bool github_actions() const { return actions_; }

 private:
  bool actions_;
};

}  // namespace benchpr::app
