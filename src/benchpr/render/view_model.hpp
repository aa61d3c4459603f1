// The comment as pre-escaped strings: everything the templates show, computed once from
// Results + Analysis. The size budget then only decides how many rows of each part to show,
// so shrinking the comment re-renders without recomputing (or re-escaping) anything.
#pragma once

#include <cstddef>
#include <limits>
#include <string>
#include <vector>

#include <kainjow/mustache.hpp>

#include "benchpr/core/model/model.hpp"
#include "benchpr/render/bisect_view.hpp"
#include "benchpr/render/render_options.hpp"

namespace benchpr::render {

struct TableRow {
  Verdict verdict = Verdict::Inconclusive;
  std::size_t table = 0;            // index into CommentView::changed_tables (changed rows)
  std::vector<std::string> params;  // parameter cells, for rows of a parameter table
  std::string suite;                // escaped, for the suite column
  std::string name;                 // code span
  std::string base;
  std::string head;
  std::string change;
  std::string ci;     // 95% CI of the change
  std::string eq_ci;  // the interval the "unchanged" rule tested (CommentView::equivalence_level)
  std::string verdict_text;
  std::string bisect;  // the line under the row: which commit the change came with ("" = none)
};

// One table of the changed section: the plain one (suite, benchmark, ...) or a parameter table
// for benchmarks that differ only by parameters (title = the common name; a column per parameter).
struct ChangedTable {
  bool grouped = false;
  std::string title;                       // grouped only
  std::vector<std::string> param_headers;  // grouped only, escaped
  std::vector<bool> param_numeric;         // right-aligned columns
};

struct PerRoundRow {
  std::string suite;
  std::string name;
  std::vector<std::string> cells;  // one per analysed round
  std::string change;
  std::string worse;  // "10 of 10"
};

struct BuildFailureView {
  std::string side;  // "base" / "PR"
  std::string failure;
  std::string seconds;
  std::string log_block;  // fenced block, "" when there is no log
};

struct SuiteView {
  std::string name;
  std::string benchmarks;
  std::string change;  // geometric mean of the suite's changes (+ = worse)
  std::string ci;
  std::string mix;     // their verdicts: "3 inconclusive, 1 regression"
  std::string driver;  // "" or "mostly from `BM_X`; without it: +0.4%"
};

struct CommentView {
  std::string marker;
  std::string headline;
  std::vector<std::pair<std::string, int>> counts;  // verdict name -> count
  std::string recommendation_kind;
  std::string recommendation_title;
  std::string recommendation_reason;
  std::string partial_note;  // "" when the run is complete
  bool order_warning = false;
  bool config_changed = false;
  std::vector<std::string> notes;
  std::vector<BuildFailureView> build_failures;
  bool multi_suite = false;
  std::string threshold;
  bool own_thresholds = false;    // some row is judged by a threshold of its own (shown there)
  std::string equivalence_level;  // "90%"
  std::vector<TableRow> changed;  // in display order; each row names its table
  std::vector<ChangedTable> changed_tables;
  std::vector<TableRow> unchanged;      // in the suites' order, without those in parameter tables
  std::size_t unchanged_in_tables = 0;  // unchanged benchmarks already shown in parameter tables
  std::vector<std::string> round_headers;
  bool round_order_known = true;       // false for result files: no AB/BA labels
  bool round_placements = false;       // the placement control: a round's offset in its label
  std::vector<PerRoundRow> per_round;  // candidates in display order (not yet capped)
  bool any_cold_round = false;
  std::vector<SuiteView> suites;
  std::string instructions_note;          // what instruction counts see and cost ("" without them)
  std::vector<std::string> why_sections;  // a <details> block per profiled benchmark
  std::string why_note;  // what profiling cost, what was not profiled ("" without profiles)
  bool has_instructions = false;   // some rows are instruction counts (exact, one run per side)
  bool instructions_only = false;  // every row is: no rounds, no intervals
  // Unchanged benchmarks whose programs are identical on both sides (no round, no interval):
  // every unchanged one, or some of them (their rows say so).
  bool identical_only = false;
  bool some_identical = false;
  std::string instruction_threshold;
  // How the labels were decided, under the changed table when any row is significant: which
  // test each label passed, over how many benchmarks ("" otherwise).
  std::string label_rule;
  std::string footer;
  BisectView bisect;  // the search for the commits behind the changes (present = false: none)
};

// How much of each part to show; the size budget lowers these.
struct ViewLimits {
  static constexpr std::size_t kAll = std::numeric_limits<std::size_t>::max();
  std::size_t changed_rows = kAll;
  std::size_t unchanged_rows = kAll;
  std::size_t per_round_rows = 50;
  bool placeholders = true;  // say "left out" where a collapsed section lost all its rows
  bool build_logs = true;
  std::size_t notes = kAll;
  bool why_sections = true;  // the function-level sections (the closing note stays)
};

// The recommendation's title, the headline's bold start ("Looks good to merge."), shared by the
// comment and the HTML report.
std::string recommendation_title(const Recommendation& rec);

CommentView make_view(const Results& results, const Analysis& analysis,
                      const RenderOptions& options);

kainjow::mustache::data to_data(const CommentView& view, const ViewLimits& limits);

// "❌ 1 regression · ⚡ 2 improvements" (emoji = true) or "1 regression, 2 improvements".
std::string count_phrase(const std::vector<std::pair<std::string, int>>& counts, bool emoji);
std::vector<std::pair<std::string, int>> count_verdicts(const Analysis& analysis);
// The comment's, the text report's and the HTML report's headline: the verdict counts, "nothing
// was compared", or, for a comparison stopped before any analysed round finished, that it
// stopped (not "💥 N failed": none failed, none was measured).
std::string headline_phrase(const Results& results, const Analysis& analysis, bool emoji);
// "measured for 14m2s", or with a commit search "measured for 17m40s (the commit search 3m38s
// of it)": the footer's wall time, in every report.
std::string measured_for(const Results& results);

}  // namespace benchpr::render
