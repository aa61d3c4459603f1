// The pictures of the HTML report, as inline SVG: no script, no external resource, every text
// from the benchmarked code escaped. Separate from the page so each chart can be tested alone.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "benchpr/core/model/model.hpp"
#include "benchpr/render/escape.hpp"  // escape_html

namespace benchpr::render {

// Colour of a verdict, shared by the page's badges and the charts.
std::string_view verdict_colour(Verdict v);

// Every benchmark's change with its 95% CI on one common axis (log scale of the ratio, so 2×
// slower and 2× faster are equally far from 0), the ±threshold band shaded; one row each, in
// the given order. Benchmarks without a change (failed, added, removed) show their verdict.
std::string change_chart_svg(const std::vector<const BenchmarkAnalysis*>& benchmarks,
                             double threshold);

// The values of both sides round by round (warm-up included and marked), with the run order
// visible: base as circles, PR as squares, filled when that side ran first in the round and
// hollow when it ran second; each round labelled AB (base first) or BA. A round the analysis
// left out as cold is shaded. Drift shows as a trend shared by both sides; an order effect as
// filled and hollow points of one side sitting at different heights. `order_known` false (the
// values were read from result files): every mark filled, rounds labelled by number only.
std::string rounds_chart_svg(const BenchmarkSeries& series, const BenchmarkAnalysis& analysis,
                             const std::vector<RoundPlan>& plan, bool order_known = true);

// The legend for rounds_chart_svg.
std::string rounds_legend_svg();

}  // namespace benchpr::render
