// The functions of an ELF64 program or shared library: each function symbol's demangled name,
// address, size and bytes, from the symbol table (.symtab, else .dynsym). What decides whether a
// benchmark's hot functions are the same code in both builds (core/placement.hpp). An adapter
// behind two functions: parse_elf_functions reads bytes (tests give it their own), and
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

struct ElfFunctions {
  std::vector<ElfFunction> functions;  // by address
  std::string error;                   // "" when read
  // Function start -> name, for reading a relative call's target.
  std::map<std::uint64_t, std::string> starts;
};

// A mangled C++ name demangled ("_Z3fooi" -> "foo(int)"); other names as they are.
std::string demangle(const std::string& name);

// The name as Callgrind writes it, without its recursion-depth suffix ("f'2" -> "f").
std::string callgrind_base_name(const std::string& name);

ElfFunctions parse_elf_functions(std::string_view image);
ElfFunctions read_elf_functions(const std::string& path);

// Whether two functions are the same code: the same size and the same bytes, except that a
// relative call or jump (E8/E9 rel32) may reach the start of the same named function at another
// distance. Any other difference, a relative reference to data or to code without a name
// included, is a difference: conservatively, changed code.
bool same_code(const ElfFunction& base, const ElfFunctions& base_file, const ElfFunction& head,
               const ElfFunctions& head_file);

}  // namespace benchpr::runner
