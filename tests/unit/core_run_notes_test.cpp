// The run-level notes in words: their order, the names kept apart as code, and the counts.
#include <gtest/gtest.h>

#include "benchpr/core/notes/run_notes.hpp"

namespace benchpr {
namespace {

RunRecord run(const std::string& suite, Side side, int leftover) {
  RunRecord r;
  r.suite = suite;
  r.side = side;
  r.leftover_processes = leftover;
  return r;
}

TEST(RunNotes, NoneForAFinishedQuietRun) {
  Results r;
  r.complete = true;
  EXPECT_TRUE(run_notes(r, 10, RunFacts{}).empty());
}

TEST(RunNotes, EachInItsOrder) {
  Results r;
  r.complete = false;
  r.config_changed_by_head = true;
  r.runs = {run("micro", Side::Head, 1)};
  RunFacts facts;
  facts.cold_left_out = 2;
  facts.cold_kept = 1;
  facts.too_small = {{"BM_Nop", 6.4e-7, "ns"}};
  const std::vector<Note> notes = run_notes(r, 4, facts);
  ASSERT_EQ(notes.size(), 6u);
  EXPECT_EQ(notes[0].plain(), "Round 1 looked cold for 2 benchmarks and was left out for them.");
  EXPECT_EQ(notes[1].plain(),
            "Round 1 looked cold for 1 benchmark but was kept: too few rounds to leave it out.");
  EXPECT_EQ(notes[2].kind, NoteKind::Partial);
  EXPECT_EQ(notes[3].kind, NoteKind::ConfigEdited);
  EXPECT_EQ(notes[4].plain(),
            "The PR runs of suite `micro` left 1 process running (in 1 of 1 runs); benchpr killed "
            "it after each run.");
  EXPECT_EQ(notes[5].kind, NoteKind::TooSmall);
  EXPECT_EQ(notes[5].plain(),
            "`BM_Nop` (6.4e-07 ns): too small to measure (below 1 ps), not compared; leave it out "
            "with a suite's `exclude:` in .benchpr.yml.");
}

// One note per suite and side, counting the runs that left processes among all of them.
TEST(RunNotes, LeftoverProcessesPerSuiteAndSide) {
  Results r;
  r.complete = true;
  r.runs = {run("micro", Side::Base, 0), run("micro", Side::Base, 2), run("micro", Side::Base, 1),
            run("macro", Side::Head, 0), run("micro", Side::Head, 0)};
  const std::vector<Note> notes = run_notes(r, 3, RunFacts{});
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_EQ(notes[0].plain(),
            "The base runs of suite `micro` left 3 processes running (in 2 of 3 runs); benchpr "
            "killed them after each run.");
  // The suite's name is code: the renderer escapes it.
  bool named_as_code = false;
  for (const TextPart& p : notes[0].parts) named_as_code |= p.code && p.text == "micro";
  EXPECT_TRUE(named_as_code);
}

TEST(RunNotes, FiveTooSmallNamedTheRestCounted) {
  Results r;
  r.complete = true;
  RunFacts facts;
  for (int i = 1; i <= 7; ++i) facts.too_small.push_back({"BM_" + std::to_string(i), 1e-4, "ns"});
  const std::vector<Note> notes = run_notes(r, 3, facts);
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_EQ(notes[0].plain(),
            "`BM_1` (0.0001 ns), `BM_2` (0.0001 ns), `BM_3` (0.0001 ns), `BM_4` (0.0001 ns), "
            "`BM_5` (0.0001 ns) and 2 more: too small to measure (below 1 ps), not compared; leave "
            "them out with "
            "a suite's `exclude:` in .benchpr.yml.");
}

}  // namespace
}  // namespace benchpr
