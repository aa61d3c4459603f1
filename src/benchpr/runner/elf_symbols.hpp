// The functions of an ELF64 program or shared library: each function symbol's demangled name,
// address, size and bytes, from the symbol table (.symtab, else .dynsym). What decides whether a
// benchmark's hot functions are the same code in both builds (core/evidence/placement.hpp). An
// adapter behind two functions: parse_elf_functions reads bytes (tests give it their own), and
// read_elf_functions reads a file.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace benchpr::runner {

struct ElfFunction {
  std::string name;  // demangled, as Callgrind names functions
  std::uint64_t address = 0;
  std::uint64_t size = 0;
  std::string bytes;  // the function's code as in the file (empty when not in the file)
};

// A data object (STT_OBJECT), for reading what a RIP-relative reference reaches.
struct ElfObject {
  std::string name;
  std::uint64_t size = 0;
};

// An allocated section: where a reference's target lies, and its bytes in the file.
struct ElfSection {
  std::string name;
  std::uint64_t address = 0;
  std::uint64_t size = 0;
  std::uint64_t offset = 0;  // in the file
  bool nobits = false;       // .bss and the like: zeros, not in the file
};

struct ElfFunctions {
  std::vector<ElfFunction> functions;  // by address
  std::string error;                   // "" when read
  // Function start -> name, for reading a relative call's target.
  std::map<std::uint64_t, std::string> starts;
  std::map<std::uint64_t, ElfObject> objects;  // data object start -> object
  // GOT slot -> the imported symbol it holds (JUMP_SLOT and GLOB_DAT relocations): what a PLT
  // stub's indirect jump reaches.
  std::map<std::uint64_t, std::string> got_slots;
  std::vector<ElfSection> sections;  // allocated ones
  std::string image;                 // the file, for the bytes a reference reaches
};

// A mangled C++ name demangled ("_Z3fooi" -> "foo(int)"); other names as they are.
std::string demangle(const std::string& name);

// The name as Callgrind writes it, without its recursion-depth suffix ("f'2" -> "f").
std::string callgrind_base_name(const std::string& name);

ElfFunctions parse_elf_functions(std::string_view image);
ElfFunctions read_elf_functions(const std::string& path);

// Whether two functions are the same code: the same size and the same bytes, except where a
// relative reference reaches the same thing at another distance (the code or what it refers to
// moved when the program was linked again):
// - a call or jump (E8/E9 rel32) to the start of the same named function, or to the PLT stub of
//   the same imported function;
// - a RIP-relative operand (ModRM mod 00, r/m 101) that reaches the same function, the same
//   offset of the same named data object whose bytes are the same in both files (or zeros in
//   both), or unnamed data in sections of the same name whose next 16 bytes are the same.
// Any other difference is a difference: conservatively, changed code.
bool same_code(const ElfFunction& base, const ElfFunctions& base_file, const ElfFunction& head,
               const ElfFunctions& head_file);

// A function's executed instructions on one side: address (as in the file) -> executions per
// iteration (Callgrind's --dump-instr=yes, runner/profiles.hpp).
using ExecutedInstructions = std::map<std::uint64_t, double>;

// The functions `f` calls or jumps to directly (E8/E9 rel32 reaching the start of a function of
// `file`), by name, each once. Read from the bytes without decoding instructions: an E8 or E9
// byte inside another instruction whose next four bytes happen to reach a function's start
// counts too, which only makes the reader (a guard) more careful.
std::vector<std::string> direct_callees(const ElfFunction& f, const ElfFunctions& file);

// Whether `f`'s bytes hold AVX-512 code: at least three EVEX prefixes (62, then a byte with bits
// 3-2 clear and a map 1-3, then one with bit 2 set), which Valgrind cannot run. Read without
// decoding; three such sequences by chance in ordinary code are rare.
bool has_avx512_code(const ElfFunction& f);

// Whether a benchmark runs the same instructions in two versions of a function that are not
// the same code as a whole: the same number of executed instructions, each run as often, and
// in address order each pair the same instruction (as same_code reads them); a jump reaches the
// corresponding executed instruction, or, never taken, falls through to it. A jump is the same
// jump whether encoded short or near (the assembler picks by how far its target lies). What lies
// between them that the benchmark never runs may differ (a branch the PR changed that this
// benchmark does not take): it moves the executed code in memory, as relinking does, and so may the
// alignment padding (no-ops) it runs, whose lengths are not compared. Any instruction it
// cannot read (a jump of another kind, a fall-through into other bytes) reads as changed code.
// Both sides must enter at the function's start and reach every instruction they run from one
// run before it (falling through, or by a direct jump): the head's path then follows from its
// bytes and the base's path alone, so a PR's Callgrind output, which its code can write, cannot
// name another path of its code that looks like the base's. An indirect jump run (a jump
// table) reads as changed code: its target is in data.
bool same_executed_code(const ElfFunction& base, const ElfFunctions& base_file,
                        const ExecutedInstructions& base_run, const ElfFunction& head,
                        const ElfFunctions& head_file, const ExecutedInstructions& head_run);

}  // namespace benchpr::runner
