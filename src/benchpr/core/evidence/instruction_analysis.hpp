// Instruction counts (Callgrind) are exact: the same binary gives the same count, so one value
// per side decides, and the verdict is the relative change against a threshold, not a test.
// Pure; the runner measures (runner/instruction_counts), the renderer shows.
#pragma once

#include <string>
#include <vector>

#include "benchpr/core/model/model.hpp"

namespace benchpr {

// The suite name instruction series are stored under: "core (instructions)", so they never
// share a (suite, name) key with the same benchmark's time series.
std::string instruction_suite_name(const std::string& suite);

bool is_instruction_series(const BenchmarkSeries& s);
bool is_instruction_analysis(const BenchmarkAnalysis& b);

// One benchmark's verdict from its base and PR counts (index 0 of the series): `regression` /
// `improvement` from `threshold` on (a fraction), `unchanged` below it, with the exact change;
// `failed`, `added`, `removed` as for time.
BenchmarkAnalysis analyse_instruction_series(const BenchmarkSeries& s, double threshold);

// How far a side's check count (index 1: one repetition of the longer Callgrind run alone) may
// be from its count (index 0) before the comment says the count is not repeatable: half the
// threshold, a difference that could move the verdict.
double count_agreement(double threshold);

// Sentences for the benchmarks whose time and instruction count disagree: instructions flat
// while time is significantly worse or better (the PR waits, misses caches, calls the kernel),
// or instructions changed beyond their threshold while time was shown unchanged; and first, for
// those whose two counts of a side disagree (BenchmarkAnalysis::count_check). With `results`,
// a time change on flat counts also says what the hot code showed (Results::hot_code): changed
// code, or identical code at the same addresses (core/evidence/placement.hpp).
std::vector<Note> time_instruction_disagreements(const Analysis& analysis,
                                                 const Results* results = nullptr);

}  // namespace benchpr
