// What the comment says beside its tables: its notes in order (without those it states
// elsewhere), the cold round named per benchmark, too few rounds, the instruction counts' note,
// and what a suite's mean summarises, on hand-checked numbers.
#include <gtest/gtest.h>

#include <cmath>

#include "benchpr/core/notes/comment_notes.hpp"

namespace benchpr {
namespace {

BenchmarkAnalysis bench(const std::string& suite, const std::string& name, double change,
                        Verdict verdict) {
  BenchmarkAnalysis b;
  b.suite = suite;
  b.name = name;
  b.change = change;
  b.verdict = verdict;
  return b;
}

TEST(CommentNotes, NoneForAFinishedRunWithEnoughRounds) {
  Results r;
  r.complete = true;
  Analysis a;
  a.analysed_rounds = 10;
  EXPECT_TRUE(comment_notes(r, a).empty());
  EXPECT_FALSE(too_few_rounds_note(r, a));
  EXPECT_FALSE(cold_rounds_note(a));
  EXPECT_FALSE(instructions_note(r, a));
}

TEST(CommentNotes, TooFewRoundsNamesTheSettingAsCode) {
  Results r;
  Analysis a;
  a.analysed_rounds = 2;
  const std::optional<Note> note = too_few_rounds_note(r, a);
  ASSERT_TRUE(note);
  EXPECT_EQ(note->kind, NoteKind::TooFewRounds);
  EXPECT_EQ(note->plain(),
            "With 2 analysed rounds no benchmark can be called faster, slower or unchanged: the "
            "paired analysis needs at least 4 rounds (set `rounds: 4` or more in `.benchpr.yml`, "
            "or `--rounds`).");
  ASSERT_EQ(note->parts.size(), 7u);
  EXPECT_TRUE(note->parts[1].code);
  EXPECT_EQ(note->parts[1].text, "rounds: 4");

  a.analysed_rounds = 1;
  r.origin = Origin::ResultFiles;
  EXPECT_EQ(too_few_rounds_note(r, a)->plain(),
            "With 1 run per side no benchmark can be called faster, slower or unchanged: the "
            "paired analysis needs at least 4 processes per side, and a results file is one "
            "process (give 4 or more files per side; hyperfine keeps each run of a command, each "
            "a process).");

  a.analysed_rounds = 0;  // nothing ran: the headline says so
  EXPECT_FALSE(too_few_rounds_note(r, a));
  a.analysed_rounds = kMinDecidingRounds;
  EXPECT_FALSE(too_few_rounds_note(r, a));
}

TEST(CommentNotes, ColdRoundNamesWhereItWasLeftOutAndWhereKept) {
  Analysis a;
  for (const char* name : {"BM_A", "BM_B"}) {
    a.benchmarks.push_back(bench("s", name, 0.01, Verdict::Unchanged));
    a.benchmarks.back().dropped_round = 1;
  }
  a.benchmarks.push_back(bench("s", "BM_C", 0.01, Verdict::Unchanged));
  a.benchmarks.back().flags = {BenchmarkFlag::ColdRound};
  a.benchmarks.push_back(bench("s", "BM_D", 0.01, Verdict::Unchanged));  // not cold
  const std::optional<Note> note = cold_rounds_note(a);
  ASSERT_TRUE(note);
  EXPECT_EQ(note->kind, NoteKind::ColdRounds);
  EXPECT_EQ(note->plain(),
            "Round 1 looked cold (both sides' times far from the later rounds', as while caches "
            "and CPU frequency settle) for `BM_A` and `BM_B`: left out of their analysis; also for "
            "`BM_C`, but kept there: too few rounds to leave one out.");

  a.benchmarks.resize(1);
  EXPECT_EQ(cold_rounds_note(a)->plain(),
            "Round 1 looked cold (both sides' times far from the later rounds', as while caches "
            "and CPU frequency settle) for `BM_A`: left out of its analysis.");
}

TEST(CommentNotes, ColdRoundNamesFiveThenCounts) {
  Analysis a;
  for (int i = 1; i <= 7; ++i) {
    a.benchmarks.push_back(bench("s", "B" + std::to_string(i), 0.01, Verdict::Unchanged));
    a.benchmarks.back().flags = {BenchmarkFlag::ColdRound};
  }
  EXPECT_EQ(cold_rounds_note(a)->plain(),
            "Round 1 looked cold (both sides' times far from the later rounds', as while caches "
            "and CPU frequency settle) for `B1`, `B2`, `B3`, `B4`, `B5` and 2 more, but kept "
            "there: too few rounds to leave one out.");
}

TEST(CommentNotes, LeavesOutWhatTheCommentStatesElsewhere) {
  Results r;
  r.complete = false;
  r.config_changed_by_head = true;
  Analysis a;
  a.analysed_rounds = 6;
  a.notes = {Note(NoteKind::ColdRounds, "cold counts"), Note(NoteKind::Partial, "partial"),
             Note("other"), Note(NoteKind::ConfigEdited, "edited")};
  a.benchmarks.push_back(bench("s", "BM_A", 0.01, Verdict::Unchanged));
  a.benchmarks.back().dropped_round = 1;
  std::vector<Note> notes = comment_notes(r, a);
  ASSERT_EQ(notes.size(), 2u);
  EXPECT_EQ(notes[0].plain(), "other");
  EXPECT_EQ(notes[1].kind, NoteKind::ColdRounds);

  // A complete run with the base's configuration states neither elsewhere: the notes stay.
  r.complete = true;
  r.config_changed_by_head = false;
  a.analysed_rounds = 2;
  notes = comment_notes(r, a);
  ASSERT_EQ(notes.size(), 5u);
  EXPECT_EQ(notes[0].kind, NoteKind::TooFewRounds);  // first
  EXPECT_EQ(notes[1].plain(), "partial");
  EXPECT_EQ(notes[2].plain(), "other");
  EXPECT_EQ(notes[3].plain(), "edited");
  EXPECT_EQ(notes[4].kind, NoteKind::ColdRounds);
}

Results counted_results() {
  Results r;
  SuiteConfig s;
  s.name = "micro";
  s.format = FormatKind::GoogleBenchmark;
  s.instructions = true;
  r.config.suites = {s};
  r.config.instruction_threshold = 0.005;
  r.machine.cores = 4;
  RunRecord run;
  run.suite = "micro (instructions)";
  run.started = 10;
  run.seconds = 2;
  r.runs.push_back(run);
  run.started = 11;
  run.seconds = 3.5;  // ends last, at 14.5
  r.runs.push_back(run);
  run.suite = "micro";  // a timed run: not the counts'
  run.started = 0;
  run.seconds = 100;
  r.runs.push_back(run);
  return r;
}

TEST(CommentNotes, InstructionsNoteCountsTheBenchmarksAndTheTime) {
  const Results r = counted_results();
  Analysis a;
  a.benchmarks.push_back(bench("micro (instructions)", "BM_A", 0.01, Verdict::Unchanged));
  a.benchmarks.back().metric = "instructions";
  a.benchmarks.push_back(bench("micro", "BM_A", 0.01, Verdict::Unchanged));  // time
  const std::optional<Note> note = instructions_note(r, a);
  ASSERT_TRUE(note);
  ASSERT_EQ(note->parts.size(), 1u);
  // 1 counted benchmark; the counting runs from 10 s to 14.5 s.
  EXPECT_EQ(note->plain(),
            "Instructions: counted per iteration of the benchmark's loop by Callgrind (Valgrind), "
            "a suite's benchmarks sharing one process per core on each side (1 benchmark counted "
            "in 4.5s on 4 cores), run at one iteration per repetition and at many, the difference "
            "divided by the difference in iterations, so what a repetition does once is not "
            "counted as an iteration. Counts are exact, so a change of ±0.5% or more is reported "
            "without rounds or confidence intervals. They do not see time spent waiting (sleep, "
            "I/O, locks), in the kernel (system calls), on cache misses or branch "
            "mispredictions, or at another clock frequency: such changes show in time only.");
}

TEST(CommentNotes, InstructionsNoteSaysHowToTurnDefaultCountsOff) {
  Results r = counted_results();
  r.config.suites.front().instructions = false;
  r.config.instructions = InstructionCounting::ByDefault;
  r.machine.cores = 1;  // one core: not named
  const std::optional<Note> note = instructions_note(r, Analysis{});
  ASSERT_TRUE(note);
  ASSERT_EQ(note->parts.size(), 3u);
  EXPECT_EQ(note->parts[0].text, "Instructions (on by default wherever Valgrind is installed; ");
  EXPECT_TRUE(note->parts[1].code);
  EXPECT_EQ(note->parts[1].text, "instructions: false");
  EXPECT_EQ(note->parts[2].text.rfind(" in .benchpr.yml turns them off): counted per iteration", 0),
            0u);
  EXPECT_NE(note->plain().find("(0 benchmarks counted in 4.5s),"), std::string::npos);
}

TEST(CommentNotes, SuiteMeanCountsItsMembersByVerdict) {
  Analysis a;
  a.benchmarks = {bench("s", "a", 0.01, Verdict::Inconclusive),
                  bench("s", "b", -0.02, Verdict::Inconclusive),
                  bench("s", "c", 0.05, Verdict::Regression),
                  bench("s", "gone", kMissing, Verdict::Removed),  // no change: not a member
                  bench("t", "d", 0.5, Verdict::Regression)};      // another suite
  SuiteSummary s;
  s.suite = "s";
  s.change = 0.013;  // below the 2% threshold: no benchmark is said to carry it
  const SuiteMeanReading reading = read_suite_mean(a, s, 0.02);
  EXPECT_EQ(reading.verdicts,
            (std::map<Verdict, int>{{Verdict::Regression, 1}, {Verdict::Inconclusive, 2}}));
  EXPECT_FALSE(reading.driver);
}

TEST(CommentNotes, SuiteMeanNamesTheBenchmarkThatCarriesIt) {
  Analysis a;
  // Worse-direction logs: ln 2 = 0.693, ln 1.01 = 0.00995, and for a higher-is-better
  // benchmark 1.02 -> -ln 1.02 = -0.0198. Total |log| 0.723; 0.693 is more than half.
  a.benchmarks = {bench("s", "big", 1.0, Verdict::Regression),
                  bench("s", "small", 0.01, Verdict::Unchanged),
                  bench("s", "tput", 0.02, Verdict::Unchanged)};
  a.benchmarks[2].better = Better::Higher;
  SuiteSummary s;
  s.suite = "s";
  s.change = 0.25;
  const SuiteMeanReading reading = read_suite_mean(a, s, 0.02);
  ASSERT_TRUE(reading.driver);
  EXPECT_EQ(*reading.driver, "big");
  // The others' geometric mean: exp((ln 1.01 - ln 1.02) / 2) - 1 = sqrt(1.01 / 1.02) - 1.
  EXPECT_NEAR(reading.without_driver, std::sqrt(1.01 / 1.02) - 1, 1e-12);
  EXPECT_NEAR(reading.without_driver, -0.004914, 1e-6);

  // No one benchmark carries more than half: none named.
  a.benchmarks[1].change = 1.0;
  EXPECT_FALSE(read_suite_mean(a, s, 0.02).driver);
  // One member only: its row says it all.
  a.benchmarks.resize(1);
  EXPECT_FALSE(read_suite_mean(a, s, 0.02).driver);
}

}  // namespace
}  // namespace benchpr
