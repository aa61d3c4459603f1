// The placement control: each side's timed programs relinked with a pad of 16, 32 and 48 bytes
// linked first, so that the code after it sits at other offsets in the 64-byte lines and 32-byte
// fetch windows, with no instruction changed. The rounds rotate over the placements
// (core/plan/schedule.hpp placement_slot) and a change is read over whole cycles of them
// (core/stats/paired_rounds.hpp): a change that is the PR's survives every placement, an alignment
// effect of one relink averages out and widens the interval (docs/placement.md).
//
// A program is relinked with its own build's link command: CMake's Makefile build trees keep it
// in CMakeFiles/<target>.dir/link.txt (run in the target's build directory), its Ninja build trees
// print it with `ninja -t commands <program>` (the last command, run in the build directory). A
// program with neither (another build system) is not relinked, and then the comparison runs
// without the control and says why.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace benchpr::runner {

// The offsets, in bytes: 0 is the program as built.
inline const std::vector<int> kPlacementShifts = {0, 16, 32, 48};

// Assembler source of a pad object: `bytes` bytes of int3 in .text, 16-byte aligned like the
// code that follows it, so everything after it moves by exactly `bytes`. It marks its stack as
// not executable, as compiled objects do.
std::string pad_assembly(int bytes);

// One line of link.txt with `pad_object` linked first and the output renamed to `output`:
// nullopt unless `line` is a single command whose `-o` names `program` (resolved against `cwd`,
// the target's build directory) and whose words need no quoting (no quote, backslash or `$`).
std::optional<std::string> shifted_link_line(std::string_view line, const std::string& cwd,
                                             const std::string& program,
                                             const std::string& pad_object,
                                             const std::string& output);

// The compiler driver that link `line` runs, to assemble the pad with: the first word named like a
// compiler (a launcher may come before it), else the first word.
std::string link_driver(std::string_view line);

struct LinkScript {
  std::string path;  // .../CMakeFiles/<target>.dir/link.txt
  std::string cwd;   // the target's build directory, where the line runs
  std::string line;  // the link command
};

// The link script below `root` whose command writes `program` (an absolute, resolved path);
// nullopt when none does, or when more than one line would have to run.
std::optional<LinkScript> find_link_script(const std::string& root, const std::string& program);

// The link command of a program in a Ninja build tree: the last line `ninja -t commands` printed
// for it, without the `: && ` and ` && :` CMake wraps it in; nullopt when that line is not one
// command.
std::optional<std::string> ninja_link_line(std::string_view commands);

// The directory of the build.ninja that builds `program`: the nearest one above it, below `root`;
// nullopt when there is none.
std::optional<std::string> ninja_build_dir(const std::string& root, const std::string& program);

// Why the relinked `variant` is not `program` with its code moved, or nullopt when it is: every
// function of one is a function of the same name in the other, the same code as runner/elf_symbols
// same_code reads it (a reference that reaches the same thing at another distance is the same).
// A PR's link command makes its relinked programs: one that links other code when benchpr relinks
// would have three rounds in four time a program that was neither built nor counted.
std::optional<std::string> relinked_differs(const std::string& program, const std::string& variant);

// Where a side's program `relative` (to its worktree `root`) relinked at `shift` bytes lives:
// outside the build tree, so that no scan for benchmark executables finds it.
std::string placement_variant_path(const std::string& root, const std::string& relative, int shift);
// The folder of a side's pads, link scripts and relinked programs.
std::string placement_dir(const std::string& root);
// Whether a path relative to a worktree (as Results::executables records it) is a relinked
// program: the same code as the program at other addresses, never a program of its own.
bool is_placement_variant(const std::string& relative);

}  // namespace benchpr::runner
