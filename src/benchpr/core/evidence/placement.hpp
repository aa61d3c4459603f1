// The verdict is about the change, not the binary. A benchmark whose time moved while it executed
// the same instructions, in functions that are the same code where it runs them (byte-identical,
// or changed only where it does not run) at other addresses in the two builds, shows a
// code-placement (alignment) effect of relinking: named as such, never a regression or improvement
// of the PR. Where time cannot settle a benchmark, equal counts of the same code make it
// "unchanged: same work"; equal counts of changed code do too when time shows no slowdown reaching
// the threshold ("same count"), and counts that moved say they decided. The decision table is
// docs/placement.md. Pure: the runner reads the programs (runner/code_evidence.hpp).
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "benchpr/core/model/model.hpp"

namespace benchpr {

// A hot function's name and its share of the benchmark's self instructions (the larger side's).
struct HotName {
  std::string name;
  double share = 0;
};

// The functions that hold at least `coverage` of each side's self instructions per iteration:
// each side's largest first until they do, both sides' together, largest share first. `covered`
// receives the share they hold on the side where it is smaller. Empty when a side has no count.
std::vector<HotName> hot_function_names(const FunctionProfile& base, const FunctionProfile& head,
                                        double coverage, double* covered = nullptr);

// Whether Callgrind gave the function no name ("0x0000000000401234", "0x… [object]"): its code
// cannot be found in a program.
bool unnamed_function(const std::string& name);

// The reading of one timed benchmark (its verdict by time alone) from its instruction analysis
// (null: not counted) and its code evidence (null: none), the table of docs/placement.md.
CodeReading read_code(const BenchmarkAnalysis& time, const BenchmarkAnalysis* instructions,
                      const CodeEvidence* code, double instruction_threshold);

// Whether the two counts are the same work: within count_agreement(threshold) of each other.
bool same_count(const BenchmarkAnalysis& instructions, double instruction_threshold);

// Every timed benchmark of `analysis` read by read_code, its verdict and reading set
// (Placement: verdict `placement`; SameWork, SameCount: `unchanged`; CountsDecided: verdict
// kept). Call before the notes and the recommendation are made from the verdicts.
void apply_code_readings(const Results& results, Analysis& analysis);
// The same, for timed benchmarks whose instruction analyses are elsewhere (an adaptive look
// reads only its open benchmarks' rounds; the counts were read once, at the first look).
void apply_code_readings(const Results& results, std::vector<BenchmarkAnalysis>& timed,
                         const std::vector<BenchmarkAnalysis>& counted);

// The timed benchmarks (suite, name) whose hot code the runner should compare: every one on
// both sides (not added, removed or failed by its time) whose counts are the same work and agree
// with their own check, whatever time read or before it read anything, so the looks can read
// the code and the results file says of every such benchmark whether its code moved.
std::vector<std::pair<std::string, std::string>> code_evidence_wanted(const Results& results,
                                                                      const Analysis& analysis);

// Whether a timed benchmark runs the same code doing the same work in both builds: its hot
// functions are the same code where it runs them, its exact counts the same and its estimated
// cycles unmoved. Whatever its time reads, the PR did not change it (the recommendation does not
// ask for more rounds to bound it).
bool same_code_and_count(const Results& results, const Analysis& analysis,
                         const BenchmarkAnalysis& timed);

// The evidence of (suite, name), or null.
const CodeEvidence* find_code_evidence(const Results& results, const std::string& suite,
                                       const std::string& name);

}  // namespace benchpr
