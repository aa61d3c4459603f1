// Template overrides, template errors, the sticky marker, the log summary line and the
// whitespace rules of the rendered markdown.
#include <string>

#include <gtest/gtest.h>

#include "benchpr/render/embedded_templates.hpp"
#include "benchpr/render/markdown_tidy.hpp"
#include "benchpr/render/render.hpp"
#include "support/hand_analysis.hpp"

namespace benchpr::render {
namespace {

Analysis one_regression() {
  Analysis a;
  a.analysed_rounds = 4;
  BenchmarkAnalysis b =
      testing::hand_benchmark("core", "BM_Tls/4096", Verdict::Regression, 45100, 48500, 0.075);
  b.ci_low = 0.041;
  b.ci_high = 0.108;
  a.benchmarks.push_back(b);
  a.recommendation.kind = RecommendationKind::DoNotMerge;
  a.recommendation.reason = "BM_Tls/4096 is 7.5% slower.\n::error::injected";
  return a;
}

TEST(RenderTemplates, EveryTemplateIsEmbedded) {
  std::vector<std::string> names;
  for (const EmbeddedTemplate& t : embedded_templates()) names.emplace_back(t.name);
  for (const char* expected : {"comment", "benchmark_table", "build_failures", "details_per_round",
                               "details_unchanged", "suite_summary"}) {
    EXPECT_NE(std::find(names.begin(), names.end(), expected), names.end()) << expected;
  }
}

TEST(RenderTemplates, OverrideReplacesAPartialByName) {
  RenderOptions opt;
  opt.template_overrides["benchmark_table"] =
      "{{#changed_rows}}* {{{name}}}: {{{change}}} ({{verdict}})\n{{/changed_rows}}";
  const std::string md = render_comment(Results{}, one_regression(), opt);
  EXPECT_NE(md.find("\n* `BM_Tls/4096`: **+7.5%** (❌ regression)\n"), std::string::npos) << md;
  EXPECT_EQ(md.find("| benchmark |"), std::string::npos);
}

TEST(RenderTemplates, OverrideOfTheWholeComment) {
  RenderOptions opt;
  opt.key = "nightly";
  opt.template_overrides["comment"] =
      "{{{marker}}}\n{{counts.regression}} regression(s): "
      "{{recommendation.kind}}   \n\n\n\nbye";
  EXPECT_EQ(render_comment(Results{}, one_regression(), opt),
            "<!-- benchpr:comment key=nightly -->\n1 regression(s): do-not-merge\n\nbye\n");
}

TEST(RenderTemplates, BrokenOverridesAreNamed) {
  RenderOptions opt;
  opt.template_overrides["benchmark_table"] = "{{#changed_rows}} never closed";
  EXPECT_THROW(render_comment(Results{}, one_regression(), opt), TemplateError);

  opt.template_overrides["benchmark_table"] = "{{> no_such_partial}}";
  try {
    render_comment(Results{}, one_regression(), opt);
    FAIL() << "expected TemplateError";
  } catch (const TemplateError& e) {
    EXPECT_NE(std::string(e.what()).find("no_such_partial"), std::string::npos) << e.what();
  }

  opt.template_overrides["benchmark_table"] = "{{> suite_summary}}";
  opt.template_overrides["suite_summary"] = "{{> benchmark_table}}";
  EXPECT_THROW(render_comment(Results{}, one_regression(), opt), TemplateError);
}

TEST(RenderTemplates, MarkerIsTheFirstLineWithASanitisedKey) {
  EXPECT_EQ(sticky_marker("default"), "<!-- benchpr:comment key=default -->");
  EXPECT_EQ(sticky_marker("perf.linux-x86_64"), "<!-- benchpr:comment key=perf.linux-x86_64 -->");
  EXPECT_EQ(sticky_marker("a --> <b>\n"), "<!-- benchpr:comment key=a--b -->");
  EXPECT_EQ(sticky_marker("!!!"), "<!-- benchpr:comment key=default -->");
  // As long as a valid key may be (the GitHub layer looks for the whole of it), and no longer.
  EXPECT_EQ(sticky_marker(std::string(kMaxCommentKeyChars, 'k')),
            "<!-- benchpr:comment key=" + std::string(kMaxCommentKeyChars, 'k') + " -->");
  EXPECT_EQ(sanitize_comment_key(std::string(kMaxCommentKeyChars + 1, 'k')),
            std::string(kMaxCommentKeyChars, 'k'));
  RenderOptions opt;
  opt.key = "x y";
  EXPECT_EQ(render_comment(Results{}, one_regression(), opt)
                .rfind("<!-- benchpr:comment key=xy -->\n", 0),
            0u);
}

TEST(RenderTemplates, NoTrailingWhitespaceAndTablesAfterABlankLine) {
  Analysis a = one_regression();
  a.notes = {"a note   "};
  const std::string md = render_comment(Results{}, a);
  std::size_t pos = 0;
  std::string previous = "x";
  while (pos < md.size()) {
    const std::size_t end = md.find('\n', pos);
    const std::string line = md.substr(pos, end - pos);
    EXPECT_TRUE(line.empty() || (line.back() != ' ' && line.back() != '\t')) << line;
    if (!line.empty() && line[0] == '|' && (previous.empty() || previous[0] != '|')) {
      EXPECT_TRUE(previous.empty()) << "table right after: " << previous;
    }
    previous = line;
    pos = end + 1;
  }
  EXPECT_EQ(md.back(), '\n');
  EXPECT_NE(md.substr(md.size() - 2), "\n\n");
}

TEST(RenderTemplates, NothingComparedIsSaid) {
  Analysis a;
  a.recommendation.kind = RecommendationKind::Failed;
  const std::string md = render_comment(Results{}, a);
  EXPECT_NE(md.find("### benchpr: nothing was compared\n"), std::string::npos) << md;
  EXPECT_NE(md.find("**Could not compare.**"), std::string::npos) << md;
}

TEST(TidyMarkdown, FoldsBlankLinesOutsideCodeOnly) {
  EXPECT_EQ(tidy_markdown("\n\na  \n\n\n\nb\n| t |\n|--|\n\n\n"), "a\n\nb\n\n| t |\n|--|\n");
  EXPECT_EQ(tidy_markdown("```\nx\n\n\n| y |\n```\n\n\nz"), "```\nx\n\n\n| y |\n```\n\nz\n");
  EXPECT_EQ(tidy_markdown("````\n```\n\n\n````\nq"), "````\n```\n\n\n````\nq\n");
}

}  // namespace
}  // namespace benchpr::render
