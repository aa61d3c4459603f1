// Reading function symbols and code from ELF64 files, and comparing two builds' functions: the
// same bytes, or calls that reach the same named function at another distance.
#include "benchpr/runner/elf_symbols.hpp"

#include <cstring>
#include <string>

#include <gtest/gtest.h>

#include "benchpr/runner/code_evidence.hpp"

// A function of this test program to find in its own symbol table.
extern "C" __attribute__((noinline, used)) int benchpr_elf_probe(int x) { return x * 7 + 3; }

namespace benchpr::runner {
namespace {

TEST(ElfSymbols, ReadsItsOwnProgramsFunctions) {
  const ElfFunctions self = read_elf_functions("/proc/self/exe");
  ASSERT_TRUE(self.error.empty()) << self.error;
  const ElfFunction* probe = nullptr;
  for (const ElfFunction& f : self.functions)
    if (f.name == "benchpr_elf_probe") probe = &f;
  ASSERT_NE(probe, nullptr);
  EXPECT_GT(probe->size, 0u);
  EXPECT_EQ(probe->bytes.size(), probe->size);
  EXPECT_TRUE(same_code(*probe, self, *probe, self));
  // C++ names are demangled as Callgrind shows them.
  bool demangled = false;
  for (const ElfFunction& f : self.functions)
    demangled |= f.name.find("benchpr::runner::parse_elf_functions(") == 0;
  EXPECT_TRUE(demangled);
}

TEST(ElfSymbols, NamesAndNonElfFiles) {
  EXPECT_EQ(demangle("_Z3fooi"), "foo(int)");
  EXPECT_EQ(demangle("_Z3fooi.constprop.0"), "foo(int) [clone .constprop.0]");
  EXPECT_EQ(demangle("memcmp"), "memcmp");
  EXPECT_EQ(callgrind_base_name("fib(int)'2"), "fib(int)");
  EXPECT_EQ(callgrind_base_name("operator'x"), "operator'x");
  EXPECT_FALSE(parse_elf_functions("#!/bin/sh\n").error.empty());
  EXPECT_FALSE(read_elf_functions("/nonexistent/program").error.empty());
}

// Two builds of one function: at 0x1000 and 0x1010, each calling `g` (at 0x2000 and 0x2020)
// with E8 rel32 at offset 4.
struct TwoBuilds {
  ElfFunctions base_file, head_file;
  ElfFunction base, head;
  TwoBuilds() {
    base = make(0x1000, 0x2000);
    head = make(0x1010, 0x2020);
    base_file.starts = {{0x1000, "f()"}, {0x2000, "g()"}, {0x3000, "h()"}};
    head_file.starts = {{0x1010, "f()"}, {0x2020, "g()"}, {0x3000, "h()"}};
  }
  static ElfFunction make(std::uint64_t at, std::uint64_t callee) {
    ElfFunction f;
    f.name = "f()";
    f.address = at;
    f.bytes = std::string("\x55\x48\x89\xe5\xe8\0\0\0\0\x5d\xc3", 11);
    const auto rel = static_cast<std::int32_t>(callee - (at + 9));
    std::memcpy(f.bytes.data() + 5, &rel, 4);
    f.size = f.bytes.size();
    return f;
  }
};

TEST(ElfSymbols, ACallToTheSameFunctionAtAnotherDistanceIsTheSameCode) {
  TwoBuilds t;
  EXPECT_TRUE(same_code(t.base, t.base_file, t.head, t.head_file));
  // The PR's call reaches another function: changed.
  t.head = TwoBuilds::make(0x1010, 0x3000);
  EXPECT_FALSE(same_code(t.base, t.base_file, t.head, t.head_file));
}

TEST(ElfSymbols, AnyOtherDifferenceIsChangedCode) {
  TwoBuilds t;
  t.head.bytes[1] = '\x49';  // another instruction
  EXPECT_FALSE(same_code(t.base, t.base_file, t.head, t.head_file));
  TwoBuilds sizes;
  sizes.head.bytes += '\x90';
  sizes.head.size += 1;
  EXPECT_FALSE(same_code(sizes.base, sizes.base_file, sizes.head, sizes.head_file));
  // A call target without a name (a PLT stub, data): conservatively changed.
  TwoBuilds unnamed;
  unnamed.base_file.starts.erase(0x2000);
  unnamed.head_file.starts.erase(0x2020);
  EXPECT_FALSE(same_code(unnamed.base, unnamed.base_file, unnamed.head, unnamed.head_file));
}

TEST(CodeEvidence, HotFunctionsFoundInBothBuildsOneBuildOrNeither) {
  TwoBuilds t;
  t.base_file.functions = {t.base};
  t.head_file.functions = {t.head};
  FunctionProfile base, head;
  base.total = head.total = 100;
  base.functions = head.functions = {{"f()", 80, 100}, {"memcmp", 15, 15}, {"k()", 5, 5}};
  const CodeEvidence e =
      compare_hot_code("core", "BM_F", base, head, {&t.base_file}, {&t.head_file});
  EXPECT_TRUE(e.missing.empty()) << e.missing;
  ASSERT_EQ(e.functions.size(), 2u);  // f and memcmp hold 95%
  EXPECT_EQ(e.functions[0].name, "f()");
  EXPECT_TRUE(e.functions[0].identical);
  EXPECT_EQ(e.functions[0].shift(), 16);
  EXPECT_EQ(e.functions[1].name, "memcmp");
  EXPECT_TRUE(e.functions[1].outside);
  EXPECT_DOUBLE_EQ(e.covered, 0.95);
  // In the base's build only: not the same code.
  ElfFunctions empty_head;
  empty_head.functions = {};
  ElfFunction other = t.head;
  other.name = "other()";
  empty_head.functions.push_back(other);
  const CodeEvidence gone =
      compare_hot_code("core", "BM_F", base, head, {&t.base_file}, {&empty_head});
  EXPECT_FALSE(gone.functions[0].identical);
  // No name: the evidence is incomplete.
  base.functions[0].name = head.functions[0].name = "0x0000000000401000";
  const CodeEvidence unnamed =
      compare_hot_code("core", "BM_F", base, head, {&t.base_file}, {&t.head_file});
  EXPECT_FALSE(unnamed.missing.empty());
}

}  // namespace
}  // namespace benchpr::runner
