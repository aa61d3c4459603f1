// The hot code of the benchmarks whose time moved (or could not be settled) while their
// instruction counts did not: their hot functions from the counts' own Callgrind runs, found by
// name in both sides' built programs and compared byte for byte (runner/elf_symbols.hpp). The
// result goes into Results::hot_code, which core/evidence/placement.hpp reads.
#pragma once

#include <functional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "benchpr/core/model/model.hpp"
#include "benchpr/runner/elf_symbols.hpp"
#include "benchpr/runner/instruction_counts.hpp"

namespace benchpr::runner {

struct CodeEvidenceSetup {
  std::string base_dir;  // materialised worktrees: results.executables' paths are relative to them
  std::string head_dir;
  const SealedRuns* counted = nullptr;  // the instruction counts' sealed runs
  bool unseen_cpu_paths = false;        // cpu_beyond_valgrind()
};

// Each function's executed instructions per iteration, by the profile's function names.
using ExecutedByFunction = std::unordered_map<std::string, ExecutedInstructions>;

// One benchmark's evidence from its two per-iteration profiles and each side's programs: pure,
// so tests give it programs of their own. A hot function that is not the same code is compared
// again where the benchmark runs it, from `base_run`/`head_run` (HotFunction::executed_same).
CodeEvidence compare_hot_code(const std::string& suite, const std::string& name,
                              const FunctionProfile& base, const FunctionProfile& head,
                              const std::vector<const ElfFunctions*>& base_programs,
                              const std::vector<const ElfFunctions*>& head_programs,
                              const ExecutedByFunction& base_run = {},
                              const ExecutedByFunction& head_run = {},
                              bool unseen_cpu_paths = false);

// On a machine with instructions Valgrind does not run (unseen_cpu_paths): the first function a
// function the benchmark ran calls directly, that its counted run never ran, that holds AVX-512
// code and that is not the same code in both builds, with its caller; "" when none
// (CodeEvidence::unrun_changed). Pure.
std::string changed_callee_not_run(const FunctionProfile& base, const FunctionProfile& head,
                                   const std::vector<const ElfFunctions*>& base_programs,
                                   const std::vector<const ElfFunctions*>& head_programs);

// Whether this machine's CPU has instructions Valgrind does not run (AVX-512, from
// /proc/cpuinfo): code that picks its path by the CPU takes another one under Callgrind.
bool cpu_beyond_valgrind();

// Evidence for each (suite, name) of `wanted` (core/evidence/placement.hpp, code_evidence_wanted)
// into results.hot_code.
void gather_code_evidence(Results& results,
                          const std::vector<std::pair<std::string, std::string>>& wanted,
                          const CodeEvidenceSetup& setup,
                          const std::function<void(const std::string&)>& progress);

}  // namespace benchpr::runner
