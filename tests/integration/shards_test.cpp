// A comparison spread over shards, for real: one project compared whole and in three shards
// (`run --shard I/3`, then `merge`) finds the same benchmarks and the same known effects; merge
// refuses shards that are not one comparison and makes a partial comparison of a missing one.
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>

#include "benchpr/app/workflow_template.hpp"
#include "support/benchpr_process.hpp"
#include "support/contains.hpp"
#include "support/gbench_project.hpp"
#include "support/results_doc.hpp"
#include "support/temp_repo.hpp"
#include "support/workflow_expr.hpp"
#include "support/workflow_sim.hpp"

namespace benchpr::testing {
namespace {

using nlohmann::json;

std::set<std::string> series_names(const json& doc) {
  std::set<std::string> out;
  for (const json& s : doc["series"]) out.insert(s["name"].get<std::string>());
  return out;
}

// One project, built once: every step below reuses the builds (ctest runs each test in a process
// of its own, so the steps that need the shards' files are one test).
class Shards {
 public:
  static void set_up() {
    repo_ = new TempRepo;
    GbenchConfig cfg;
    cfg.rounds = 6;
    // Each of the test's comparisons spends at most this: the unchanged benchmarks are looked
    // at until they settle or the budget ends, which on a busy machine (rounds varying by 20%
    // and more) would otherwise take up to the 1,000 rounds the looks read.
    cfg.extra = "budget: 40s\n";
    const std::vector<GbenchCase> base = {{"BM_Slower", spin(2000), ""},
                                          {"BM_Faster", spin(8000), ""},
                                          {"BM_SameA", spin(3000), ""},
                                          {"BM_SameB", spin(1000), "->Arg(8)->Arg(64)"},
                                          {"BM_SameC", spin(1500), ""}};
    write_gbench_project(*repo_, base, cfg);
    repo_->commit_base_and_branch();
    auto head = base;
    head[0].body = spin(8000);  // 4x the work
    head[1].body = spin(2000);  // a quarter
    write_gbench_project(*repo_, head, cfg);
    repo_->commit("one slower, one faster");
    out_ = new TempDir;
  }
  static void tear_down() {
    delete repo_;
    delete out_;
  }

  // `benchpr run` of main vs feature; builds once, then reuses them. A shard gets no seed: the
  // shards of a matrix must agree on one by themselves, as the written workflow gives none.
  static BenchprRun run(std::vector<std::string> extra,
                        const std::vector<std::pair<std::string, std::string>>& env = {},
                        bool seeded = true) {
    std::vector<std::string> args = {"run",  "-C",     repo_->path(), "--base",
                                     "main", "--head", "feature",     "--dry-run"};
    if (seeded) args.insert(args.end(), {"--seed", "7"});
    if (built_) args.push_back("--skip-build");
    args.insert(args.end(), extra.begin(), extra.end());
    BenchprRun r = run_benchpr(BENCHPR_BINARY, args, env);
    built_ = built_ || r.exit_code == 0;
    return r;
  }

  static TempRepo* repo_;
  static TempDir* out_;
  static bool built_;
};

TempRepo* Shards::repo_ = nullptr;
TempDir* Shards::out_ = nullptr;
bool Shards::built_ = false;

// The `args:` of the measuring step of the workflow `benchpr init --shards N` writes, for the
// matrix job of shard `index`, split on spaces as action.yml splits them.
std::vector<std::string> shard_step_args(int shards, int index) {
  const Workflow wf = read_workflow(app::sharded_workflow_yaml(shards));
  std::string args;
  for (const WorkflowJob& job : wf.jobs)
    for (const WorkflowStep& step : job.steps)
      if (step.uses == app::kActionReference && step.with.count("args") && job.id == "measure")
        args = step.with.at("args");
  EXPECT_EQ(args, "--shard ${{ matrix.shard }}/" + std::to_string(shards));
  ExprContext ctx;
  ctx.lookup = [index](const std::string& path) -> std::optional<ExprValue> {
    if (path == "matrix.shard") return ExprValue::string(std::to_string(index));
    ADD_FAILURE() << "the shard step's args use " << path;
    return std::nullopt;
  };
  std::vector<std::string> out;
  std::istringstream words(expand(args, ctx));
  for (std::string w; words >> w;) out.push_back(w);
  return out;
}

void three_shards_merged_find_what_the_whole_comparison_finds() {
  auto* out_ = Shards::out_;
  const BenchprRun whole = Shards::run({"--output", *out_ / "whole.json"});
  ASSERT_EQ(whole.exit_code, 0) << whole.err;
  std::vector<std::string> files;
  for (int i = 1; i <= 3; ++i) {
    const std::string file = *out_ / ("shard-" + std::to_string(i) + ".json");
    // The measuring step's own arguments, from the workflow `init --shards 3` writes, with the
    // matrix value in; shard 2 takes its index from the environment instead, as a matrix job may.
    std::vector<std::string> args = shard_step_args(3, i);
    args.insert(args.end(), {"--output", file});
    const BenchprRun s = i == 2 ? Shards::run({"--output", file}, {{"BENCHPR_SHARD", "2/3"}}, false)
                                : Shards::run(args, {}, false);
    ASSERT_EQ(s.exit_code, 0) << s.err;
    EXPECT_TRUE(contains(s.err, "shard " + std::to_string(i) + " of 3: ")) << s.err;
    EXPECT_TRUE(contains(s.err, "join the shards with `benchpr merge")) << s.err;
    files.push_back(file);
  }
  // Disjoint shares that together are the whole comparison, and the same partition in each.
  std::set<std::string> all;
  std::size_t total = 0;
  json first_partition, first_seed;
  for (const std::string& f : files) {
    const json doc = json::parse(read_file(f));
    EXPECT_EQ(doc["schema_version"], 2);
    const auto names = series_names(doc);
    EXPECT_FALSE(names.empty()) << f;
    total += names.size();
    all.insert(names.begin(), names.end());
    if (first_partition.is_null()) first_partition = doc["partition"];
    EXPECT_EQ(doc["partition"], first_partition) << f;
    if (first_seed.is_null()) first_seed = doc["seed"];
    EXPECT_EQ(doc["seed"], first_seed) << f << ": the shards drew different seeds";
  }
  const json whole_doc = json::parse(read_file(*out_ / "whole.json"));
  EXPECT_EQ(total, all.size());
  EXPECT_EQ(all, series_names(whole_doc));
  EXPECT_EQ(first_partition.size(), 6u);

  const BenchprRun merged = run_benchpr(
      BENCHPR_BINARY, {"merge", files[2], files[0], files[1], "--output", *out_ / "merged.json"});
  ASSERT_EQ(merged.exit_code, 0) << merged.err;
  EXPECT_TRUE(contains(merged.err, "merged 3 of 3 shards (6 benchmarks measured)")) << merged.err;
  const json doc = json::parse(read_file(*out_ / "merged.json"));
  EXPECT_EQ(series_names(doc), series_names(whole_doc));
  EXPECT_TRUE(doc["complete"].get<bool>());
  EXPECT_EQ(doc["shard"]["index"], 0);
  EXPECT_EQ(doc["shard"]["shards"].size(), 3u);
  // The known effects (4x the work, a quarter of it), found both ways: their direction and
  // size always; a verdict of "no signal" is left to a machine too busy to give one, and the
  // recommendation must follow from the verdicts.
  for (const json* d : {&whole_doc, &doc}) {
    std::map<std::string, double> change;
    for (const json& b : (*d)["benchmarks"])
      if (b["change"].is_number()) change[b["name"]] = b["change"].get<double>();
    EXPECT_GT(change["BM_Slower"], 1.0) << (*d)["benchmarks"].dump();
    EXPECT_LT(change["BM_Faster"], -0.5) << (*d)["benchmarks"].dump();
    const auto v = verdicts(*d);
    EXPECT_TRUE(v.at("BM_Slower") == "regression" || v.at("BM_Slower") == "inconclusive")
        << v.at("BM_Slower");
    EXPECT_TRUE(v.at("BM_Faster") == "improvement" || v.at("BM_Faster") == "inconclusive")
        << v.at("BM_Faster");
    const std::string recommendation = (*d)["recommendation"]["verdict"];
    EXPECT_TRUE(recommendation == "do-not-merge" || recommendation == "inconclusive")
        << recommendation;
    EXPECT_EQ(recommendation, recommendation_for(*d)) << (*d)["benchmarks"].dump(1);
  }

  // publish takes the merged file as it is; the footer names the shards and their machines.
  const BenchprRun published = run_benchpr(
      BENCHPR_BINARY, {"publish", *out_ / "merged.json", "--dry-run", "--format", "markdown"});
  ASSERT_EQ(published.exit_code, 0) << published.err;
  EXPECT_TRUE(contains(published.out, "3 shards: 1, 2 and 3 on ")) << published.out;
  EXPECT_TRUE(contains(published.out, "BM_Slower")) << published.out;
}

void merge_refuses_shards_of_another_comparison_or_twice() {
  auto* out_ = Shards::out_;
  const std::string s1 = *out_ / "shard-1.json", s2 = *out_ / "shard-2.json";
  ASSERT_TRUE(std::filesystem::exists(s1) && std::filesystem::exists(s2))
      << "needs the shards of the test before";
  // A shard of another head: the same file with another head commit.
  json other = json::parse(read_file(s2));
  other["head"]["sha"] = std::string(40, 'e');
  write_file(*out_ / "other-head.json", other.dump());
  const BenchprRun r = run_benchpr(
      BENCHPR_BINARY, {"merge", s1, *out_ / "other-head.json", "--output", *out_ / "bad.json"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_TRUE(contains(r.err, "other-head.json: the head revision is eeeeeee, but ")) << r.err;
  EXPECT_FALSE(std::filesystem::exists(*out_ / "bad.json"));

  const BenchprRun twice =
      run_benchpr(BENCHPR_BINARY, {"merge", s1, s2, s2, "--output", *out_ / "bad.json"});
  EXPECT_EQ(twice.exit_code, 2);
  EXPECT_TRUE(contains(twice.err, "are both shard 2 of 3: give each shard's file once"))
      << twice.err;

  // Shard 1's file carrying a benchmark of shard 2's share, with shard 2 missing: it would
  // stand in for the measurement shard 2 never made.
  json forged = json::parse(read_file(s1));
  const json shard2 = json::parse(read_file(s2));
  ASSERT_FALSE(shard2["series"].empty());
  forged["series"].push_back(shard2["series"][0]);
  write_file(*out_ / "forged-1.json", forged.dump());
  const BenchprRun stolen = run_benchpr(
      BENCHPR_BINARY,
      {"merge", *out_ / "forged-1.json", *out_ / "shard-3.json", "--output", *out_ / "bad.json"});
  EXPECT_EQ(stolen.exit_code, 2);
  EXPECT_TRUE(contains(stolen.err, "has values, but the partition gives it to shard 2, not 1"))
      << stolen.err;
  EXPECT_FALSE(std::filesystem::exists(*out_ / "bad.json"));

  const BenchprRun whole =
      run_benchpr(BENCHPR_BINARY, {"merge", *out_ / "whole.json", "--output", *out_ / "bad.json"});
  EXPECT_EQ(whole.exit_code, 2);
  EXPECT_TRUE(contains(whole.err, "not a shard result")) << whole.err;
}

void a_missing_shard_makes_a_partial_comparison_that_lists_what_was_not_measured() {
  auto* out_ = Shards::out_;
  const std::string s1 = *out_ / "shard-1.json", s3 = *out_ / "shard-3.json";
  ASSERT_TRUE(std::filesystem::exists(s1) && std::filesystem::exists(s3));
  const BenchprRun r =
      run_benchpr(BENCHPR_BINARY, {"merge", s1, s3, "--output", *out_ / "partial.json"});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_TRUE(contains(r.err, "partial comparison: shard 2 missing; ")) << r.err;
  const json shard2 = json::parse(read_file(*out_ / "shard-2.json"));
  const json doc = json::parse(read_file(*out_ / "partial.json"));
  EXPECT_FALSE(doc["complete"].get<bool>());
  for (const std::string& name : series_names(shard2)) {
    EXPECT_TRUE(contains(r.err, "  micro/" + name + "\n")) << name << "\n" << r.err;
    EXPECT_EQ(verdicts(doc).at(name), "failed") << name;
  }
  // The measured shards' reading, the missing shard's benchmarks named as failed beside it
  // (never a "merge": what would be one is "failed").
  const std::set<std::string> missing = series_names(shard2);
  expect_reading_beside_failures(doc, {missing.begin(), missing.end()});
  EXPECT_NE(doc["recommendation"]["verdict"], "merge");
  const BenchprRun published = run_benchpr(
      BENCHPR_BINARY, {"publish", *out_ / "partial.json", "--dry-run", "--format", "markdown"});
  EXPECT_EQ(published.exit_code, 0) << published.err;
  EXPECT_TRUE(contains(published.out, "not measured: shard 2 of 3 is missing")) << published.out;
  EXPECT_TRUE(contains(published.out, "2 missing")) << published.out;
}

void a_shard_with_nothing_to_do_writes_a_valid_empty_result() {
  auto* out_ = Shards::out_;
  const std::string file = *out_ / "shard-9.json";
  const BenchprRun r = Shards::run({"--shard", "9/9", "--output", file});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(contains(r.err,
                       "shard 9 of 9 has nothing to measure: there are only 6 benchmarks "
                       "or suites to share among 9 shards"))
      << r.err;
  const json doc = json::parse(read_file(file));
  EXPECT_TRUE(doc["series"].empty());
  EXPECT_TRUE(doc["complete"].get<bool>());
  EXPECT_EQ(doc["shard"]["index"], 9);
  EXPECT_EQ(doc["partition"].size(), 6u);
}

TEST(Shards, WholeAndInThreeShardsMergedAgreeAndMergeChecksItsInput) {
  Shards::set_up();
  {
    SCOPED_TRACE("whole vs three shards merged");
    three_shards_merged_find_what_the_whole_comparison_finds();
  }
  if (!::testing::Test::HasFatalFailure()) {
    {
      SCOPED_TRACE("merge errors");
      merge_refuses_shards_of_another_comparison_or_twice();
    }
    {
      SCOPED_TRACE("a missing shard");
      a_missing_shard_makes_a_partial_comparison_that_lists_what_was_not_measured();
    }
    {
      SCOPED_TRACE("an empty shard");
      a_shard_with_nothing_to_do_writes_a_valid_empty_result();
    }
  }
  Shards::tear_down();
}

TEST(Shards, BadShardArgumentsAreRefusedBeforeAnythingRuns) {
  TempRepo repo;
  repo.write("README", "x\n");
  repo.commit("base");
  const BenchprRun r = run_benchpr(
      BENCHPR_BINARY, {"run", "-C", repo.path(), "--base", "main", "--shard", "4/3", "--dry-run"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_TRUE(contains(r.err, "--shard 4/3: the index counts from 1 to the shard count (3)"))
      << r.err;
  const BenchprRun env =
      run_benchpr(BENCHPR_BINARY, {"run", "-C", repo.path(), "--base", "main", "--dry-run"},
                  {{"BENCHPR_SHARD", "two"}});
  EXPECT_EQ(env.exit_code, 2);
  EXPECT_TRUE(contains(env.err, "BENCHPR_SHARD=two: expected INDEX/COUNT")) << env.err;
}

}  // namespace
}  // namespace benchpr::testing
