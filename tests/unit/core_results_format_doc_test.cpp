// docs/results-format.md against the code: its example must be a file benchpr reads, carry
// exactly the fields benchpr writes, hold the analysis benchpr computes from it, and every field
// must be described on the page. So the document cannot drift from the writer
// (core/results_file/results_json_writer.cpp) or the readers.
#include <cmath>
#include <fstream>
#include <set>
#include <sstream>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "benchpr/core/adaptive/session_analysis.hpp"
#include "benchpr/core/results_file/results_json.hpp"

namespace benchpr {
namespace {

using nlohmann::json;

std::string read_doc() {
  std::ifstream in(std::string(BENCHPR_SOURCE_DIR) + "/docs/results-format.md");
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// The first ```json block after the "## Example" heading.
std::string example_block(const std::string& doc) {
  const std::size_t heading = doc.find("\n## Example");
  if (heading == std::string::npos) return "";
  const std::string fence = "```json\n";
  const std::size_t start = doc.find(fence, heading);
  if (start == std::string::npos) return "";
  const std::size_t end = doc.find("\n```", start + fence.size());
  if (end == std::string::npos) return "";
  return doc.substr(start + fence.size(), end - start - fence.size() + 1);
}

std::set<std::string> keys(const json& object) {
  std::set<std::string> out;
  for (const auto& item : object.items()) out.insert(item.key());
  return out;
}

void collect_keys(const json& j, std::set<std::string>& out) {
  if (j.is_object()) {
    for (const auto& item : j.items()) {
      out.insert(item.key());
      collect_keys(item.value(), out);
    }
  } else if (j.is_array()) {
    for (const json& x : j) collect_keys(x, out);
  }
}

class ResultsFormatDoc : public ::testing::Test {
 protected:
  void SetUp() override {
    doc = read_doc();
    ASSERT_FALSE(doc.empty()) << "docs/results-format.md not found";
    text = example_block(doc);
    ASSERT_FALSE(text.empty()) << "no ```json block after '## Example'";
    example = json::parse(text);
  }
  std::string doc;
  std::string text;
  json example;
};

TEST_F(ResultsFormatDoc, ExampleIsReadByBenchpr) {
  const Results r = results_from_string(text);
  EXPECT_EQ(r.schema_version, 2);
  EXPECT_EQ(r.base.spec, "main");
  EXPECT_EQ(r.head.spec, "faster-lookup");
  ASSERT_EQ(r.plan.size(), 7u);
  EXPECT_TRUE(r.plan[0].warmup);
  EXPECT_EQ(r.rounds_done, 7);
  EXPECT_TRUE(r.complete);
  EXPECT_DOUBLE_EQ(r.config.threshold, 0.02);
  ASSERT_EQ(r.config.suites.size(), 1u);
  EXPECT_EQ(r.config.suites[0].name, "demo");
  ASSERT_EQ(r.series.size(), 3u);
  EXPECT_EQ(r.series[2].name, "BM_Join/512");
  ASSERT_EQ(r.series[2].head.size(), 7u);
  EXPECT_DOUBLE_EQ(r.series[2].head[0], 198357.5);
  EXPECT_EQ(r.runs.size(), 14u);
  EXPECT_EQ(r.builds.size(), 2u);
}

// The same demo file as benchpr wrote it before schema_version 2 (pretty-printed, with
// benchmarks[].round_changes): read into the same results, and written back as the example.
TEST_F(ResultsFormatDoc, VersionOneOfTheExampleIsStillRead) {
  std::ifstream in(std::string(BENCHPR_TEST_DATA_DIR) + "/results/v1-demo.json");
  std::stringstream ss;
  ss << in.rdbuf();
  ASSERT_FALSE(ss.str().empty());
  const Results v1 = results_from_string(ss.str());
  EXPECT_EQ(v1.schema_version, 1);
  const Results v2 = results_from_string(text);
  // A file from before the stop reason's kind keeps its sentence (an Unknown reason); the rest
  // reads alike.
  EXPECT_EQ(v1.stop.kind, StopKind::Unknown);
  EXPECT_EQ(describe(v1.stop), describe(v2.stop));
  Results v1_with_the_kind = v1;
  v1_with_the_kind.stop = v2.stop;
  EXPECT_EQ(results_to_string(v1_with_the_kind), results_to_string(v2));
  const Analysis a = analyse_session(v1);
  const json rewritten = json::parse(results_to_string(v1, &a));
  EXPECT_EQ(rewritten["schema_version"], 2);
  ASSERT_EQ(rewritten["benchmarks"].size(), example["benchmarks"].size());
  for (std::size_t i = 0; i < example["benchmarks"].size(); ++i) {
    EXPECT_EQ(keys(rewritten["benchmarks"][i]), keys(example["benchmarks"][i]));
    EXPECT_EQ(rewritten["benchmarks"][i]["verdict"], example["benchmarks"][i]["verdict"]);
  }
}

// A field added to (or removed from) the writer must be added to (or removed from) the example.
TEST_F(ResultsFormatDoc, ExampleHasExactlyTheFieldsBenchprWrites) {
  const Results r = results_from_string(text);
  const Analysis a = analyse_session(r);
  const json written = json::parse(results_to_string(r, &a));
  EXPECT_EQ(keys(example), keys(written));
  for (const char* part : {"base", "head", "config", "machine", "tool", "recommendation"}) {
    EXPECT_EQ(keys(example[part]), keys(written[part])) << part;
  }
  for (const char* part : {"plan", "builds", "runs", "series", "benchmarks", "suites"}) {
    ASSERT_FALSE(example[part].empty()) << part;
    ASSERT_FALSE(written[part].empty()) << part;
    EXPECT_EQ(keys(example[part][0]), keys(written[part][0])) << part;
  }
  EXPECT_EQ(keys(example["config"]["suites"][0]), keys(written["config"]["suites"][0]));
}

// The analysis part of the example is what `publish` recomputes from its raw part.
TEST_F(ResultsFormatDoc, ExampleAnalysisIsWhatBenchprComputes) {
  const Analysis a = analyse_session(results_from_string(text));
  ASSERT_EQ(example["benchmarks"].size(), a.benchmarks.size());
  for (std::size_t i = 0; i < a.benchmarks.size(); ++i) {
    const json& shown = example["benchmarks"][i];
    const BenchmarkAnalysis& b = a.benchmarks[i];
    SCOPED_TRACE(b.name);
    EXPECT_EQ(shown["name"], b.name);
    EXPECT_EQ(shown["verdict"], std::string(to_string(b.verdict)));
    EXPECT_EQ(shown["reason"], b.reason);
    EXPECT_EQ(shown["rounds_used"], b.rounds_used);
    EXPECT_EQ(shown["flags"], json(flag_names(b.flags)));
    // The page shows four significant digits.
    EXPECT_NEAR(shown["change"].get<double>(), b.change, 1e-3 * std::fabs(b.change));
    EXPECT_NEAR(shown["ci"][0].get<double>(), b.ci_low, 1e-3 * std::fabs(b.ci_low));
    EXPECT_NEAR(shown["ci"][1].get<double>(), b.ci_high, 1e-3 * std::fabs(b.ci_high));
  }
  EXPECT_EQ(example["recommendation"]["verdict"], std::string(to_string(a.recommendation.kind)));
  EXPECT_EQ(example["recommendation"]["reason"], a.recommendation.reason);
  EXPECT_EQ(example["notes"], json(plain_texts(a.notes)));
}

TEST_F(ResultsFormatDoc, EveryFieldIsDescribed) {
  std::set<std::string> all;
  collect_keys(example, all);
  for (const std::string& key : all) {
    EXPECT_NE(doc.find("`" + key + "`"), std::string::npos) << "field not described: " << key;
  }
}

TEST_F(ResultsFormatDoc, VocabulariesAreDescribed) {
  for (Verdict v : {Verdict::Regression, Verdict::Improvement, Verdict::Slower, Verdict::Faster,
                    Verdict::Unchanged, Verdict::Inconclusive, Verdict::Added, Verdict::Removed,
                    Verdict::Failed}) {
    EXPECT_NE(doc.find("| `" + std::string(to_string(v)) + "` |"), std::string::npos)
        << to_string(v);
  }
  for (RecommendationKind k : {RecommendationKind::Merge, RecommendationKind::DoNotMerge,
                               RecommendationKind::Inconclusive, RecommendationKind::Failed}) {
    EXPECT_NE(doc.find("| `" + std::string(to_string(k)) + "` |"), std::string::npos)
        << to_string(k);
  }
  for (FailureKind k : {FailureKind::ExitCode, FailureKind::Signal, FailureKind::Timeout,
                        FailureKind::NotStarted, FailureKind::Interrupted, FailureKind::BadOutput,
                        FailureKind::BenchmarkError, FailureKind::ValueOutOfRange,
                        FailureKind::GivenUp, FailureKind::Setup, FailureKind::Other}) {
    EXPECT_NE(doc.find("| `" + std::string(to_string(k)) + "` |"), std::string::npos)
        << to_string(k);
  }
}

}  // namespace
}  // namespace benchpr
