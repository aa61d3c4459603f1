// The comment of a comparison that searched the pull request's commits: the line under each
// changed row it followed and the collapsed per-commit table, byte for byte (tests/golden/), from
// a search the runner could have recorded. Commit subjects come from the pull request's code, so
// one of them is hostile: it must stay text. The results file round-trips the search, so
// `publish` of it renders the same comment.
#include <string>

#include <gtest/gtest.h>

#include "benchpr/core/adaptive/session_analysis.hpp"
#include "benchpr/core/results_file/results_json.hpp"
#include "benchpr/render/bisect_view.hpp"
#include "benchpr/render/render.hpp"
#include "benchpr/render/text_report.hpp"
#include "support/golden.hpp"

namespace benchpr::render {
namespace {

using testing::expect_golden_comment;
using testing::known_effects_session;

BisectValue value(const std::string& suite, const std::string& name, double change, double low,
                  double high) {
  BisectValue v;
  v.suite = suite;
  v.name = name;
  v.from_value = 45100;
  v.to_value = 45100 * (1 + change);
  v.change = change;
  v.ci_low = low;
  v.ci_high = high;
  v.rounds = 8;
  return v;
}

BisectPair pair(int from, int to, double tls, double tls_low, double tls_high, double copy,
                double copy_low, double copy_high) {
  BisectPair p;
  p.from = from;
  p.to = to;
  p.seconds = 41;
  p.values.push_back(value("core", "BM_Tls/4096", tls, tls_low, tls_high));
  p.values.push_back(value("core", "BM_Copy/65536", copy, copy_low, copy_high));
  return p;
}

// Five commits: the +7.5% TLS regression came with commit 3 (commit 2 did not build), the copy
// improvement with commit 5; commit 4's subject is hostile.
Bisection search(const Results& r) {
  Bisection b;
  b.method = BisectMethod::Time;
  b.commits = {
      {r.base.sha, r.base.subject, false, ""},
      {"1111111aaaaaaa1111111aaaaaaa1111111aaaaa", "Add TLS batching scaffolding", false, ""},
      {"2222222bbbbbbb2222222bbbbbbb2222222bbbbb", "WIP: split the record layer", false, ""},
      {"3333333ccccccc3333333ccccccc3333333ccccc", "Batch TLS input", false, ""},
      {"4444444ddddddd4444444ddddddd4444444ddddd",
       "Fix `|` <script>alert(1)</script> @octocat #12 https://evil.example", false, ""},
      {r.head.sha, "Copy with memcpy", false, ""}};
  b.commits[2].skipped = true;
  b.commits[2].skip_reason = "exit code 1";
  b.targets = {BisectTarget{"core", "BM_Tls/4096", 0.075, 0.02, false},
               BisectTarget{"core", "BM_Copy/65536", -0.687, 0.02, false}};
  b.pairs.push_back(pair(0, 5, 0.075, 0.06, 0.09, -0.687, -0.70, -0.67));
  b.pairs.push_back(pair(0, 1, 0.002, -0.008, 0.012, 0.001, -0.01, 0.012));
  BisectPair unbuilt;
  unbuilt.from = 1;
  unbuilt.to = 2;
  unbuilt.seconds = 12;
  unbuilt.failure = "2222222 did not build: exit code 1";
  b.pairs.push_back(unbuilt);
  b.pairs.push_back(pair(1, 3, 0.074, 0.061, 0.087, -0.002, -0.012, 0.008));
  b.pairs.push_back(pair(3, 4, 0.001, -0.009, 0.011, 0.004, -0.006, 0.014));
  b.pairs.push_back(pair(4, 5, 0.0, -0.01, 0.01, -0.688, -0.70, -0.676));
  b.budget_seconds = 480;
  b.seconds = 176;
  b.complete = true;
  b.stop = {StopKind::StepsDone, 0, {}};
  return b;
}

TEST(RenderBisectGolden, LinesUnderTheRowsAndThePerCommitTable) {
  Results r = known_effects_session();
  r.bisect = search(r);
  const Analysis a = analyse_session(r);
  const std::string md = render_comment(r, a);
  expect_golden_comment("bisect.md", md);
  // What `publish` reads back renders the same comment.
  const Results stored = results_from_string(results_to_string(r, &a));
  ASSERT_TRUE(stored.bisect.has_value());
  EXPECT_EQ(render_comment(stored, analyse_session(stored)), md);
}

TEST(RenderBisectGolden, ThePerCommitTableKeepsSixColumnsTheLinesCoverEveryBenchmark) {
  Results r = known_effects_session();
  Bisection b = search(r);
  BisectPair& main = b.pairs[0];
  for (int i = 0; i < 6; ++i) {
    const std::string name = "BM_More/" + std::to_string(i);
    b.targets.push_back({"core", name, 0.05, 0.02, false});
    main.values.push_back(value("core", name, 0.05, 0.03, 0.07));
  }
  r.bisect = b;
  const BisectView v = make_bisect_view(r);
  EXPECT_EQ(v.headers.size(), 6u);
  ASSERT_EQ(v.rows.size(), 5u);
  EXPECT_EQ(v.rows[0].cells.size(), 6u);
  EXPECT_EQ(v.lines.size(), 8u);
  EXPECT_NE(v.summary.find("The table shows the first 6 of the 8 benchmarks followed"),
            std::string::npos)
      << v.summary;
}

TEST(RenderBisectGolden, TheTerminalReportListsTheSameLines) {
  Results r = known_effects_session();
  r.bisect = search(r);
  const std::string text = render_text_report(r, analyse_session(r), TextOptions{});
  EXPECT_NE(text.find("\nWhich commit\n"), std::string::npos) << text;
  EXPECT_NE(text.find("  BM_Tls/4096: came with `2222222 WIP: split the record layer` or `3333333 "
                      "Batch TLS input` (+7.4%; `2222222` did not build)\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("  BM_Copy/65536: came with `def5678 Copy with memcpy` (−68.8%)\n"),
            std::string::npos)
      << text;
}

TEST(RenderBisectGolden, NoSearchNoSection) {
  const Results r = known_effects_session();
  const std::string md = render_comment(r, analyse_session(r));
  EXPECT_EQ(md.find("Which commit"), std::string::npos);
  EXPECT_EQ(md.find("↳"), std::string::npos);
}

}  // namespace
}  // namespace benchpr::render
