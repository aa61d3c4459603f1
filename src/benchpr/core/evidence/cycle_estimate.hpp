// An estimate of cycles per iteration beside the exact instruction count, from Callgrind's
// cache simulation (--cache-sim=yes): instructions, plus a weight per simulated cache miss.
// The count alone cannot see a PR that walks the same data with a worse access pattern; the
// misses can, and they are as repeatable as the count. It is KCachegrind's derived event "CEst"
// (libcore/globalconfig.cpp, GlobalConfig::knownFormula: Ir + 10 Bm + 10 L1m + 20 Ge + 100 L2m
// + 100 LLm), of which Callgrind's cache simulation gives the L1 and LL terms:
//
//   cycles = Ir + 10 (I1mr + D1mr + D1mw) + 100 (ILmr + DLmr + DLmw)  [+ 10 (Bcm + Bim)]
//
// (the branch term only where the dumps hold branch simulation's events; each group of misses,
// a difference of two runs, at least zero). It is a model, not
// a measurement: evidence shown beside the count, never a verdict (docs/instructions.md).
// Pure; the runner reads the events (runner/callgrind), the analysis and renderer show them.
#pragma once

#include <cstddef>
#include <map>
#include <string>
#include <vector>

#include "benchpr/core/model/model.hpp"

namespace benchpr {

// A side's events per iteration by Callgrind's name, index 0 the count, index 1 its check
// (BenchmarkSeries::base_events).
using EventCounts = std::map<std::string, std::vector<double>>;

// The weights of the formula, in cycles per event.
inline constexpr double kL1MissCycles = 10;
inline constexpr double kLastLevelMissCycles = 100;
inline constexpr double kBranchMissCycles = 10;

// The cache simulation's miss events, all needed for an estimate.
inline constexpr const char* kCacheMissEvents[] = {"I1mr", "D1mr", "D1mw", "ILmr", "DLmr", "DLmw"};

// The estimate of `instructions` (Ir) per iteration with the events at `index` (0: the count,
// 1: the check): kMissing when the instructions or any cache miss event is missing.
double estimated_cycles(double instructions, const EventCounts& events, std::size_t index = 0);

// A side's estimate from an instruction series (its count and events at `index`).
double series_cycles(const BenchmarkSeries& s, Side side, std::size_t index = 0);

// Sets the instruction analysis `a`'s cycles_base/head and cycles_moved from its series: moved
// when the estimate changed by at least `threshold`, clear of twice either side's own spread
// (its check against its count), as the count's own rule reads a count that is not repeatable.
void estimate_cycles(const BenchmarkSeries& s, double threshold, BenchmarkAnalysis& a);

// The misses behind a change of the estimate, largest contribution first, those that changed:
// "D1 misses 1,200 → 4,800 per iteration, LL misses 0.50 → 300". "" when none did.
std::string miss_changes(const BenchmarkSeries& s);

// One note per counted benchmark whose estimate moved (cycles_moved) while its instructions did
// not move as much: "`BM_X`: instructions unchanged (exact count, 0.0%), estimated cycles +300%
// (1,000 → 4,000 per iteration; D1 misses 10 → 40 per iteration): ...". Evidence, not a verdict.
std::vector<Note> cycle_estimate_notes(const Results& results, const Analysis& analysis);

// Beside an instruction count's verdict: "estimated cycles +300% (1,000 → 4,000)", or "" when
// a side has no estimate.
std::string cycles_phrase(const BenchmarkAnalysis& a);

// Whether any series of `results` holds cache events (so the comment says what they are).
bool has_cycle_estimates(const Results& results);

}  // namespace benchpr
