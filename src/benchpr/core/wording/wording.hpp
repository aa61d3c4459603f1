// Numbers in words, shared by the analysis's sentences and the renderer so that the
// recommendation and the tables never disagree on how a change is written.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "benchpr/core/model/model.hpp"

namespace benchpr {

// 0.075 -> "+7.5%", -0.031 -> "−3.1%" (U+2212), 0.0004 -> "+0.04%". Two significant digits
// below 1%, one decimal above.
std::string format_signed_percent(double fraction);
// 0.075 -> "7.5%" (no sign).
std::string format_percent(double fraction);

// How the rounds ran the programs under the placement control (Results::placement_shifts), for
// a footer: "each side's code at 4 placements in turn (relinked +0/16/32/48 bytes)"; "" without.
std::string placement_rotation_text(const std::vector<int>& shifts);
// "7.5% slower", "3.2× faster" (time-like); "10.0% lower", "2.5× higher" (higher is better).
// Ratios are used from 2× on.
std::string describe_change(double change, Better better);
// A confidence interval of a change: "+4.1 … +10.8%"; when both ends are large ratios, as
// ratios in the same direction as describe_change: "11× … 15×" (both >= 2x up) or
// "17× … 25×" (both <= 0.5x, i.e. that many times down).
std::string format_interval(double low, double high);
// Whether |change| reads at or above `threshold` as both are written by format_percent (a
// 1.97% estimate reads "2.0%", level with a 2.0% threshold): a sentence must never call a change
// that reads as the threshold "below" it.
bool reads_at_least(double change, double threshold);
// Why a `slower`/`faster` benchmark is not a regression/improvement, for the tables: "below the
// 2.0% threshold" (its estimate), or "not shown beyond ±1.0% (half the 2.0% threshold) after
// correcting for 50 benchmarks; ≈ 14 rounds would settle it". "" for every other verdict.
// `family`: the benchmarks the correction ran over.
std::string size_note(const BenchmarkAnalysis& b, std::size_t family);
// The largest change an undecided benchmark's 95% CI leaves open: its farther end from zero,
// 0.046 for a CI of −3.1 … +4.6%. NaN without a finite interval.
double undecided_bound(const BenchmarkAnalysis& b);
// How much worse the change could be: the worse end of the interval the verdicts test (the
// one-sided bound at Analysis::equivalence_level), as a change in the worse direction (+ for
// slower, for less throughput too); NaN when the benchmark has no interval.
double worse_bound(const BenchmarkAnalysis& b);
// "no change beyond ±4.6%" for that bound, written as the CI column writes its end; "" without
// one. When that bound is inside the threshold, the wider interval "unchanged" was tested on is
// named too: "no change beyond ±1.4% at 95% (±2.3% at the 99.97% that “unchanged” tests)".
std::string no_change_beyond(const BenchmarkAnalysis& b);
// A confidence level in percent that never reads as 100%: 0.9 -> "90%", 0.983 -> "98.3%",
// 0.99998 -> "99.998%" (an early adaptive look tests "unchanged" at such levels).
std::string format_level(double level);
// "slower"/"faster" for time-like metrics, "lower"/"higher" for throughput-like ones.
std::string worse_word(Better better);
std::string better_word(Better better);
// A count and its noun: (1, "round", "rounds") -> "1 round", (3, ...) -> "3 rounds".
std::string plural(std::size_t n, std::string_view one, std::string_view many);

// The notice of a run that stopped before its planned rounds, in every report's words:
// "Partial results: 6 of 10 rounds ran (interrupted by SIGTERM)." `why` is the stop reason as
// the caller shows it (escaped for its output).
std::string partial_results_notice(int rounds_ran, int rounds_planned, std::string_view why);
// The analysed rounds the plan holds; the configured rounds when there is no plan yet.
int planned_rounds(const Results& results);
// Why the run stopped, for that notice: its stop reason, or "stopped early" when it has none.
std::string stopped_because(const Results& results);

}  // namespace benchpr
