// Benchmark names are chosen by whoever wrote the PR. A real Google Benchmark binary registers
// names full of markup; the comment must show them as text: no raw HTML, no </details> closing a
// section early, no live @mention or #reference, no table row split by a `|`, no link.
#include <gtest/gtest.h>

#include "faults_helpers.hpp"

namespace benchpr::testing::faults {
namespace {

const std::vector<std::string> kHostileNames = {
    "<img src=x onerror=alert(1)>|@octocat #1 </details>",
    "</details><details open><summary>@here</summary>",
    "`code` ``` | [x](https://evil.example) www.evil.example",
    "<!-- benchpr:comment key=default -->",
};

// Registers each hostile name with a busy loop; `slow_first` makes the first one 4x slower so it
// is named in the recommendation's sentence too.
std::string register_hostile(bool slow_first) {
  std::string p;
  p += "static void Fast(benchmark::State& s) { for (auto _ : s) { " + spin(1000) + " } }\n";
  p += "static void Slow(benchmark::State& s) { for (auto _ : s) { " + spin(4000) + " } }\n";
  p += "static const int kRegistered = [] {\n";
  for (std::size_t i = 0; i < kHostileNames.size(); ++i) {
    std::string literal;
    for (char c : kHostileNames[i]) {
      if (c == '"' || c == '\\') literal += '\\';
      literal += c;
    }
    p += "  benchmark::RegisterBenchmark(\"" + literal + "\", " +
         (i == 0 && slow_first ? "Slow" : "Fast") + ");\n";
  }
  p += "  return 0;\n}();\n";
  return p;
}

TEST(FaultsHostile, HostileBenchmarkNamesCannotInjectMarkupIntoTheComment) {
  TempRepo repo;
  const std::vector<GbenchCase> plain = {{"BM_Plain", spin(1000), ""}};
  GbenchConfig cfg = small_config();
  cfg.rounds = 4;
  commit_base_and_pr(repo, plain, plain, cfg, register_hostile(false), register_hostile(true));
  TempDir out;
  const Ending e = run_benchpr_to_end(run_args(repo, out));
  ASSERT_TRUE(e.exited) << e.describe() << "\n" << e.err;
  EXPECT_EQ(e.exit_code, 0) << e.err;
  const auto left = survivors_under(repo.path());
  EXPECT_TRUE(left.empty()) << join(left);

  // The names arrive intact in the results file (they are data, escaped only when rendered).
  const json doc = read_json(out / "results.json");
  // Each is compared in every round (the same name found on both sides), not failed, added or
  // removed. Which way each moved is not asserted: the PR's binary differs (one benchmark is
  // slower), and code layout alone can move the others by tens of percent.
  for (const auto& name : kHostileNames) {
    const json* b = find_benchmark(doc, name);
    ASSERT_NE(b, nullptr) << "missing: " << name << "\n" << doc["benchmarks"].dump(2);
    const std::string verdict = (*b)["verdict"];
    EXPECT_TRUE(verdict != "failed" && verdict != "added" && verdict != "removed")
        << name << ": " << b->dump();
    EXPECT_EQ((*b)["rounds_used"], 4) << name << ": " << b->dump();
  }

  const std::string& md = e.out;
  const auto problems = markdown_problems(md);
  EXPECT_TRUE(problems.empty()) << join(problems) << "\n" << md;
  // Shown, as text, not dropped.
  EXPECT_NE(md.find("onerror=alert(1)"), std::string::npos) << md;
  // Outside code spans there is only the template's own marker, on the first line (checked by
  // markdown_problems, as are the balance of <details> and the absence of raw HTML).
  EXPECT_EQ(md.find("<!-- benchpr:comment key=default -->"), 0u);
  // The progress log on stderr is one line per message: a name cannot forge a log line.
  for (const auto& name : kHostileNames)
    EXPECT_EQ(e.err.find("\n" + name), std::string::npos) << e.err;
}

}  // namespace
}  // namespace benchpr::testing::faults
