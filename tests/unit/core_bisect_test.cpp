// The search for the commit behind a change: which comparison it measures next along the chain,
// and how the measured steps are attributed. Hand-checked numbers: a +10% step and a −20% step
// multiply to 1.10 × 0.80 = 0.88 (−12%), their shares of log(0.88) are log(1.1)/log(0.88) =
// −0.7456 and log(0.8)/log(0.88) = 1.7456.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <string>

#include <fmt/format.h>

#include "benchpr/core/bisect/bisect.hpp"
#include "benchpr/core/results_file/bisect_json.hpp"
#include "benchpr/core/results_file/results_json.hpp"

namespace benchpr {
namespace {

// Commits 0..n with SHAs "a000000…", "a100000…" and subjects "commit i".
Bisection chain(int n, BisectMethod method) {
  Bisection b;
  b.method = method;
  for (int i = 0; i <= n; ++i)
    b.commits.push_back(
        {fmt::format("a{:x}{}", i, std::string(38, '0')), fmt::format("commit {}", i), false, ""});
  return b;
}

BisectTarget target(double change, bool is_exact = false) {
  BisectTarget t;
  t.suite = "micro";
  t.name = "BM_Work";
  t.change = change;
  t.threshold = is_exact ? 0.005 : 0.02;
  t.exact = is_exact;
  return t;
}

BisectPair timed(int from, int to, double change, double low, double high) {
  BisectPair p;
  p.from = from;
  p.to = to;
  BisectValue v;
  v.suite = "micro";
  v.name = "BM_Work";
  v.change = change;
  v.ci_low = low;
  v.ci_high = high;
  v.rounds = 10;
  p.values.push_back(v);
  return p;
}

BisectPair counted(int from, int to, double from_count, double to_count) {
  BisectPair p;
  p.from = from;
  p.to = to;
  BisectValue v;
  v.suite = "micro";
  v.name = "BM_Work";
  v.from_value = from_count;
  v.to_value = to_count;
  v.change = to_count / from_count - 1;
  p.values.push_back(v);
  return p;
}

std::string probe_text(const std::optional<BisectProbe>& p) {
  return p ? fmt::format("{}-{}", p->from, p->to) : "none";
}

// The testbed of the brief: +10% in commit 3, −20% in commit 5, commit 2 does not build.
TEST(Bisect, ShortChainWalksEveryCommitStepsOverTheUnbuiltOneAndNamesBothSteps) {
  Bisection b = chain(5, BisectMethod::Time);
  b.targets.push_back(target(-0.12));
  b.pairs.push_back(timed(0, 5, -0.12, -0.14, -0.10));  // the main comparison
  EXPECT_EQ(probe_text(next_probe(b)), "0-1");
  EXPECT_EQ(probes_left_estimate(b), 5);
  b.pairs.push_back(timed(0, 1, 0.002, -0.01, 0.014));
  EXPECT_EQ(probe_text(next_probe(b)), "1-2");
  BisectPair unbuilt;
  unbuilt.from = 1;
  unbuilt.to = 2;
  unbuilt.failure = "commit 2 did not build";
  b.pairs.push_back(unbuilt);
  b.commits[2].skipped = true;
  b.commits[2].skip_reason = "exit code 1";
  EXPECT_EQ(probe_text(next_probe(b)), "1-3");
  EXPECT_EQ(probes_left_estimate(b), 3);
  b.pairs.push_back(timed(1, 3, 0.10, 0.08, 0.12));
  EXPECT_EQ(probe_text(next_probe(b)), "3-4");
  b.pairs.push_back(timed(3, 4, 0.001, -0.01, 0.012));
  EXPECT_EQ(probe_text(next_probe(b)), "4-5");
  b.pairs.push_back(timed(4, 5, -0.20, -0.22, -0.18));
  EXPECT_EQ(probe_text(next_probe(b)), "none");
  b.complete = true;
  b.seconds = 200;
  b.budget_seconds = 600;

  const BisectReport r = attribute(b);
  ASSERT_EQ(r.findings.size(), 1u);
  const BisectFinding& f = r.findings[0];
  ASSERT_EQ(f.steps.size(), 2u);
  EXPECT_EQ(f.steps[0].from, 1);
  EXPECT_EQ(f.steps[0].to, 3);
  EXPECT_NEAR(f.steps[0].share, -0.7456, 1e-4);
  EXPECT_EQ(f.steps[1].from, 4);
  EXPECT_EQ(f.steps[1].to, 5);
  EXPECT_NEAR(f.steps[1].share, 1.7456, 1e-4);
  EXPECT_NEAR(f.rest, 0.0, 1e-12);
  EXPECT_TRUE(f.settled);
  EXPECT_EQ(plain_text(f.line),
            "came with `a200000 commit 2` or `a300000 commit 3` (+10.0%; `a200000` did not "
            "build) and `a500000 commit 5` (−20.0%)");
  EXPECT_EQ(r.skipped, std::vector<int>{2});
  EXPECT_TRUE(r.not_covered.empty());
  EXPECT_EQ(plain_text(r.summary),
            "Searched the pull request's 5 commits for the step behind its change by interleaved "
            "rounds: 5 comparisons in 3m20s of the 10m left. Did not build, stepped over: "
            "`a200000 commit 2`.");
  using State = BisectCell::State;
  EXPECT_EQ(f.cells[1].state, State::Measured);
  EXPECT_FALSE(f.cells[1].named);
  EXPECT_EQ(f.cells[2].state, State::Skipped);
  EXPECT_EQ(f.cells[3].state, State::Measured);
  EXPECT_EQ(f.cells[3].since, 1);
  EXPECT_TRUE(f.cells[3].named);
  EXPECT_TRUE(f.cells[5].named);
}

TEST(Bisect, AChangeThatComesAndGoesIsReportedAsARevertPair) {
  Bisection b = chain(4, BisectMethod::Time);
  const double total = 1.10 * 1.001 * 0.905 * 1.05 - 1;  // +4.63%
  b.targets.push_back(target(total));
  b.pairs.push_back(timed(0, 4, total, 0.03, 0.06));
  b.pairs.push_back(timed(0, 1, 0.10, 0.08, 0.12));
  b.pairs.push_back(timed(1, 2, 0.001, -0.01, 0.012));
  b.pairs.push_back(timed(2, 3, -0.095, -0.11, -0.08));  // 1.10 × 0.905 = 0.9955: back within 2%
  b.pairs.push_back(timed(3, 4, 0.05, 0.03, 0.07));
  EXPECT_EQ(probe_text(next_probe(b)), "none");
  const BisectFinding f = attribute(b).findings.at(0);
  ASSERT_EQ(f.steps.size(), 3u);
  EXPECT_EQ(f.steps[0].reverted_by, 1);
  EXPECT_EQ(f.steps[1].reverts, 0);
  EXPECT_EQ(f.steps[2].reverted_by, -1);
  EXPECT_EQ(plain_text(f.line),
            "came with `a400000 commit 4` (+5.0%); also came and went: `a100000 commit 1` "
            "(+10.0%), undone by `a300000 commit 3` (−9.5%)");
}

TEST(Bisect, AChangeSpreadOverTheCommitsIsNotSettled) {
  Bisection b = chain(3, BisectMethod::Time);
  b.targets.push_back(target(0.06));
  b.pairs.push_back(timed(0, 3, 0.06, 0.04, 0.08));
  for (int i = 0; i < 3; ++i) b.pairs.push_back(timed(i, i + 1, 0.02, -0.01, 0.05));
  const BisectFinding f = attribute(b).findings.at(0);
  EXPECT_TRUE(f.steps.empty());
  EXPECT_FALSE(f.settled);
  EXPECT_EQ(plain_text(f.line), "not settled: no single commit shows the change");
}

// 1.12 / 1.09 = 1.0275: a +2.8% the named step does not carry, beyond the 2% threshold.
TEST(Bisect, WhatTheStepsDoNotCarryIsSaid) {
  Bisection b = chain(2, BisectMethod::Time);
  b.targets.push_back(target(0.12));
  b.pairs.push_back(timed(0, 2, 0.12, 0.10, 0.14));
  b.pairs.push_back(timed(0, 1, 0.02, -0.01, 0.05));
  b.pairs.push_back(timed(1, 2, 0.09, 0.07, 0.11));
  const BisectFinding f = attribute(b).findings.at(0);
  EXPECT_NEAR(f.rest, 1.12 / 1.09 - 1, 1e-12);
  EXPECT_EQ(plain_text(f.line),
            "came with `a200000 commit 2` (+9.0%); no single commit shows the rest (+2.8%)");
}

// A commit that changed nothing (notes only) has its 95% interval leave out 0 about once in twenty
// comparisons; a step is named only from half the threshold on, so +0.6% (0.1 … 1.1%) beside the
// +10% step is not named, while +1.5% with the same certainty is.
TEST(Bisect, ATimeStepBelowHalfTheThresholdIsNotNamedWhateverItsInterval) {
  Bisection b = chain(2, BisectMethod::Time);
  b.targets.push_back(target(0.106));
  b.pairs.push_back(timed(0, 2, 0.106, 0.09, 0.12));
  b.pairs.push_back(timed(0, 1, 0.006, 0.001, 0.011));
  b.pairs.push_back(timed(1, 2, 0.10, 0.08, 0.12));
  BisectFinding f = attribute(b).findings.at(0);
  ASSERT_EQ(f.steps.size(), 1u);
  EXPECT_EQ(plain_text(f.line), "came with `a200000 commit 2` (+10.0%)");

  b.pairs[1] = timed(0, 1, 0.015, 0.005, 0.025);
  f = attribute(b).findings.at(0);
  ASSERT_EQ(f.steps.size(), 2u);
  EXPECT_EQ(f.steps[0].to, 1);
}

TEST(Bisect, WhatTheBudgetLeftUnmeasuredIsNamed) {
  Bisection b = chain(3, BisectMethod::Time);
  b.targets.push_back(target(0.10));
  b.pairs.push_back(timed(0, 3, 0.10, 0.08, 0.12));
  b.pairs.push_back(timed(0, 1, 0.001, -0.01, 0.012));
  b.stop = {StopKind::BudgetSpent, 0, {}};
  const BisectReport r = attribute(b);
  const BisectFinding& f = r.findings.at(0);
  EXPECT_EQ(plain_text(f.line),
            "not measured between `a100000 commit 1` and `a300000 commit 3` (the budget ran out)");
  ASSERT_EQ(r.not_covered.size(), 1u);
  EXPECT_EQ(r.not_covered[0].from, 1);
  EXPECT_EQ(r.not_covered[0].to, 3);
  EXPECT_NE(plain_text(r.summary).find("Stopped early: the budget was spent."), std::string::npos);
  EXPECT_EQ(f.cells[2].state, BisectCell::State::NotMeasured);
}

TEST(Bisect, NoBudgetLeftNothingMeasuredAndSaidSo) {
  Bisection b = chain(4, BisectMethod::Time);
  b.targets.push_back(target(0.10));
  b.pairs.push_back(timed(0, 4, 0.10, 0.08, 0.12));
  b.stop = {StopKind::BudgetSpent, 0, "0s left, a comparison takes about 20s"};
  const BisectReport r = attribute(b);
  EXPECT_EQ(plain_text(r.findings.at(0).line),
            "not measured between `a000000 commit 0` and `a400000 commit 4` (the budget ran out)");
  EXPECT_EQ(plain_text(r.summary),
            "Searched the pull request's 4 commits for the step behind its change by interleaved "
            "rounds: 0 comparisons in 0ms. Stopped early: the budget was spent (0s left, a "
            "comparison takes about 20s).");
}

// Runs the planner against exact counts given per commit, as the runner would.
int search(Bisection& b, const std::function<double(int)>& count) {
  const int n = static_cast<int>(b.commits.size()) - 1;
  b.pairs.push_back(counted(0, n, count(0), count(n)));
  int probes = 0;
  while (const auto p = next_probe(b)) {
    b.pairs.push_back(counted(p->from, p->to, count(p->from), count(p->to)));
    if (++probes > 100) break;
  }
  return probes;
}

TEST(Bisect, ExactCountsOfALongChainAreBinarySearched) {
  Bisection b = chain(16, BisectMethod::Instructions);
  b.targets.push_back(target(0.10, true));
  const int probes = search(b, [](int c) { return c >= 7 ? 1100.0 : 1000.0; });
  EXPECT_EQ(probes, 4);  // 0-8, 0-4, 4-6, 6-7: log2(16)
  const BisectFinding f = attribute(b).findings.at(0);
  ASSERT_EQ(f.steps.size(), 1u);
  EXPECT_EQ(f.steps[0].from, 6);
  EXPECT_EQ(f.steps[0].to, 7);
  EXPECT_NEAR(f.steps[0].share, 1.0, 1e-12);
  EXPECT_EQ(plain_text(f.line), "came with `a700000 commit 7` (+10.0%)");
}

// By time a halving compares both halves (the counts of a commit are not known from one pair):
// twelve commits, +10% in the ninth, each pair measured as its true change ±1%.
TEST(Bisect, TimeHalvesALongChainComparingBothHalves) {
  Bisection b = chain(12, BisectMethod::Time);
  b.targets.push_back(target(0.10));
  const auto measure = [](int from, int to) {
    const double change = from < 9 && to >= 9 ? 0.10 : 0.0;
    return timed(from, to, change, change - 0.01, change + 0.01);
  };
  b.pairs.push_back(measure(0, 12));
  std::vector<std::string> probes;
  while (const auto p = next_probe(b)) {
    probes.push_back(probe_text(p));
    b.pairs.push_back(measure(p->from, p->to));
    if (probes.size() > 30) break;
  }
  EXPECT_EQ(probes,
            (std::vector<std::string>{"0-6", "6-12", "6-9", "9-12", "6-7", "7-9", "7-8", "8-9"}));
  const BisectFinding f = attribute(b).findings.at(0);
  EXPECT_EQ(plain_text(f.line), "came with `a900000 commit 9` (+10.0%)");
  EXPECT_TRUE(f.gaps.empty());
}

TEST(Bisect, ASplitChangeIsFoundAsSeveralSteps) {
  Bisection b = chain(16, BisectMethod::Instructions);
  b.targets.push_back(target(1.05 * 1.05 - 1, true));
  const int probes =
      search(b, [](int c) { return 1000.0 * (c >= 3 ? 1.05 : 1.0) * (c >= 12 ? 1.05 : 1.0); });
  EXPECT_LE(probes, 8);
  const BisectFinding f = attribute(b).findings.at(0);
  ASSERT_EQ(f.steps.size(), 2u);
  EXPECT_EQ(f.steps[0].to, 3);
  EXPECT_EQ(f.steps[1].to, 12);
  EXPECT_NEAR(f.steps[0].share, 0.5, 1e-9);
  EXPECT_EQ(plain_text(f.line),
            "came with `a300000 commit 3` (+5.0%) and `ac00000 commit 12` (+5.0%)");
}

TEST(Bisect, ACommitThatDoesNotBuildIsSteppedOverInTheBinarySearch) {
  Bisection b = chain(16, BisectMethod::Instructions);
  b.targets.push_back(target(0.10, true));
  b.commits[7].skipped = true;  // the middle of 6-8 does not build: 6-8 is the step
  search(b, [](int c) { return c >= 7 ? 1100.0 : 1000.0; });
  const BisectFinding f = attribute(b).findings.at(0);
  ASSERT_EQ(f.steps.size(), 1u);
  EXPECT_EQ(f.steps[0].from, 6);
  EXPECT_EQ(f.steps[0].to, 8);
  EXPECT_EQ(plain_text(f.line),
            "came with `a700000 commit 7` or `a800000 commit 8` (+10.0%; `a700000` did not "
            "build)");
}

TEST(Bisect, NothingToSearchInAOneCommitPullRequest) {
  Bisection b = chain(1, BisectMethod::Time);
  b.targets.push_back(target(0.10));
  b.pairs.push_back(timed(0, 1, 0.10, 0.08, 0.12));
  EXPECT_EQ(probe_text(next_probe(b)), "none");
  EXPECT_EQ(probes_left_estimate(b), 0);
}

TEST(Bisect, CommitLabelCutsLongSubjectsOnACharacterBoundary) {
  BisectCommit c;
  c.sha = "3f2c1ab" + std::string(33, '0');
  c.subject = "Use a map for lookups";
  EXPECT_EQ(commit_label(c), "3f2c1ab Use a map for lookups");
  c.subject = std::string(59, 'x') + "é and more";
  EXPECT_EQ(commit_label(c), "3f2c1ab " + std::string(59, 'x') + "…");
}

TEST(BisectJson, TheSearchRoundTripsAndABadIndexIsRefusedByName) {
  Bisection b = chain(3, BisectMethod::Time);
  b.targets.push_back(target(0.10));
  b.commits[2].skipped = true;
  b.commits[2].skip_reason = "exit code 2";
  b.pairs.push_back(timed(0, 3, 0.10, 0.08, 0.12));
  b.pairs.push_back(timed(0, 1, 0.001, -0.01, 0.012));
  b.pairs[1].seconds = 31.5;
  b.budget_seconds = 300;
  b.seconds = 31.5;
  b.stop = {StopKind::BudgetSpent, 0, {}};
  const nlohmann::json j = bisection_to_json(b);
  const Bisection back = bisection_from_json(j);
  EXPECT_EQ(bisection_to_json(back), j);
  EXPECT_EQ(plain_text(attribute(back).findings.at(0).line),
            plain_text(attribute(b).findings.at(0).line));
  EXPECT_TRUE(back.commits[2].skipped);
  EXPECT_FALSE(j["pairs"][1].contains("failure"));

  nlohmann::json bad = j;
  bad["pairs"][1]["to"] = 7;
  try {
    bisection_from_json(bad);
    ADD_FAILURE() << "accepted a commit index past the chain";
  } catch (const ResultsFormatError& e) {
    EXPECT_EQ(std::string(e.what()),
              "results file: bisect.pairs[1].to: expected a commit index in [0, 3]");
  }
  bad = j;
  bad["commits"][1]["sha"] = "not a sha";
  EXPECT_THROW(bisection_from_json(bad), ResultsFormatError);
}

// Each reader names the field it refused, however deep: the file is untrusted and the message
// is all its writer gets.
TEST(BisectJson, EachProblemNamesItsField) {
  Bisection b = chain(3, BisectMethod::Time);
  b.targets.push_back(target(0.10));
  b.pairs.push_back(timed(0, 3, 0.10, 0.08, 0.12));
  const nlohmann::json j = bisection_to_json(b);
  const auto problem = [](const nlohmann::json& bad) -> std::string {
    try {
      bisection_from_json(bad);
    } catch (const ResultsFormatError& e) {
      return e.what();
    }
    return "accepted";
  };
  nlohmann::json bad = j;
  bad["pairs"][0]["values"][0]["change"] = "ten percent";
  EXPECT_EQ(problem(bad), "results file: bisect.pairs[0].values[0].change: expected a number");
  bad = j;
  bad["pairs"][0]["values"][0] = 3;
  EXPECT_EQ(problem(bad), "results file: bisect.pairs[0].values[0]: expected an object");
  bad = j;
  bad["targets"][0]["exact"] = "yes";
  EXPECT_EQ(problem(bad), "results file: bisect.targets[0].exact: expected true or false");
  bad = j;
  bad["targets"][0]["threshold"] = 2;
  EXPECT_EQ(problem(bad),
            "results file: bisect.targets[0].threshold: expected a fraction in (0, 1)");
  bad = j;
  bad["commits"][1]["subject"] = std::string(4097, 'x');
  EXPECT_EQ(problem(bad), "results file: bisect.commits[1].subject: string too long");
  bad = j;
  bad["commits"][1]["subject"] = 7;
  EXPECT_EQ(problem(bad), "results file: bisect.commits[1].subject: expected a string");
  bad = j;
  bad["commits"] = nlohmann::json::array({j["commits"][0]});
  EXPECT_EQ(problem(bad),
            "results file: bisect.commits: expected the base and at least one commit");
  // Absent or null optional fields read as nothing.
  bad = j;
  bad["pairs"][0]["values"][0].erase("ci");
  bad["pairs"][0]["values"][0]["change"] = nullptr;
  const Bisection back = bisection_from_json(bad);
  EXPECT_TRUE(std::isnan(back.pairs[0].values[0].change));
  EXPECT_TRUE(std::isnan(back.pairs[0].values[0].ci_low));
}

}  // namespace
}  // namespace benchpr
