// Reading function symbols and code from ELF64 files, and comparing two builds' functions: the
// same bytes, or calls that reach the same named function at another distance.
#include "benchpr/runner/elf_symbols.hpp"

#include <elf.h>

#include <cstring>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "benchpr/runner/code_evidence.hpp"
#include "support/temp_dir.hpp"

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

// An ELF64 file built by hand, as a hostile build could lay it out: a .text of `text_size`
// bytes at address 0x1000 (its file offset as given), a string table, and `tables` symbol table
// headers whose entries start `shift` bytes apart (0: the same table again and again), each
// entry a function named f0, f1, ... at 0x1000 of `function_size` bytes.
struct HandMadeElf {
  std::uint64_t text_size = 16;
  std::uint64_t text_offset = 0;  // 0: where the builder puts it, inside the file
  std::size_t functions = 1;
  std::uint64_t function_size = 16;
  std::size_t tables = 1;
  std::uint64_t shift = 0;

  std::string build() const {
    std::string names(1, '\0');
    std::string symbols(sizeof(Elf64_Sym), '\0');  // entry 0: the null symbol
    for (std::size_t i = 0; i < functions; ++i) {
      Elf64_Sym sym{};
      sym.st_name = static_cast<Elf64_Word>(names.size());
      sym.st_info = ELF64_ST_INFO(STB_GLOBAL, STT_FUNC);
      sym.st_shndx = 1;
      sym.st_value = 0x1000;
      sym.st_size = function_size;
      names += "f" + std::to_string(i) + '\0';
      symbols.append(reinterpret_cast<const char*>(&sym), sizeof sym);
    }
    std::string file(sizeof(Elf64_Ehdr), '\0');
    const std::uint64_t text_at = file.size();
    file += std::string(text_size, '\xc3');
    const std::uint64_t names_at = file.size();
    file += names;
    const std::uint64_t symbols_at = file.size();
    file += symbols;
    file += std::string(shift * tables, '\0');
    std::vector<Elf64_Shdr> sections(3 + tables);
    sections[1].sh_type = SHT_PROGBITS;
    sections[1].sh_flags = SHF_ALLOC | SHF_EXECINSTR;
    sections[1].sh_addr = 0x1000;
    sections[1].sh_offset = text_offset != 0 ? text_offset : text_at;
    sections[1].sh_size = text_size;
    sections[2].sh_type = SHT_STRTAB;
    sections[2].sh_offset = names_at;
    sections[2].sh_size = names.size();
    for (std::size_t t = 0; t < tables; ++t) {
      Elf64_Shdr& table = sections[3 + t];
      table.sh_type = SHT_SYMTAB;
      table.sh_link = 2;
      table.sh_entsize = sizeof(Elf64_Sym);
      table.sh_offset = symbols_at + t * shift;
      table.sh_size = symbols.size();
    }
    Elf64_Ehdr eh{};
    std::memcpy(eh.e_ident, ELFMAG, SELFMAG);
    eh.e_ident[EI_CLASS] = ELFCLASS64;
    eh.e_ident[EI_DATA] = ELFDATA2LSB;
    eh.e_shentsize = sizeof(Elf64_Shdr);
    eh.e_shnum = static_cast<Elf64_Half>(sections.size());
    eh.e_shoff = file.size();
    std::memcpy(file.data(), &eh, sizeof eh);
    for (const Elf64_Shdr& section : sections)
      file.append(reinterpret_cast<const char*>(&section), sizeof section);
    return file;
  }
};

TEST(ElfSymbols, AHandMadeFileIsRead) {
  const ElfFunctions read = parse_elf_functions(HandMadeElf{}.build());
  ASSERT_TRUE(read.error.empty()) << read.error;
  ASSERT_EQ(read.functions.size(), 1u);
  EXPECT_EQ(read.functions[0].name, "f0");
  EXPECT_EQ(read.functions[0].bytes, std::string(16, '\xc3'));
}

// A section whose file offset lies past the end of the file (found by fuzz_elf_symbols: the
// copy of the function's bytes threw std::out_of_range, which ended benchpr): the function is
// read without its bytes, which compare as changed code.
TEST(ElfSymbols, CodeOutsideTheFileIsNoBytesNotACrash) {
  HandMadeElf elf;
  elf.text_offset = 2887680;
  const ElfFunctions read = parse_elf_functions(elf.build());
  ASSERT_EQ(read.functions.size(), 1u) << read.error;
  EXPECT_TRUE(read.functions[0].bytes.empty());
  // Its last 8 bytes past the end: no bytes either, rather than some of them.
  HandMadeElf tail;
  tail.text_offset = tail.build().size() - 8;
  const ElfFunctions cut = parse_elf_functions(tail.build());
  ASSERT_EQ(cut.functions.size(), 1u) << cut.error;
  EXPECT_TRUE(cut.functions[0].bytes.empty());
}

// The same symbol table named by many section headers is read once: its functions once each
// (each header read it again, and the functions were listed as often).
TEST(ElfSymbols, ATableNamedTwiceIsReadOnce) {
  HandMadeElf elf;
  elf.functions = 3;
  elf.tables = 200;
  const ElfFunctions read = parse_elf_functions(elf.build());
  EXPECT_TRUE(read.error.empty()) << read.error;
  EXPECT_EQ(read.functions.size(), 3u);
}

// Tables laid over each other, or functions that each claim the whole of .text: what the reader
// would hold grows with the square of the file. Past what any real program needs (the file's
// room for entries; four times its size in names and bytes) the file is refused with a reason.
TEST(ElfSymbols, TablesThatNameMoreThanTheFileHoldsAreRefused) {
  HandMadeElf overlapping;
  overlapping.functions = 100;
  overlapping.tables = 60;
  overlapping.shift = sizeof(Elf64_Sym);
  const ElfFunctions a = parse_elf_functions(overlapping.build());
  EXPECT_TRUE(a.functions.empty());
  EXPECT_NE(a.error.find("more than the file holds"), std::string::npos) << a.error;

  HandMadeElf whole_text;
  whole_text.text_size = whole_text.function_size = 64 * 1024;
  whole_text.functions = 2000;  // 2000 copies of 64 KiB: 125 MiB from a 100 KiB file
  const ElfFunctions b = parse_elf_functions(whole_text.build());
  EXPECT_TRUE(b.functions.empty());
  EXPECT_NE(b.error.find("more than the file holds"), std::string::npos) << b.error;
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

// mov rax,rdi; test eax,eax; je +N (always taken, over a block the benchmark never runs);
// the block; add rax,rax; ret. The PR changed only the block (another instruction, longer), so
// the je jumps further and what follows it sits 2 bytes later, in a function moved by 0x1000.
struct SkippedBlock {
  static ElfFunction make(std::uint64_t address, const std::string& block) {
    ElfFunction f;
    f.name = "f";
    f.address = address;
    f.bytes = std::string("\x48\x89\xf8\x85\xc0\x74", 6);
    f.bytes += static_cast<char>(block.size());
    f.bytes += block;
    f.bytes += std::string("\x48\x01\xc0\xc3", 4);
    f.size = f.bytes.size();
    return f;
  }
  // What the benchmark runs per iteration: every instruction but the block, once.
  static ExecutedInstructions run(const ElfFunction& f) {
    const std::uint64_t after = f.size - 4;
    return {{f.address, 1},
            {f.address + 3, 1},
            {f.address + 5, 1},
            {f.address + after, 1},
            {f.address + after + 3, 1}};
  }
  ElfFunction base = make(0x1000, std::string("\x48\x83\xc0\x01\x90", 5));
  ElfFunction head = make(0x2000, std::string("\x48\x6b\xc0\x03\x90\x90\x90", 7));
  ElfFunctions base_file, head_file;
};

TEST(ElfSymbols, CodeChangedOnlyWhereTheBenchmarkDoesNotRunIsTheSameWhereItRuns) {
  SkippedBlock t;
  EXPECT_FALSE(same_code(t.base, t.base_file, t.head, t.head_file));
  EXPECT_TRUE(same_executed_code(t.base, t.base_file, SkippedBlock::run(t.base), t.head,
                                 t.head_file, SkippedBlock::run(t.head)));
  // An instruction it runs changed (add -> sub): changed code.
  ElfFunction sub = t.head;
  sub.bytes[sub.size - 3] = '\x29';
  EXPECT_FALSE(same_executed_code(t.base, t.base_file, SkippedBlock::run(t.base), sub, t.head_file,
                                  SkippedBlock::run(sub)));
  // The same bytes, but one instruction run twice as often: not the same run.
  ExecutedInstructions more = SkippedBlock::run(t.head);
  more.begin()->second = 2;
  EXPECT_FALSE(same_executed_code(t.base, t.base_file, SkippedBlock::run(t.base), t.head,
                                  t.head_file, more));
  // The PR's jump lands in the block (which it then runs): another path.
  ElfFunction into = t.head;
  into.bytes[6] = '\x00';
  ExecutedInstructions path = SkippedBlock::run(into);
  EXPECT_FALSE(
      same_executed_code(t.base, t.base_file, SkippedBlock::run(t.base), into, t.head_file, path));
  // An address outside the function (a hostile or mismatched dump): not compared.
  ExecutedInstructions outside = SkippedBlock::run(t.head);
  outside.emplace(0x9000, 1);
  ExecutedInstructions base_outside = SkippedBlock::run(t.base);
  base_outside.emplace(0x9000, 1);
  EXPECT_FALSE(same_executed_code(t.base, t.base_file, base_outside, t.head, t.head_file, outside));
  // The PR runs its changed block once per repetition (a one-off cost: about 0 per iteration
  // after the two runs' difference, but run): not the same where it runs.
  ExecutedInstructions once = SkippedBlock::run(t.head);
  once.emplace(t.head.address + 7, 0.0);
  EXPECT_FALSE(same_executed_code(t.base, t.base_file, SkippedBlock::run(t.base), t.head,
                                  t.head_file, once));
  // Nothing known of what it runs.
  EXPECT_FALSE(same_executed_code(t.base, t.base_file, {}, t.head, t.head_file, {}));
}

// A path run now and then reads a slightly different fraction per iteration on each side (each
// side's own iteration counts): the same path, taken as often. Taken 1% more often (of the
// function's most run instruction) is not.
TEST(ElfSymbols, ARarelyRunPathReadAtSlightlyOtherFractionsIsTheSameWhereItRuns) {
  SkippedBlock t;
  const auto with_last = [](const ElfFunction& f, double last) {
    ExecutedInstructions run;
    for (const auto& [address, n] : SkippedBlock::run(f)) run.emplace(address, n * 500);
    run.rbegin()->second = last;  // the ret, run on a rare path only
    return run;
  };
  // 500 executions per iteration of the others; the rare one 0.00187 against 0.00182.
  EXPECT_TRUE(same_executed_code(t.base, t.base_file, with_last(t.base, 0.00187), t.head,
                                 t.head_file, with_last(t.head, 0.00182)));
  // 5 per iteration against 10: 1% of the most run instruction's 500.
  EXPECT_FALSE(same_executed_code(t.base, t.base_file, with_last(t.base, 5), t.head, t.head_file,
                                  with_last(t.head, 10)));
  // What the PR's code can do with a path cheap in instructions but dear in time (a system
  // call): run it three times as often, 0.1 against 0.3 per iteration. Far under 0.2% of 500,
  // but not the same path taken as often.
  EXPECT_FALSE(same_executed_code(t.base, t.base_file, with_last(t.base, 0.1), t.head, t.head_file,
                                  with_last(t.head, 0.3)));
  // 4% apart (0.100 against 0.104): within the 5% a rare path's sampling may read.
  EXPECT_TRUE(same_executed_code(t.base, t.base_file, with_last(t.base, 0.1), t.head, t.head_file,
                                 with_last(t.head, 0.104)));
}

// A block the benchmark never enters, behind a branch it never takes: the branch falls through
// to the next instruction it runs on both sides, and its target (unexecuted) may move.
TEST(ElfSymbols, ABranchNeverTakenIntoChangedCodeIsTheSameWhereItRuns) {
  // test eax,eax; jne +4 (never taken); add rax,rax; ret; [block: base 4 bytes, head 6]
  const auto make = [](std::uint64_t address, const std::string& block) {
    ElfFunction f;
    f.name = "g";
    f.address = address;
    f.bytes = std::string("\x85\xc0\x75\x04\x48\x01\xc0\xc3", 8) + block;
    f.size = f.bytes.size();
    return f;
  };
  const ElfFunction base = make(0x1000, std::string("\x48\xff\xc0\xc3", 4));
  const ElfFunction head = make(0x1000, std::string("\x48\x83\xc0\x02\x90\xc3", 6));
  const ExecutedInstructions run{{0x1000, 3}, {0x1002, 3}, {0x1004, 3}, {0x1007, 3}};
  const ElfFunctions none;
  EXPECT_FALSE(same_code(base, none, head, none));
  EXPECT_TRUE(same_executed_code(base, none, run, head, none, run));
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

// A switch's jump table (g++, position-independent: 32-bit distances from the table to the case
// labels). The function moved by 16 bytes and its table by 64, so every entry differs, yet each
// reaches the same label: the same code. An entry reaching another label is not.
TEST(ElfSymbols, AJumpTableWhoseEntriesReachTheSameLabelsIsTheSameCode) {
  const auto build = [](std::uint64_t at, std::uint64_t table, std::vector<std::uint64_t> labels) {
    ElfFunctions file;
    ElfFunction f;
    f.name = "dispatch(int)";
    f.address = at;
    // lea rdx, [rip + table]; then nops and a ret: 64 bytes.
    f.bytes =
        std::string("\x48\x8d\x15", 3) + std::string(4, '\0') + std::string(56, '\x90') + "\xc3";
    const auto rel = static_cast<std::int32_t>(table - (at + 7));
    std::memcpy(f.bytes.data() + 3, &rel, 4);
    f.size = f.bytes.size();
    std::string entries;
    for (std::uint64_t label : labels) {
      const auto e = static_cast<std::int32_t>(at + label - table);
      entries.append(reinterpret_cast<const char*>(&e), 4);
    }
    entries.append(8, '\0');  // what follows the table: zeros reach outside the function
    file.image = std::string(0x100, '\0') + entries;
    file.sections = {{".text", 0x1000, 0x100, 0, false},
                     {".rodata", table, entries.size(), 0x100, false}};
    file.functions = {f};
    file.starts[f.address] = f.name;
    return file;
  };
  const ElfFunctions base = build(0x1000, 0x5000, {16, 32, 48});
  const ElfFunctions head = build(0x1010, 0x5040, {16, 32, 48});
  EXPECT_TRUE(same_code(base.functions[0], base, head.functions[0], head));
  const ElfFunctions other = build(0x1010, 0x5040, {16, 40, 48});
  EXPECT_FALSE(same_code(base.functions[0], base, other.functions[0], other));
}

// A program of three functions laid out from 0x1000: `run()` calls `avx2()` (E8 rel32) and
// jumps to `avx512()` (E9 rel32), the path a CPU with AVX-512 takes and Valgrind's never does.
// `avx512_body` is that function's code: the PR changes it.
ElfFunctions dispatching_program(const std::string& avx512_body) {
  ElfFunctions p;
  const auto call = [](unsigned char op, std::uint64_t from, std::uint64_t to) {
    std::string b(1, static_cast<char>(op));
    const auto rel = static_cast<std::int32_t>(to - (from + 5));
    b.append(reinterpret_cast<const char*>(&rel), 4);
    return b;
  };
  ElfFunction run{"run()", 0x1000, 0, ""};
  run.bytes = call(0xE8, 0x1000, 0x1020) + call(0xE9, 0x1005, 0x1040) + "\xc3";
  run.size = run.bytes.size();
  ElfFunction avx2{"avx2()", 0x1020, 2, "\x90\xc3"};
  ElfFunction avx512{"avx512()", 0x1040, avx512_body.size(), avx512_body};
  p.functions = {run, avx2, avx512};
  for (const ElfFunction& f : p.functions) p.starts[f.address] = f.name;
  return p;
}

TEST(CodeEvidence, DirectCalleesAreTheFunctionsACallOrJumpReaches) {
  const ElfFunctions p = dispatching_program("\xc3");
  EXPECT_EQ(direct_callees(p.functions[0], p), (std::vector<std::string>{"avx2()", "avx512()"}));
  EXPECT_TRUE(direct_callees(p.functions[1], p).empty());
}

// On a machine with AVX-512, the counted run (Valgrind: AVX2) ran `run` and `avx2`; the PR
// changed `avx512`, which it never ran, and which `run` reaches: natively the benchmark may run
// the changed code, so the hot code, identical, cannot read its time as placement.
TEST(CodeEvidence, AChangedFunctionTheCountedRunCouldCallButDidNotIsNamed) {
  // vmovups zmm0, [rsp] (62 f1 7c 48 10 04 24) three times, then the part the PR changes.
  const std::string zmm = "\x62\xf1\x7c\x48\x10\x04\x24";
  const ElfFunctions base = dispatching_program(zmm + zmm + zmm + "\x48\x01\xc0\xc3");
  const ElfFunctions head = dispatching_program(zmm + zmm + zmm + "\x48\x83\xc0\x02\xc3");
  EXPECT_TRUE(has_avx512_code(base.functions[2]));
  const ElfFunctions plain_base = dispatching_program("\x48\x01\xc0\xc3");
  const ElfFunctions plain_head = dispatching_program("\x48\x83\xc0\x02\xc3");
  EXPECT_FALSE(has_avx512_code(base.functions[0]));
  FunctionProfile ran;
  ran.total = 100;
  ran.functions = {{"run()", 60, 100}, {"avx2()", 40, 40}};
  EXPECT_EQ(changed_callee_not_run(ran, ran, {&base}, {&head}), "`avx512()` (called from `run()`)");
  const CodeEvidence e =
      compare_hot_code("core", "BM_Union", ran, ran, {&base}, {&head}, {}, {}, true);
  EXPECT_EQ(e.unrun_changed, "`avx512()` (called from `run()`)");
  // Every hot function is identical: without the guard that would be placement or same work.
  for (const HotFunction& f : e.functions) EXPECT_TRUE(f.identical) << f.name;
  // A machine without AVX-512 (Valgrind runs what it runs): nothing to say.
  EXPECT_TRUE(
      compare_hot_code("core", "BM_Union", ran, ran, {&base}, {&head}).unrun_changed.empty());
  // The same callee on both sides: nothing to say either.
  EXPECT_EQ(changed_callee_not_run(ran, ran, {&base}, {&base}), "");
  // A changed callee without AVX-512 code: Valgrind runs whatever the CPU would pick, so a call
  // it did not take is not taken natively either.
  EXPECT_EQ(changed_callee_not_run(ran, ran, {&plain_base}, {&plain_head}), "");
  // A callee that ran is compared as hot code, not here.
  FunctionProfile all = ran;
  all.functions.push_back({"avx512()", 1, 1});
  EXPECT_EQ(changed_callee_not_run(all, all, {&base}, {&head}), "");
}

// Two builds of one function `code` (a RIP-relative operand whose rel32 is at `disp_at`, its
// instruction ending at `end`) at 0x1000 and 0x1010, each build with a data section whose
// bytes sit in the file image at 0x100. `target` is what each build's operand reaches.
struct DataBuilds {
  ElfFunctions base_file, head_file;
  ElfFunction base, head;
  DataBuilds(const std::string& code, std::size_t disp_at, std::size_t end,
             std::uint64_t base_target, std::uint64_t head_target) {
    base = make(code, 0x1000, disp_at, end, base_target);
    head = make(code, 0x1010, disp_at, end, head_target);
    for (ElfFunctions* f : {&base_file, &head_file}) {
      f->image = std::string(0x100, '\0') + "TABLE-0123456789abcdefghijklmnopqrstuvwxyz";
      f->sections = {{".text", 0x1000, 0x100, 0, false},
                     {".rodata", 0x5000, 42, 0x100, false},
                     {".bss", 0x6000, 64, 0, true}};
    }
  }
  static ElfFunction make(const std::string& code, std::uint64_t at, std::size_t disp_at,
                          std::size_t end, std::uint64_t target) {
    ElfFunction f;
    f.name = "f()";
    f.address = at;
    f.bytes = code;
    const auto rel = static_cast<std::int32_t>(target - (at + end));
    std::memcpy(f.bytes.data() + disp_at, &rel, 4);
    f.size = f.bytes.size();
    return f;
  }
  bool same() const { return same_code(base, base_file, head, head_file); }
};

const std::string kMovFromRip("\x48\x8b\x05\0\0\0\0\xc3", 8);  // mov rax, [rip+d]; ret
const std::string kCmpImmRip("\x83\x3d\0\0\0\0\x01\xc3", 8);   // cmp dword [rip+d], 1
const std::string kCallRel("\xe8\0\0\0\0\xc3", 6);             // call rel32; ret

// Relinking moves code against its data: a RIP-relative load of the same named object with
// the same bytes is the same code; another object, or the object's bytes changed, is not.
TEST(ElfSymbols, ARipRelativeReferenceToTheSameDataAtAnotherDistanceIsTheSameCode) {
  DataBuilds t(kMovFromRip, 3, 7, 0x5004, 0x5004);
  t.base_file.objects = t.head_file.objects = {{0x5000, {"g_table", 16}}};
  ASSERT_NE(t.base.bytes, t.head.bytes);  // the code moved by 0x10, the table did not
  EXPECT_TRUE(t.same());
  // The object moved in the PR's build (its bytes too): still the same reference.
  DataBuilds moved(kMovFromRip, 3, 7, 0x5004, 0x5014);
  moved.base_file.objects = {{0x5000, {"g_table", 16}}};
  moved.head_file.objects = {{0x5010, {"g_table", 16}}};
  moved.head_file.image.replace(0x110, 16, moved.base_file.image.substr(0x100, 16));
  EXPECT_TRUE(moved.same());
  // Another offset into it, another object, or its contents changed: changed code.
  DataBuilds offset(kMovFromRip, 3, 7, 0x5004, 0x5008);
  offset.base_file.objects = offset.head_file.objects = {{0x5000, {"g_table", 16}}};
  EXPECT_FALSE(offset.same());
  t.head_file.objects = {{0x5000, {"g_other", 16}}};
  EXPECT_FALSE(t.same());
  t.head_file.objects = t.base_file.objects;
  t.head_file.image[0x105] = 'X';
  EXPECT_FALSE(t.same());
}

TEST(ElfSymbols, UnnamedDataIsTheSameWhenItsSectionAndBytesAre) {
  // A string literal at another address in .rodata with the same 16 bytes: the same.
  DataBuilds literal(kMovFromRip, 3, 7, 0x5004, 0x5004);
  EXPECT_TRUE(literal.same());
  literal.head_file.image[0x10a] = 'X';
  EXPECT_FALSE(literal.same());
  // Zeros in .bss say nothing about what lies there: unnamed .bss is changed code.
  DataBuilds bss(kMovFromRip, 3, 7, 0x6000, 0x6000);
  EXPECT_FALSE(bss.same());
  // A named object in .bss is zeros in both files: the same object, the same bytes.
  DataBuilds counter(kMovFromRip, 3, 7, 0x6008, 0x6008);
  counter.base_file.objects = counter.head_file.objects = {{0x6000, {"g_counter", 16}}};
  EXPECT_TRUE(counter.same());
  // Outside every section: changed.
  DataBuilds nowhere(kMovFromRip, 3, 7, 0x9000, 0x9000);
  EXPECT_FALSE(nowhere.same());
}

// `cmp dword [rip+d], 1`: the displacement counts from the end of the immediate after it.
TEST(ElfSymbols, AnImmediateAfterTheRipOperandIsCountedInItsTarget) {
  DataBuilds t(kCmpImmRip, 2, 7, 0x5004, 0x5004);
  t.base_file.objects = t.head_file.objects = {{0x5000, {"g_flag", 8}}};
  EXPECT_TRUE(t.same());
  DataBuilds other(kCmpImmRip, 2, 7, 0x5004, 0x5000);
  other.base_file.objects = other.head_file.objects = {{0x5000, {"g_flag", 8}}};
  EXPECT_FALSE(other.same());
}

// A call through the PLT reaches the same imported function when both stubs' indirect jumps
// read GOT slots of the same symbol.
TEST(ElfSymbols, ACallThroughThePltToTheSameImportIsTheSameCode) {
  DataBuilds t(kCallRel, 1, 5, 0x7000, 0x7020);
  // endbr64; bnd jmp *[rip+d]: the slot is 0x8000 in the base, 0x8008 in the PR's build.
  const auto stub = [](std::uint64_t at, std::uint64_t slot) {
    std::string s("\xf3\x0f\x1e\xfa\xf2\xff\x25\0\0\0\0\x0f\x1f\x44\0\0", 16);
    const auto rel = static_cast<std::int32_t>(slot - (at + 11));
    std::memcpy(s.data() + 7, &rel, 4);
    return s;
  };
  for (ElfFunctions* f : {&t.base_file, &t.head_file}) {
    f->image.resize(0x200, '\0');
    f->sections.push_back({".plt.sec", 0x7000, 0x40, 0x180, false});
  }
  t.base_file.image.replace(0x180, 16, stub(0x7000, 0x8000));
  t.head_file.image.replace(0x1a0, 16, stub(0x7020, 0x8008));
  t.base_file.got_slots = {{0x8000, "puts"}};
  t.head_file.got_slots = {{0x8008, "puts"}};
  ASSERT_NE(t.base.bytes, t.head.bytes);
  EXPECT_TRUE(t.same());
  t.head_file.got_slots = {{0x8008, "putchar"}};
  EXPECT_FALSE(t.same());
}

// Real builds: the PR only grows a function linked before `hot`, which reads a global table,
// a string literal and calls an imported function. Its code moves against all three, and is
// read as the same code; a build whose `hot` reads another table is not.
TEST(ElfSymbols, RealRelinkedBuildsOfUnchangedCodeAreTheSameCode) {
  testing::TempDir dir;
  const auto source = [](int pad, const char* table) {
    std::string padding;
    for (int i = 0; i < pad; ++i) padding += "g_sink = g_sink * " + std::to_string(i + 3) + ";";
    return std::string(
               "#include <cstdio>\n#include <cstring>\nvolatile int g_sink;\n"
               "int g_table[64] = {1, 2, 3};\nint g_other[64] = {4, 5, 6};\n"
               "__attribute__((noinline)) void pad() { ") +
           padding +
           " }\n"
           "__attribute__((noinline)) int hot(int i) {\n"
           "  std::puts(\"hot path\");\n"
           "  return " +
           table +
           "[i & 63] + (int)std::strlen(\"a constant string\");\n}\n"
           "int main(int argc, char**) { pad(); return hot(argc); }\n";
  };
  const std::vector<std::pair<std::string, std::string>> builds = {{"base", source(1, "g_table")},
                                                                   {"moved", source(40, "g_table")},
                                                                   {"other", source(1, "g_other")}};
  for (const auto& [name, text] : builds) {
    testing::write_file(dir / (name + ".cpp"), text);
    const testing::CommandResult r =
        testing::run_command("c++ -O2 -o " + dir / name + " " + dir / (name + ".cpp"));
    ASSERT_EQ(r.exit_code, 0) << r.output;
  }
  const ElfFunctions base = read_elf_functions(dir / "base");
  const ElfFunctions moved = read_elf_functions(dir / "moved");
  const ElfFunctions other = read_elf_functions(dir / "other");
  const auto hot = [](const ElfFunctions& f) -> const ElfFunction& {
    for (const ElfFunction& fn : f.functions)
      if (fn.name == "hot(int)") return fn;
    throw std::runtime_error("no hot(int)");
  };
  ASSERT_NE(hot(base).address, hot(moved).address);  // the padding moved it
  ASSERT_NE(hot(base).bytes, hot(moved).bytes);      // and its relative references changed
  EXPECT_TRUE(same_code(hot(base), base, hot(moved), moved));
  EXPECT_FALSE(same_code(hot(base), base, hot(other), other));
}

// The PR grew the block the benchmark never runs past a short jump's reach, so the assembler
// encodes the same `je` near (0F 84 rel32, 6 bytes) instead of short (74 rel8, 2 bytes): the
// same instruction where the benchmark runs it, as in cctz's n_sec after its PR. A changed
// condition (jne) is not.
TEST(ElfSymbols, TheSameJumpEncodedNearOnceItsTargetMovedFarIsTheSameWhereItRuns) {
  // mov rax,rdi; test eax,eax; je <after>; block; add rax,rax; ret
  const auto make = [](std::uint64_t address, const std::string& je, std::size_t block) {
    ElfFunction f;
    f.name = "h";
    f.address = address;
    f.bytes = std::string("\x48\x89\xf8\x85\xc0", 5) + je + std::string(block, '\x90') +
              std::string("\x48\x01\xc0\xc3", 4);
    f.size = f.bytes.size();
    return f;
  };
  const auto run = [](const ElfFunction& f) {
    const std::uint64_t after = f.size - 4;
    return ExecutedInstructions{{f.address, 2},
                                {f.address + 3, 2},
                                {f.address + 5, 2},
                                {f.address + after, 2},
                                {f.address + after + 3, 2}};
  };
  const ElfFunction base = make(0x1000, std::string("\x74\x10", 2), 0x10);
  std::string near("\x0f\x84\0\0\0\0", 6);
  near[2] = '\x00';
  near[3] = '\x01';  // rel32 0x100
  const ElfFunction head = make(0x1400, near, 0x100);
  const ElfFunctions none;
  EXPECT_FALSE(same_code(base, none, head, none));
  EXPECT_TRUE(same_executed_code(base, none, run(base), head, none, run(head)));
  // The PR's jump tests another condition (jne, 0F 85): changed code.
  std::string other = near;
  other[1] = '\x85';
  const ElfFunction changed = make(0x1400, other, 0x100);
  EXPECT_FALSE(same_executed_code(base, none, run(base), changed, none, run(changed)));
  // Near but reaching another executed instruction (the ret, not the add): changed code.
  std::string shorter = near;
  shorter[2] = '\x03';
  const ElfFunction elsewhere = make(0x1400, shorter, 0x100);
  EXPECT_FALSE(same_executed_code(base, none, run(base), elsewhere, none, run(elsewhere)));
}

// What a PR's Callgrind output could claim, written inside the process its code runs in, and
// must not pass: the head's path follows from its bytes and the base's path, from the entry on.
TEST(ElfSymbols, AForgedPathThroughThePRsCodeIsNotTheSameWhereItRuns) {
  SkippedBlock t;
  // The PR puts a slow prologue (imul rax,rax,3 four times) in front of a copy of the base's
  // code, and its dump lists only the copy, each as often as the base's.
  ElfFunction slow = t.base;
  slow.address = 0x2000;
  std::string prologue;
  for (int i = 0; i < 4; ++i) prologue += std::string("\x48\x6b\xc0\x03", 4);
  slow.bytes = prologue + t.base.bytes;
  slow.size = slow.bytes.size();
  ExecutedInstructions copy;
  for (const auto& [address, n] : SkippedBlock::run(t.base))
    copy.emplace(address - t.base.address + slow.address + prologue.size(), n);
  EXPECT_FALSE(
      same_executed_code(t.base, t.base_file, SkippedBlock::run(t.base), slow, t.head_file, copy));

  // A function of these bytes at `address`, and a run of each of `offsets` once.
  const auto code_at = [](std::uint64_t address, const std::string& bytes) {
    ElfFunction f;
    f.name = "f";
    f.address = address;
    f.bytes = bytes;
    f.size = bytes.size();
    return f;
  };
  const auto once_at = [](const ElfFunction& f, std::initializer_list<std::uint64_t> offsets) {
    ExecutedInstructions run;
    for (std::uint64_t o : offsets) run.emplace(f.address + o, 1);
    return run;
  };
  // A jump table's jump (jmp *table(,%rax,8)) the benchmark runs: where it lands is in data.
  const std::string table("\x48\x89\xf8\xff\x24\xc5\x00\x10\x00\x00\x48\x01\xc0\xc3", 14);
  const ElfFunction jb = code_at(0x1000, table), jh = code_at(0x3000, table);
  EXPECT_FALSE(same_executed_code(jb, t.base_file, once_at(jb, {0, 3, 10, 13}), jh, t.head_file,
                                  once_at(jh, {0, 3, 10, 13})));

  // An instruction listed as run that nothing reaches: after an unconditional jump (EB) whose
  // target is the ret, the add is claimed run, on both sides.
  const std::string skip("\x48\x89\xf8\xeb\x03\x48\x01\xc0\xc3", 9);
  const ElfFunction sb = code_at(0x1000, skip), sh = code_at(0x3000, skip);
  EXPECT_FALSE(same_executed_code(sb, t.base_file, once_at(sb, {0, 3, 5, 8}), sh, t.head_file,
                                  once_at(sh, {0, 3, 5, 8})));
  // Without the claimed add, the path is whole: the same where it runs.
  EXPECT_TRUE(same_executed_code(sb, t.base_file, once_at(sb, {0, 3, 8}), sh, t.head_file,
                                 once_at(sh, {0, 3, 8})));
}

}  // namespace
}  // namespace benchpr::runner
