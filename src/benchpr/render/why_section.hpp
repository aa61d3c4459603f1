// Where a benchmark's instructions changed, as the comment shows it: a collapsed section per
// profiled benchmark (the top functions by the change of their own count per iteration, before,
// after, change, share of the benchmark's change, call path), a phrase for the row's verdict
// ("mostly `Parser::next_token()`") and a closing note with what profiling cost. Function names
// come from the PR's code: every one is escaped like a benchmark name. docs/why.md.
#pragma once

#include <string>
#include <vector>

#include "benchpr/core/evidence/profile_diff.hpp"
#include "benchpr/core/model/model.hpp"

namespace benchpr::render {

// The profile recorded for a row's benchmark (its time or its instruction series), or nullptr
// when there is none with both sides.
const BenchmarkProfile* profile_for(const Results& results, const BenchmarkAnalysis& b);

// " · mostly `f`", escaped for a table cell ("" without a profile).
std::string why_cell_phrase(const Results& results, const BenchmarkAnalysis& b);

// One <details> block per profiled benchmark with both sides, in the analysis' order.
std::vector<std::string> why_sections(const Results& results, const Analysis& analysis);

// What profiling cost and what was not profiled, for the line under the sections ("" without
// profiles).
std::string why_note(const Results& results);

// A name for HTML text that GitHub shows as written: HTML specials as entities, mentions and
// references broken, brackets and backticks as entities so no markdown forms around it.
std::string html_text(const std::string& text, std::size_t max_chars);

// A long function name for a call path: its parameters as "…" ("ns::f(…) const").
std::string frame_name(const std::string& name);

// The call path "`a` → `b` → `c`", shortened in the middle beyond `max_frames` frames.
std::string call_path(const std::vector<std::string>& path, std::size_t max_frames = 4);

// Instructions per iteration: "1,404", "12.5" below 100, "0.25" below 1.
std::string count_text(double v);
// With its sign: "+1,400", "−3" (U+2212).
std::string signed_count_text(double v);

}  // namespace benchpr::render
