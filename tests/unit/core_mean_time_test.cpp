// What a pull request's own code can do to its runs, read by the session's analysis: every
// verdict, bound and headline is about the mean time. Each case is a row of runs written for the
// purpose (each process's value the mean of its repetitions, its least time kept beside), with
// ten benchmarks so the family's prior is what a real suite gives; the first benchmark carries
// the PR's behaviour, the other nine are unchanged. None may read `unchanged` or "merge", and
// the row names the cause; equal means with a wider spread may read neither faster nor slower.
#include <cmath>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "benchpr/core/adaptive/session_analysis.hpp"
#include "support/contains.hpp"
#include "support/note_kinds.hpp"
#include "support/session_results.hpp"

namespace benchpr {
namespace {
using testing::contains;

constexpr int kRounds = 10;
constexpr int kRepetitions = 10;
constexpr int kBenchmarks = 10;

// One process of one side: what each of its repetitions takes, before the noise.
struct ProcessShape {
  double level = 1;      // every repetition times this (a slow mode, a process slowed as a whole)
  double stall = 0;      // share of repetitions that stall ...
  double stalled = 1;    // ... and take this times as long
  double spread = 0.01;  // the repetitions' own noise (log SD)
  double noise = -1;     // the process's noise (log SD); negative: write_runs' process_noise
};
// The shape of benchmark `b`'s process on `side` in analysed round `round` (0-based).
using Shaper = std::function<ProcessShape(int b, Side side, int round)>;

struct Written {
  Results results;
  Analysis analysis;
  const BenchmarkAnalysis& first() const { return analysis.benchmarks.at(0); }
};

Written write_runs(const Shaper& shape, std::uint64_t seed, double process_noise = 0.01,
                   int rounds = kRounds) {
  Written w;
  Results& r = w.results;
  r = testing::one_suite_session(rounds, seed);
  r.rounds_done = static_cast<int>(r.plan.size());
  r.complete = true;
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> normal(0, 1);
  std::uniform_real_distribution<double> uniform(0, 1);
  for (int b = 0; b < kBenchmarks; ++b) {
    BenchmarkSeries s;
    s.suite = "micro";
    s.name = "BM_" + std::to_string(b);
    s.unit = "ns";
    for (std::size_t i = 0; i < r.plan.size(); ++i) {
      for (const Side side : {Side::Base, Side::Head}) {
        const int round = static_cast<int>(i) - 1;  // plan index 0 is the warm-up
        const ProcessShape p = shape(b, side, std::max(0, round));
        const double sd = p.noise >= 0 ? p.noise : process_noise;
        const double process = 100 * p.level * std::exp(sd * normal(rng));
        double sum = 0, least = 1e300;
        for (int k = 0; k < kRepetitions; ++k) {
          double t = process * std::exp(p.spread * normal(rng));
          if (uniform(rng) < p.stall) t *= p.stalled;
          sum += t;
          least = std::min(least, t);
        }
        (side == Side::Base ? s.base : s.head).push_back(sum / kRepetitions);
        (side == Side::Base ? s.base_least : s.head_least).push_back(least);
      }
    }
    r.series.push_back(std::move(s));
  }
  w.analysis = analyse_session(r);
  return w;
}

// The mean-time change of benchmark 0 the runs were written with is asserted by each case; what
// every case must not read.
void expect_not_hidden(const Written& w) {
  EXPECT_NE(w.first().verdict, Verdict::Unchanged) << w.first().reason;
  EXPECT_NE(w.analysis.recommendation.kind, RecommendationKind::Merge)
      << w.analysis.recommendation.reason;
}

TEST(MeanTime, APullRequestThatMovesHalfItsRunsIntoASlowerModeIsNotMerged) {
  // Base: every run in the fast mode. PR: 5 of 10 runs (rounds 1, 2, 4, 5 and 8, not one
  // order's) in a mode 10% slower, +1% inside the mode: the mean time grew by about
  // exp(0.5 ln 1.10 + ln 1.01) - 1 = +5.9%.
  for (std::uint64_t seed = 1; seed <= 5; ++seed) {
    const Written w = write_runs(
        [](int b, Side side, int round) {
          ProcessShape p;
          if (b == 0 && side == Side::Head)
            p.level = ((round * 7 + 3) % 10 < 5 ? 1.10 : 1.0) * 1.01;
          return p;
        },
        seed);
    expect_not_hidden(w);
    EXPECT_GT(w.first().change, 0.03) << w.first().reason;
    EXPECT_TRUE(contains(w.first().reason, "mode")) << seed << ": " << w.first().reason;
  }
}

TEST(MeanTime, EveryPullRequestRunSlowWhereTheBaseHadThreeIsARegression) {
  // Base: 3 of 10 runs in a mode 10% slower; PR: all of them. The mean time grew by
  // exp(0.7 ln 1.10) - 1 = +6.9%; two readings within the modes fit, the smaller one was kept.
  for (std::uint64_t seed = 1; seed <= 5; ++seed) {
    const Written w = write_runs(
        [](int b, Side side, int round) {
          ProcessShape p;
          if (b == 0 && (side == Side::Head || round % 10 < 3)) p.level = 1.10;
          return p;
        },
        seed);
    expect_not_hidden(w);
    EXPECT_GT(w.first().change, 0.04);
  }
}

TEST(MeanTime, OneFarPullRequestRunCountsInTheMeanTime) {
  // One PR run of 10 is 60% slower: the mean time grew by exp(ln 1.6 / 10) - 1 = +4.8%.
  const Written w = write_runs(
      [](int b, Side side, int round) {
        ProcessShape p;
        if (b == 0 && side == Side::Head && round == 4) p.level = 1.6;
        return p;
      },
      7);
  expect_not_hidden(w);
  EXPECT_GT(w.first().change, 0.03);
  EXPECT_TRUE(contains(w.first().reason, "one PR run")) << w.first().reason;
}

TEST(MeanTime, ProcessesThePullRequestSlowsAsAWholeStayInTheComparison) {
  // The PR slows 2 of its 30 processes by 60% (a one-off cost some runs pay) while the
  // machine slowed 2 base processes by 6%: every benchmark's mean time grew by
  // exp((2 ln 1.6 - 2 ln 1.06) / 30) - 1 = +2.8%. Left out as "the machine's", all four
  // rounds hid it.
  const Written w = write_runs(
      [](int, Side side, int round) {
        ProcessShape p;
        if (side == Side::Head && (round == 5 || round == 17)) p.level = 1.6;
        if (side == Side::Base && (round == 9 || round == 24)) p.level = 1.06;
        return p;
      },
      11, 0.01, 30);
  expect_not_hidden(w);
  EXPECT_GT(w.first().change, 0.02);
  // The slowed processes are named (and kept: expect_not_hidden above).
  EXPECT_EQ(testing::notes_of_kind(w.analysis.notes, NoteKind::DisturbedRuns).size(), 1u)
      << ::testing::PrintToString(plain_texts(w.analysis.notes));
}

TEST(MeanTime, RepetitionsThatStallAreARegressionThoughTheLeastTimeDoesNotMove) {
  // 30% of the PR's repetitions take 20% longer: the mean time grows by 6%, the least time not
  // at all.
  for (std::uint64_t seed = 1; seed <= 5; ++seed) {
    const Written w = write_runs(
        [](int b, Side side, int) {
          ProcessShape p;
          if (b == 0 && side == Side::Head) {
            p.stall = 0.3;
            p.stalled = 1.2;
          }
          return p;
        },
        seed);
    expect_not_hidden(w);
    EXPECT_EQ(w.first().verdict, Verdict::Regression) << w.first().reason;
    EXPECT_TRUE(contains(w.first().reason, "the PR's repetitions stall or spread more"))
        << w.first().reason;
  }
}

TEST(MeanTime, ANoisyRegressionIsNeverCalledGoodToMerge) {
  // +5% on benchmarks with 8% noise per process: too noisy to settle in 10 rounds, so the
  // recommendation names how much worse it could be instead of "No benchmark changed by 2.0%".
  for (std::uint64_t seed = 1; seed <= 10; ++seed) {
    const Written w = write_runs(
        [](int b, Side side, int) {
          ProcessShape p;
          if (b == 0 && side == Side::Head) p.level = 1.05;
          return p;
        },
        seed, 0.08);
    EXPECT_NE(w.analysis.recommendation.kind, RecommendationKind::Merge)
        << w.analysis.recommendation.reason;
    EXPECT_NE(w.first().verdict, Verdict::Unchanged);
  }
}

TEST(MeanTime, OneNoisyBenchmarkAmongQuietOnesIsNamedWithItsWorstBound) {
  // Nine quiet benchmarks shown unchanged; BM_0 +5% with 8% noise per process, which 10 rounds
  // cannot settle: the recommendation names how much slower it could be, not a merge.
  int named = 0;
  for (std::uint64_t seed = 1; seed <= 10; ++seed) {
    const Written w = write_runs(
        [](int b, Side side, int) {
          ProcessShape p;
          p.noise = b == 0 ? 0.08 : 0.003;
          if (b == 0 && side == Side::Head) p.level = 1.05;
          return p;
        },
        seed);
    const std::string& why = w.analysis.recommendation.reason;
    EXPECT_NE(w.analysis.recommendation.kind, RecommendationKind::Merge) << why;
    if (w.first().verdict == Verdict::Inconclusive) {
      EXPECT_TRUE(contains(why, "`BM_0` could be up to") || contains(why, "`BM_0` is")) << why;
      named += contains(why, "could be up to") ? 1 : 0;
    }
  }
  EXPECT_GT(named, 0);
}

TEST(MeanTime, EqualMeansWithAWiderSpreadAreNeitherFasterNorSlower) {
  // The PR's repetitions spread 3% instead of 1% around the same mean: its least time falls by
  // about 2.6%, its mean time does not move.
  for (std::uint64_t seed = 1; seed <= 10; ++seed) {
    const Written w = write_runs(
        [](int b, Side side, int) {
          ProcessShape p;
          if (b == 0 && side == Side::Head) {
            p.spread = 0.03;
            p.level = std::exp(-0.03 * 0.03 / 2);  // the same mean as the base's
          }
          return p;
        },
        seed);
    const Verdict v = w.first().verdict;
    EXPECT_TRUE(v == Verdict::Unchanged || v == Verdict::Inconclusive)
        << to_string(v) << ": " << w.first().reason;
  }
}

TEST(MeanTime, TheRecommendationNamesTheWorstBoundWhenItReachesTheThreshold) {
  // Unchanged code on 4% process noise: nothing is shown, and the widest interval reaches 2%.
  const Written w = write_runs([](int, Side, int) { return ProcessShape{}; }, 3, 0.04);
  EXPECT_EQ(w.analysis.recommendation.kind, RecommendationKind::Inconclusive);
  EXPECT_TRUE(contains(w.analysis.recommendation.reason, "could be up to") ||
              contains(w.analysis.recommendation.reason, "No benchmark changed by more than"))
      << w.analysis.recommendation.reason;
}

}  // namespace
}  // namespace benchpr
