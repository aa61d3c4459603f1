// Reads one file of Callgrind's output format (valgrind.org/docs/manual/cl-format.html) into
// per-function self and inclusive instruction counts (event Ir) and caller→callee edges. Pure:
// the text in, the counts out. The file is the code under test's output as much as Callgrind's
// (names come from the PR's code), so every line is checked and nothing is trusted to be short.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>

#include "benchpr/core/model/profile.hpp"

namespace benchpr::formats {

struct CallgrindProfileReading {
  FunctionProfile profile;             // raw counts of this file (one dump)
  std::optional<std::string> problem;  // why the file cannot be read; profile empty then
  // With Callgrind's --dump-instr=yes: each function's executed instructions, address (as in
  // the object's file) -> its own Ir, by the function's name in `profile`.
  std::unordered_map<std::string, std::map<std::uint64_t, double>> executed;
};

// Names are taken as Callgrind wrote them: demangled when it ran with --demangle=yes (its
// default). Compressed names ("fn=(12) name", later "fn=(12)") are resolved; an unnamed function
// ("0x0000000000016410") is named with its object's file name, since addresses alone repeat
// across objects. Inlined code is counted where Callgrind counts it: in the function whose
// machine code it became (fi=/fe= change only the source file).
CallgrindProfileReading read_callgrind_profile(std::string_view text);

}  // namespace benchpr::formats
