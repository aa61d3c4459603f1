// A picture of the session for people who want to see the rounds, not only the verdicts:
// `benchpr run --html report.html`. One self-contained HTML file (inline CSS and SVG, no script,
// nothing fetched), so it can be attached to a CI run and opened anywhere.
#pragma once

#include <cstddef>
#include <string>

#include "benchpr/core/model/model.hpp"

namespace benchpr::render {

// Benchmarks drawn in full; the rest are counted (the results JSON has them all).
inline constexpr std::size_t kHtmlMaxBenchmarks = 200;

// The headline and recommendation at the top; a chart of every benchmark's change with its 95%
// CI on one common axis; then, per benchmark (at most kHtmlMaxBenchmarks, in the comment's
// order: regressions first, larger changes first), its numbers and the values of both sides
// round by round with the run order visible (see rounds_chart_svg). Every text that comes from
// the benchmarked code or the pull request is escaped, and a Content-Security-Policy forbids
// scripts and remote loads even if something slipped through.
std::string render_html_report(const Results& results, const Analysis& analysis);

}  // namespace benchpr::render
