// libFuzzer target: the ELF reader behind the code evidence (parse_elf_functions), on the PR's
// built programs: the PR's code decides their every byte. Any bytes must end in functions or an
// error, never a crash, and within memory the file's size bounds: functions by address, each
// one's bytes its whole code or none, each start named; a function is the same code as itself,
// and reading two functions against each other, or a claimed path through them, ends.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "benchpr/runner/elf_symbols.hpp"
#include "fuzz_check.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace benchpr::runner;
  const std::string_view image(reinterpret_cast<const char*>(data), size);
  const ElfFunctions file = parse_elf_functions(image);
  FUZZ_CHECK(file.error.empty() != file.functions.empty());
  std::size_t held = 0;
  for (std::size_t i = 0; i < file.functions.size(); ++i) {
    const ElfFunction& f = file.functions[i];
    if (i > 0) {
      const ElfFunction& before = file.functions[i - 1];
      FUZZ_CHECK(std::tie(before.address, before.name) <= std::tie(f.address, f.name));
    }
    FUZZ_CHECK(f.size > 0);
    FUZZ_CHECK(f.bytes.empty() || f.bytes.size() == f.size);
    FUZZ_CHECK(file.starts.count(f.address) == 1);
    held += f.name.size() + f.bytes.size();
    if (f.bytes.size() == f.size) FUZZ_CHECK(same_code(f, file, f, file));
    // What it calls directly: each a named function start of the file, each once.
    const std::vector<std::string> callees = direct_callees(f, file);
    FUZZ_CHECK(callees.size() <= f.bytes.size());
    for (const std::string& callee : callees) FUZZ_CHECK(!callee.empty());
    // Two functions of one size read against each other: every difference is a relative
    // reference to resolve (calls, the PLT, RIP-relative data) in the file's own tables.
    if (i > 0 && file.functions[i - 1].size == f.size)
      static_cast<void>(same_code(file.functions[i - 1], file, f, file));
    // A path through it, as a Callgrind output may claim one (the PR's can claim anything):
    // offsets picked by the input's bytes, read against itself and against the function
    // before it with the same claim where it fits.
    if (f.bytes.size() == f.size) {
      ExecutedInstructions run{{f.address, 1.0}};
      for (std::size_t j = 0; j < 16 && j < size; ++j)
        run.emplace(f.address + (data[j] * 31u + j) % f.size, 1.0 + data[j] % 3);
      static_cast<void>(same_executed_code(f, file, run, f, file, run));
      if (i > 0 && file.functions[i - 1].bytes.size() == file.functions[i - 1].size) {
        const ElfFunction& other = file.functions[i - 1];
        ExecutedInstructions moved;
        for (const auto& [address, n] : run)
          if (address - f.address < other.size)
            moved.emplace(other.address + (address - f.address), n);
        static_cast<void>(same_executed_code(other, file, moved, f, file, run));
      }
    }
  }
  // What the file's tables say is copied at most a few times over, however they overlap.
  FUZZ_CHECK(held <= 4 * size + (1u << 20));
  // The names the reader demangles, straight from the bytes too.
  const std::string name(image.substr(0, 4096));
  callgrind_base_name(demangle(name));
  return 0;
}
