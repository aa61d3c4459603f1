// What the two sides' executables hold for the functions a benchmark spends its instructions in:
// the evidence that decides whether a time change on identical counts is the PR's change or a
// code-placement effect of relinking (core/evidence/placement.hpp, docs/placement.md). Plain
// values, kept in the results so `publish` reads a benchmark exactly as `run` did.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace benchpr {

// One hot function as found in both sides' programs.
struct HotFunction {
  std::string name;  // as Callgrind names it (demangled)
  double share = 0;  // of the benchmark's own (self) instructions per iteration, the larger side's
  // Where the symbol is on each side (its value in the ELF symbol table) and its size in bytes;
  // 0 when not found on that side.
  std::uint64_t base_address = 0;
  std::uint64_t head_address = 0;
  std::uint64_t base_size = 0;
  std::uint64_t head_size = 0;
  // Found on both sides with the same size and the same bytes (calls to the same named function
  // at another distance count as the same bytes: runner/elf_symbols.hpp).
  bool identical = false;
  // Not the same code as a whole, but every instruction the benchmark executes in it is: the
  // base's path, from the function's entry, through the PR's bytes, each instruction run as
  // often per iteration (runner/elf_symbols.hpp, same_executed_code). What differs is code the
  // benchmark never runs (a branch the PR changed that this benchmark does not take), which
  // moves the executed code in memory.
  bool executed_same = false;
  // In none of either side's built programs (a system library both sides load): the same file,
  // so the same code; its address says nothing about the build.
  bool outside = false;

  // The same code where the benchmark runs it: identical, or the same executed instructions.
  bool same_where_run() const { return identical || executed_same; }

  // head - base, in bytes.
  std::int64_t shift() const {
    return static_cast<std::int64_t>(head_address) - static_cast<std::int64_t>(base_address);
  }
};

struct CodeEvidence {
  std::string suite;  // the time suite
  std::string name;
  // The functions that together hold at least kHotCoverage of the self instructions on each
  // side, largest share first.
  std::vector<HotFunction> functions;
  double covered = 0;  // the share of self instructions they hold (the smaller side's)
  // Why the evidence is incomplete ("" when complete): a function with no name, a name on one
  // side only, a program that could not be read.
  std::string missing;
  // On a machine whose CPU has instructions Valgrind does not run (AVX-512), code that picks its
  // path by the CPU runs another path under Callgrind than natively. The first function the
  // benchmark's counted run could have called directly but did not, that holds AVX-512 code and
  // that changed between the builds, with its caller ("`union_avx512` (called from `union`)"); ""
  // when none. Then the hot code says nothing of what runs natively, and no reading sets time
  // aside.
  std::string unrun_changed;
};

// The share of a benchmark's self instructions its hot functions must cover on each side.
inline constexpr double kHotCoverage = 0.9;

}  // namespace benchpr
