// Reading Callgrind's output format into per-function counts: hand-written files whose numbers
// are checked by hand, a real dump (Callgrind 3.19, Google Benchmark 1.7.1), and garbage.
#include <cstdint>
#include <map>
#include <random>
#include <string>

#include <gtest/gtest.h>

#include "benchpr/formats/callgrind_profile.hpp"
#include "support/temp_dir.hpp"

namespace benchpr::formats {
namespace {

const ProfiledFunction& function(const FunctionProfile& p, const std::string& name) {
  const ProfiledFunction* f = find_function(p, name);
  if (f == nullptr) {
    ADD_FAILURE() << "no function " << name;
    static const ProfiledFunction none;
    return none;
  }
  return *f;
}

double call(const FunctionProfile& p, const std::string& caller, const std::string& callee) {
  for (const ProfiledCall& c : p.calls)
    if (c.caller == caller && c.callee == callee) return c.inclusive;
  return -1;
}

// main (self 3+1) calls parse (inclusive 150) twice from two lines and helper once (20);
// parse (self 100 + 10, relative positions) calls helper (40); helper's self is 20 + 40 = 60
// over its two callers. Names compressed; events Ir and Dr, Ir first.
constexpr std::string_view kHandWritten = R"(# callgrind format
version: 1
creator: callgrind-3.19.0
positions: line
events: Ir Dr
summary: 174

ob=(1) /tmp/b
fl=(1) b.cpp
fn=(1) main
10 3 7
cfl=(1)
cfn=(2) Parser::next_token()
calls=1 20
11 90 5
cfn=(2)
calls=1 20
12 60
cfn=(3) helper(int)
calls=1 30
13 20
+1 1

fn=(2)
20 100 1
+1 10
cfn=(3)
calls=2 30
* 40

fn=(3)
30 20
fi=(2) inl.h
31 40
fe=(1)
)";

TEST(CallgrindProfile, SelfInclusiveAndCallsOfAHandWrittenFile) {
  const CallgrindProfileReading r = read_callgrind_profile(kHandWritten);
  ASSERT_FALSE(r.problem) << *r.problem;
  const FunctionProfile& p = r.profile;
  EXPECT_EQ(p.functions.size(), 3u);
  EXPECT_EQ(p.total, 4 + 110 + 60);
  EXPECT_EQ(function(p, "main").self, 4);
  EXPECT_EQ(function(p, "main").inclusive, 4 + 150 + 20);
  EXPECT_EQ(function(p, "Parser::next_token()").self, 110);
  EXPECT_EQ(function(p, "Parser::next_token()").inclusive, 150);
  // Code inlined from another file (fi=) stays the function's own.
  EXPECT_EQ(function(p, "helper(int)").self, 60);
  EXPECT_EQ(function(p, "helper(int)").inclusive, 60);
  EXPECT_EQ(call(p, "main", "Parser::next_token()"), 150);
  EXPECT_EQ(call(p, "main", "helper(int)"), 20);
  EXPECT_EQ(call(p, "Parser::next_token()", "helper(int)"), 40);
  EXPECT_EQ(p.calls.size(), 3u);
}

TEST(CallgrindProfile, PicksIrAmongSeveralEventsAndPositions) {
  const CallgrindProfileReading r =
      read_callgrind_profile("positions: instr line\nevents: Dr Ir\nfn=f\n0x10 3 5 7\n+2 * 1 2\n");
  ASSERT_FALSE(r.problem) << *r.problem;
  EXPECT_EQ(function(r.profile, "f").self, 7 + 2);
}

TEST(CallgrindProfile, RecursionIsNotCountedTwice) {
  const CallgrindProfileReading r =
      read_callgrind_profile("fn=(1) fib\n1 10\ncfn=(1)\ncalls=4 1\n1 30\n");
  ASSERT_FALSE(r.problem) << *r.problem;
  EXPECT_EQ(function(r.profile, "fib").self, 10);
  EXPECT_EQ(function(r.profile, "fib").inclusive, 10);
  EXPECT_EQ(call(r.profile, "fib", "fib"), 30);
}

TEST(CallgrindProfile, UnnamedFunctionsCarryTheirObject) {
  const CallgrindProfileReading r = read_callgrind_profile(
      "ob=(1) /usr/lib/libbenchmark.so.1\nfn=(1) 0x16410\n0 1\ncob=(2) /tmp/b\ncfn=(2) 0x16410\n"
      "calls=1 0\n0 5\nob=(2)\nfn=(2)\n0 5\n");
  ASSERT_FALSE(r.problem) << *r.problem;
  EXPECT_EQ(function(r.profile, "0x16410 [libbenchmark.so.1]").self, 1);
  EXPECT_EQ(function(r.profile, "0x16410 [b]").self, 5);
  EXPECT_EQ(call(r.profile, "0x16410 [libbenchmark.so.1]", "0x16410 [b]"), 5);
}

TEST(CallgrindProfile, ARealDumpAddsUpToItsSummary) {
  const std::string text =
      testing::read_file(std::string(BENCHPR_TEST_DATA_DIR) + "/callgrind/finish_dump.txt");
  const CallgrindProfileReading r = read_callgrind_profile(text);
  ASSERT_FALSE(r.problem) << *r.problem;
  EXPECT_EQ(r.profile.total, 16812);  // "summary: 16812", not the sum of self counts (16819)
  // Callgrind's own demangling, kept as written.
  EXPECT_GT(function(r.profile, "operator new(unsigned long)").inclusive, 0);
  EXPECT_EQ(function(r.profile, "BM_Vec(benchmark::State&)").inclusive, 16812);
  EXPECT_EQ(function(r.profile, "__memset_avx2_unaligned_erms").self, 16396);
}

TEST(CallgrindProfile, ARealCacheSimulationDumpCountsItsInstructions) {
  // --cache-sim=yes: nine events per cost line, Ir first of them; the profile is of Ir alone.
  const std::string text =
      testing::read_file(std::string(BENCHPR_TEST_DATA_DIR) + "/callgrind/cache_sim_dump.txt");
  const CallgrindProfileReading r = read_callgrind_profile(text);
  ASSERT_FALSE(r.problem) << *r.problem;
  EXPECT_EQ(r.profile.total, 28686);  // "summary: 28686 4097 1 2 4097 1"
}

TEST(CallgrindProfile, NamesTheLineOfAProblem) {
  EXPECT_EQ(*read_callgrind_profile("fn=f\n1 x\n").problem, "line 2: a malformed cost");
  EXPECT_EQ(*read_callgrind_profile("1 2\n").problem, "line 1: a cost outside a function (fn=)");
  EXPECT_EQ(*read_callgrind_profile("fn=(3)\n").problem,
            "line 1: fn=(3) refers to a function never named");
  EXPECT_EQ(*read_callgrind_profile("events: Dr\n").problem,
            "line 1: no Ir (instructions) among the events");
  EXPECT_EQ(*read_callgrind_profile("fn=f\ncalls=1 2\n").problem,
            "line 2: calls= without a called function (cfn=)");
  EXPECT_EQ(*read_callgrind_profile("fn=(99999999999999999999999) f\n").problem,
            "line 1: a malformed fn= name");
}

// Garbage, and real files cut and mutated at random: a problem or a profile, never a crash, and
// never a negative or non-finite count.
TEST(CallgrindProfile, SurvivesGarbage) {
  std::mt19937 rng(29);
  const std::string real =
      testing::read_file(std::string(BENCHPR_TEST_DATA_DIR) + "/callgrind/finish_dump.txt");
  const std::string seeds[] = {std::string(kHandWritten), real};
  const std::string alphabet = "0123456789+-*()=:# \n\tfncobflcalsx\xff";
  for (int i = 0; i < 3000; ++i) {
    std::string text = seeds[i % 2];
    text.resize(std::uniform_int_distribution<std::size_t>(0, text.size())(rng));
    const int edits = std::uniform_int_distribution<int>(0, 20)(rng);
    for (int e = 0; e < edits && !text.empty(); ++e) {
      const std::size_t at = std::uniform_int_distribution<std::size_t>(0, text.size() - 1)(rng);
      text[at] = alphabet[std::uniform_int_distribution<std::size_t>(0, alphabet.size() - 1)(rng)];
    }
    if (i % 7 == 0) {  // pure noise
      text.assign(std::uniform_int_distribution<std::size_t>(0, 4096)(rng), '\0');
      for (char& c : text) c = static_cast<char>(rng());
    }
    const CallgrindProfileReading r = read_callgrind_profile(text);
    if (r.problem) continue;
    for (const ProfiledFunction& f : r.profile.functions) {
      ASSERT_GE(f.self, 0);
      ASSERT_GE(f.inclusive, f.self);
      ASSERT_TRUE(std::isfinite(f.inclusive));
    }
  }
}

// With --dump-instr=yes: g (0x11a0) calls f at its first instruction, the call's target given
// relative to it (-48: 0x1170) and its inclusive cost at the same address ("*"); the next
// instructions relative to the last cost line, the call target not counted as one. Each
// function's executed instructions by address, with their own Ir (a call's inclusive cost is
// the callee's, not the instruction's).
constexpr std::string_view kByInstruction = R"(version: 1
positions: instr
events: Ir
summary: 420

ob=(1) /tmp/t
fn=(1) g
0x11a0 1
cfn=(2) f
calls=1 -48
* 400
+5 1
+3 1

fn=(2)
0x1170 2
+2 200
-2 10
)";

TEST(CallgrindProfile, ExecutedInstructionsByAddressWithInstructionPositions) {
  const CallgrindProfileReading r = read_callgrind_profile(kByInstruction);
  ASSERT_FALSE(r.problem) << *r.problem;
  ASSERT_EQ(r.executed.count("g"), 1u);
  const std::map<std::uint64_t, double> g{{0x11a0, 1}, {0x11a5, 1}, {0x11a8, 1}};
  EXPECT_EQ(r.executed.at("g"), g);
  const std::map<std::uint64_t, double> f{{0x1170, 12}, {0x1172, 200}};
  EXPECT_EQ(r.executed.at("f"), f);
  EXPECT_DOUBLE_EQ(function(r.profile, "g").self, 3);
  EXPECT_DOUBLE_EQ(function(r.profile, "f").self, 212);
  // Line positions have no addresses.
  EXPECT_TRUE(read_callgrind_profile(kHandWritten).executed.empty());
}

}  // namespace
}  // namespace benchpr::formats
