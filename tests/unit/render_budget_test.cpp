// The comment stays within GitHub's size limit however many benchmarks there are, and shrinking
// it never leaves a broken table or an open <details>.
#include <algorithm>
#include <ctime>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "benchpr/render/render.hpp"

namespace benchpr::render {
namespace {

// 10,000 benchmarks over 30 rounds: 20 regressions, 30 improvements, 1,500 inconclusive,
// 50 failed, the rest unchanged.
std::pair<Results, Analysis> big_session(int count = 10000, int rounds = 30) {
  Results r;
  r.base.sha = std::string(40, 'a');
  r.head.sha = std::string(40, 'b');
  r.complete = true;
  r.rounds_done = rounds + 1;
  r.plan.push_back({0, true, Side::Base});
  for (int i = 0; i < rounds; ++i) {
    r.plan.push_back({i + 1, false, (i % 4 == 0 || i % 4 == 3) ? Side::Base : Side::Head});
  }
  Analysis a;
  a.analysed_rounds = rounds;
  a.recommendation.kind = RecommendationKind::DoNotMerge;
  a.recommendation.reason = "20 benchmarks are slower.";
  for (int i = 0; i < count; ++i) {
    BenchmarkAnalysis b;
    b.suite = i % 2 ? "core" : "io";
    b.name = fmt::format("BM_Component{}/variant_{}/size:{}", i % 37, i, 64 << (i % 10));
    b.unit = "ns";
    b.base_value = 1000 + i;
    b.head_value = 1010 + i;
    b.change = 0.001 * (i % 50);
    b.ci_low = b.change - 0.01;
    b.ci_high = b.change + 0.01;
    b.rounds_used = rounds;
    b.verdict = Verdict::Unchanged;
    if (i % 500 == 7) b.verdict = Verdict::Regression, b.change = 0.05 + i * 1e-6;
    if (i % 333 == 5) b.verdict = Verdict::Improvement, b.change = -0.06;
    if (i % 200 == 3) b.verdict = Verdict::Failed, b.reason = "exit code 1";
    if (i % 20 == 11 || i % 20 == 12 || i % 20 == 13) b.verdict = Verdict::Inconclusive;
    for (int k = 0; k < rounds; ++k) b.round_changes.push_back(b.change + 0.001 * (k % 5 - 2));
    a.benchmarks.push_back(std::move(b));
  }
  return {r, a};
}

int unescaped_pipes(const std::string& line) {
  int n = 0;
  for (std::size_t i = 0; i < line.size(); ++i) {
    if (line[i] == '|' && (i == 0 || line[i - 1] != '\\')) ++n;
  }
  return n;
}

std::vector<std::string> lines(const std::string& text) {
  std::vector<std::string> out;
  std::size_t pos = 0;
  while (pos < text.size()) {
    std::size_t end = text.find('\n', pos);
    if (end == std::string::npos) end = text.size();
    out.push_back(text.substr(pos, end - pos));
    pos = end + 1;
  }
  return out;
}

std::size_t count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (std::size_t p = text.find(what); p != std::string::npos; p = text.find(what, p + 1)) ++n;
  return n;
}

// Every table row has as many cell separators as its header; every <details> is closed.
void expect_well_formed(const std::string& md) {
  int header_pipes = -1;
  for (const std::string& line : lines(md)) {
    if (line.empty() || line[0] != '|') {
      header_pipes = -1;
      continue;
    }
    if (header_pipes < 0) header_pipes = unescaped_pipes(line);
    EXPECT_EQ(unescaped_pipes(line), header_pipes) << line;
  }
  EXPECT_EQ(count(md, "<details>"), count(md, "</details>"));
  EXPECT_EQ(md.find('\r'), std::string::npos);
}

// The least CPU time of `tries` renders: CPU time, not wall time, so other processes on the
// machine do not count; the least, so a one-off stall does not either.
double cpu_seconds_to_render(const Results& results, const Analysis& analysis, int tries) {
  double best = 1e9;
  for (int i = 0; i < tries; ++i) {
    const std::clock_t start = std::clock();
    const std::string md = render_comment(results, analysis);
    best = std::min(best, static_cast<double>(std::clock() - start) / CLOCKS_PER_SEC);
  }
  return best;
}

TEST(RenderBudget, TenThousandBenchmarksFitAndKeepRegressions) {
  const auto [results, analysis] = big_session();
  const std::string md = render_comment(results, analysis);

  EXPECT_LE(md.size(), 65536u);
  EXPECT_GT(md.size(), 30000u);  // it shrank to fit, not to nothing
  for (const BenchmarkAnalysis& b : analysis.benchmarks) {
    if (b.verdict == Verdict::Regression) {
      EXPECT_NE(md.find("`" + b.name + "`"), std::string::npos) << b.name;
    }
  }
  EXPECT_NE(md.find("more benchmarks ("), std::string::npos);
  EXPECT_NE(md.find("see the results file or the job summary"), std::string::npos);
  EXPECT_EQ(md.rfind("<!-- benchpr:comment key=default -->\n", 0), 0u);
  expect_well_formed(md);
}

// Fitting the limit takes a handful of renders, not one per row: ten times the benchmarks cost
// about three times the CPU (docs/performance.md: 26 ms at 1,000, 66 ms at 10,000). A cost
// growing with the square of the count would be a hundred times; the bound is far from both.
TEST(RenderBudget, RenderingCostGrowsLinearlyWithTheBenchmarkCount) {
  const auto [small_results, small_analysis] = big_session(1000);
  const auto [big_results, big_analysis] = big_session(10000);
  const double small = cpu_seconds_to_render(small_results, small_analysis, 3);
  const double big = cpu_seconds_to_render(big_results, big_analysis, 2);
  EXPECT_LT(big, 30 * std::max(small, 0.001))
      << "1,000: " << small << " s, 10,000: " << big << " s";
}

TEST(RenderBudget, PerRoundDetailsShrinkFirst) {
  const auto [results, analysis] = big_session(300, 30);
  const std::string full = render_comment(results, analysis, {"default", 10'000'000, {}});
  RenderOptions tight;
  tight.max_chars = full.size() - 2000;
  const std::string md = render_comment(results, analysis, tight);
  EXPECT_LE(md.size(), tight.max_chars);
  // The unchanged list and the changed table are whole; only per-round rows (which end with
  // the "PR worse in" column, "N of 30") went.
  const auto per_round = [](const std::string& line) {
    return line.size() > 8 && line.compare(line.size() - 8, 8, " of 30 |") == 0;
  };
  std::size_t full_rounds = 0, kept_rounds = 0;
  for (const std::string& line : lines(full)) {
    if (line.rfind("| ", 0) != 0) continue;
    if (per_round(line)) {
      ++full_rounds;
    } else {
      EXPECT_NE(md.find(line + "\n"), std::string::npos) << line;
    }
  }
  for (const std::string& line : lines(md)) kept_rounds += per_round(line) ? 1 : 0;
  EXPECT_GT(kept_rounds, 0u);
  EXPECT_LT(kept_rounds, full_rounds);
  EXPECT_NE(md.find("Per-round results"), std::string::npos);
  EXPECT_EQ(md.find("more unchanged"), std::string::npos);
  EXPECT_EQ(md.find("more benchmarks ("), std::string::npos);
  expect_well_formed(md);
}

TEST(RenderBudget, TinyBudgetStillWellFormed) {
  const auto [results, analysis] = big_session(2000, 10);
  for (std::size_t budget : {4000u, 1500u, 600u}) {
    RenderOptions opt;
    opt.max_chars = budget;
    const std::string md = render_comment(results, analysis, opt);
    EXPECT_LE(md.size(), budget);
    EXPECT_EQ(md.rfind("<!-- benchpr:comment key=default -->", 0), 0u);
    expect_well_formed(md);
  }
}

}  // namespace
}  // namespace benchpr::render
