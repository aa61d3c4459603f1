// The end of every command: analyse, render, and write the markdown and the results where the
// user asked. Shared by `run`, `compare` and `publish` so all produce the same comment from the
// same data.
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "benchpr/app/comment_posting.hpp"
#include "benchpr/app/options.hpp"
#include "benchpr/app/progress.hpp"
#include "benchpr/app/report.hpp"
#include "benchpr/app/templates.hpp"
#include "benchpr/core/model/model.hpp"

namespace benchpr::app {

struct ReportTargets {
  std::map<std::string, std::string> template_overrides;  // --templates, read and checked
  std::string key = "default";
  std::string markdown_file;   // "" = none
  std::string html_file;       // "" = none: the self-contained HTML report
  std::string results_file;    // "" = none
  bool print_markdown = true;  // to stdout (plain; GitHub Actions prints it through Progress)
  StdoutFormat format = StdoutFormat::Auto;  // what stdout gets
  ColorMode color = ColorMode::Auto;
  std::size_t summary_bytes = 0;  // the job summary's room (0: no job summary to render)
};

// GitHub's limit on one step's summary: larger content is refused ("$GITHUB_STEP_SUMMARY upload
// aborted, supports content up to a size of 1024k").
inline constexpr std::size_t kMaxStepSummaryBytes = 1024 * 1024;
// The room left for the report in a step summary that already holds `used` bytes (a margin for
// the separating newlines), at least a comment's 65,536 bytes.
std::size_t step_summary_room(std::size_t used);

// What stdout gets: the text report at a terminal (or with --format text), else the markdown.
struct StdoutStyle {
  bool text = false;
  bool color = false;
};
// `terminal`: stdout is a terminal; `no_color`: $NO_COLOR is set and not empty.
StdoutStyle stdout_style(StdoutFormat format, ColorMode color, bool terminal, bool no_color,
                         bool github_actions);

// The report targets both commands take from their options (fields named alike in RunOptions
// and PublishOptions). Reads and checks the --templates directory (UserError if broken): call
// it before anything is built or measured.
template <typename Options>
ReportTargets report_targets(const Options& o) {
  ReportTargets t;
  t.template_overrides = load_template_overrides(o.templates_dir);
  t.key = o.key;
  t.markdown_file = o.markdown;
  t.html_file = o.html;
  t.format = o.format;
  t.color = o.color;
  return t;
}

// make_report, with the markdown shown where the user reads it: stdout locally, a block that
// cannot run workflow commands in the Actions log.
Report present_report(const Results& results, ReportTargets targets, const Progress& progress);

// "Compared pull/7 head (abc1234) against the merge base of main (def5678)." for a pull request
// (from RevisionInfo::spec), "" otherwise: the comment says what was compared.
std::string comparison_note(const Results& results);

// Compared result files (`benchpr compare`): a benchmark with fewer than kMinDecidingRounds
// paired processes gets no verdict, whatever its fit reads (two processes a side can look
// "significant" on a within-process spread), and the row says why; the recommendation follows.
// Nothing changes for measured sessions. make_report applies it, so `publish` of the results
// file words it alike.
void withhold_verdicts_below_minimum(const Results& results, Analysis& analysis);

// Writes every file it can (the markdown is printed first); failures go to write_errors.
Report make_report(const Results& results, const ReportTargets& targets);

// Throws runner::StoreError naming the first of `paths` that cannot be written (no such
// directory, a directory in the way, no permission), so a bad path ends the job before anything
// is built rather than after the last round. Creates missing parent directories, as the writes
// do; leaves existing files alone.
void check_output_paths(const std::vector<std::string>& paths);

// The results as `benchpr publish` reads them back from the file the command writes (10
// significant digits, not the full doubles in memory), so that the file gives the same comment
// byte for byte. Should the file's reader refuse them (a limit meant for untrusted files), the
// results as they are and the reader's reason (end_comparison says it on a warning line); any
// other error rises.
struct StoredResults {
  Results results;
  std::optional<std::string> refused;  // the reader's ResultsFormatError, if it refused them
};
StoredResults as_stored(const Results& results);

// What the commands that compare (`run`, `run --base-exe/--head-exe`, `compare`) do differently
// at their end.
struct ComparisonEnd {
  std::string results_path;  // named in the step outputs
  // A results file that could not be written before the end (during the rounds), if any.
  std::optional<std::string> earlier_write_error;
  FailOn fail_on = FailOn::Never;  // --fail-on
  std::string posting_after;       // see ReportEnd
  std::string write_after = " (the report was printed)";
  bool annotate_regressions = false;  // a warning annotation per regression in an Actions job
  // Posts the report, or says why it does not; none: nothing is posted.
  std::function<PostOutcome(const Report&)> post;
};

// The end of a comparison: the report made from the results as stored (as_stored) and shown,
// the recommendation line, the annotations, the posting, then the Actions files and every
// failure on stderr (finish_report). Returns the exit code: kExitFailure for a comparison that
// did not finish, else kExitSuiteFailed for one that measured nothing (nothing_measured, its
// line on stderr), else the code --fail-on asks for, else finish_report's.
int end_comparison(const Results& results, const ReportTargets& targets, const ComparisonEnd& end,
                   const Progress& progress);

}  // namespace benchpr::app
