// --head WORKTREE: uncommitted edits, untracked files and staged changes are measured as the
// PR side, ignored files are not, and the user's branch, index and files are left as they were.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include <nlohmann/json.hpp>

#include "support/benchpr_process.hpp"
#include "support/results_doc.hpp"
#include "support/temp_repo.hpp"

namespace benchpr::testing {
namespace {

using nlohmann::json;

// Writes custom JSON to $1: `work` from value.txt (with +-0.5% noise), and a benchmark for
// each of extra.txt and ignored.txt that exists.
constexpr const char* kBenchScript =
    "#!/bin/sh\n"
    "v=$(cat value.txt)\n"
    "extra=0; [ -f extra.txt ] && extra=1\n"
    "ignored=0; [ -f ignored.txt ] && ignored=1\n"
    "awk -v pid=$$ -v v=\"$v\" -v extra=$extra -v ignored=$ignored 'BEGIN { srand(pid);\n"
    "  printf \"[{\\\"name\\\": \\\"work\\\", \\\"unit\\\": \\\"ms\\\", \\\"value\\\": %.4f}\", "
    "v * (1 + (rand() - 0.5) * 0.01);\n"
    "  if (extra) printf \",{\\\"name\\\": \\\"extra\\\", \\\"unit\\\": \\\"ms\\\", "
    "\\\"value\\\": 5}\";\n"
    "  if (ignored) printf \",{\\\"name\\\": \\\"ignored\\\", \\\"unit\\\": \\\"ms\\\", "
    "\\\"value\\\": 5}\";\n"
    "  print \"]\" }' > \"$1\"\n";

// The one-suite project both tests measure, with `work` taking 10 ms; `ignore` is .gitignore.
void write_project(TempRepo& repo, const std::string& ignore = "") {
  repo.write(".benchpr.yml",
             "suites:\n"
             "  - name: app\n"
             "    run: sh bench.sh {out}\n"
             "    format: custom\n"
             "rounds: 4\nwarmup_rounds: 0\n");
  repo.write("bench.sh", kBenchScript);
  repo.write("value.txt", "10\n");
  if (!ignore.empty()) repo.write(".gitignore", ignore);
}

const json* find_series(const json& doc, const std::string& name) {
  for (const json& s : doc["series"])
    if (s["name"] == name) return &s;
  return nullptr;
}

TEST(WorktreeHead, UncommittedChangesAreMeasuredAndTheUsersRepositoryIsUntouched) {
  TempRepo repo;
  write_project(repo, "ignored.txt\n");
  const std::string head = repo.commit("base");

  // Uncommitted: an edit (work takes 3x as long), an untracked file, an ignored file and a
  // staged new file.
  repo.write("value.txt", "30\n");
  repo.write("extra.txt", "new\n");
  repo.write("ignored.txt", "build output\n");
  repo.write("staged.txt", "staged\n");
  repo.git("add staged.txt");
  const std::string status_before = repo.git("status --porcelain --ignored");
  const std::string index_before = repo.git("ls-files --stage");

  TempDir out;
  const BenchprRun r =
      run_benchpr(BENCHPR_BINARY, {"run", "-C", repo.path(), "--head", "WORKTREE", "--dry-run",
                                   "--seed", "5", "--output", out / "results.json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err.find("uncommitted changes, which are not measured"), std::string::npos) << r.err;
  EXPECT_NE(r.out.find("(the working tree)"), std::string::npos) << r.out;

  const json doc = json::parse(read_file(out / "results.json"));
  EXPECT_EQ(doc["base"]["sha"], head);  // --base defaults to HEAD
  EXPECT_EQ(doc["head"]["spec"], "WORKTREE");
  EXPECT_NE(doc["head"]["sha"], head);
  // The snapshot's parent is HEAD, and it holds the staged file too.
  EXPECT_EQ(repo.git("rev-parse " + doc["head"]["sha"].get<std::string>() + "^"), head);
  EXPECT_EQ(repo.git("show " + doc["head"]["sha"].get<std::string>() + ":staged.txt"), "staged");

  const json* work = find_series(doc, "work");
  ASSERT_NE(work, nullptr) << doc.dump(1);
  ASSERT_EQ((*work)["base"].size(), (*work)["head"].size());
  for (std::size_t i = 0; i < (*work)["base"].size(); ++i) {
    EXPECT_NEAR((*work)["base"][i].get<double>(), 10, 0.1) << i;
    EXPECT_NEAR((*work)["head"][i].get<double>(), 30, 0.3) << i;
  }
  const json* extra = find_benchmark(doc, "extra");
  ASSERT_NE(extra, nullptr);
  EXPECT_EQ((*extra)["verdict"], "added");
  EXPECT_EQ(find_series(doc, "ignored"), nullptr) << "an ignored file reached the snapshot";

  // The user's repository: same HEAD and branch, same index, same files, no stash.
  EXPECT_EQ(repo.git("rev-parse HEAD"), head);
  EXPECT_EQ(repo.git("symbolic-ref --short HEAD"), "main");
  EXPECT_EQ(repo.git("ls-files --stage"), index_before);
  EXPECT_EQ(repo.git("status --porcelain --ignored"), status_before);
  EXPECT_EQ(repo.git("stash list"), "");
  EXPECT_EQ(read_file(repo.path() + "/value.txt"), "30\n");
}

TEST(WorktreeHead, ACleanTreeIsHeadItself) {
  TempRepo repo;
  write_project(repo);
  const std::string head = repo.commit("base");
  TempDir out;
  const BenchprRun r =
      run_benchpr(BENCHPR_BINARY, {"run", "-C", repo.path(), "--base", "HEAD", "--head", "WORKTREE",
                                   "--dry-run", "--output", out / "results.json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json doc = json::parse(read_file(out / "results.json"));
  EXPECT_EQ(doc["head"]["sha"], head);
  EXPECT_EQ(doc["head"]["subject"], "the working tree (no uncommitted changes)");
}

// The working tree and its configuration may come from a pull request (or its code, which ran
// as the same user): snapshotting it runs no program they name. A clean filter on every .txt
// file and an fsmonitor program each leave a marker when they run.
TEST(WorktreeHead, TheSnapshotRunsNoCleanFilterFsmonitorOrHookOfTheRepository) {
  TempRepo repo;
  write_project(repo);
  repo.write(".gitattributes", "*.txt filter=planted\n");
  repo.commit("base");
  TempDir markers;
  const std::string filter_marker = markers / "clean-filter-ran";
  const std::string fsmonitor_marker = markers / "fsmonitor-ran";
  const std::string hook_marker = markers / "hook-ran";
  write_file(markers / "fsmonitor.sh", "#!/bin/sh\ntouch " + fsmonitor_marker + "\nexit 1\n");
  write_file(markers / "hook.sh", "#!/bin/sh\ntouch " + hook_marker + "\ncat >/dev/null\n");
  run_checked("chmod +x " + shell_quote(markers / "fsmonitor.sh") + " " +
              shell_quote(markers / "hook.sh"));
  repo.write(".git/hooks/reference-transaction", read_file(markers / "hook.sh"));
  run_checked("chmod +x " + shell_quote(repo.path() + "/.git/hooks/reference-transaction"));
  repo.git("config filter.planted.clean " +
           shell_quote("sh -c 'touch " + filter_marker + "; cat'"));
  repo.git("config filter.planted.required true");
  repo.git("config core.fsmonitor " + shell_quote(markers / "fsmonitor.sh"));
  repo.write("value.txt", "30\n");  // an uncommitted edit the snapshot must record

  // The planted programs do run for git itself (so their silence below means something).
  repo.git("hash-object --path=value.txt value.txt");
  repo.git("status --porcelain");
  repo.git("update-ref refs/heads/probe HEAD");
  ASSERT_TRUE(std::filesystem::exists(filter_marker));
  ASSERT_TRUE(std::filesystem::exists(fsmonitor_marker));
  ASSERT_TRUE(std::filesystem::exists(hook_marker));
  for (const std::string& m : {filter_marker, fsmonitor_marker, hook_marker})
    std::filesystem::remove(m);

  TempDir out;
  const BenchprRun r =
      run_benchpr(BENCHPR_BINARY, {"run", "-C", repo.path(), "--head", "WORKTREE", "--dry-run",
                                   "--seed", "5", "--output", out / "results.json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_FALSE(std::filesystem::exists(filter_marker)) << "the clean filter ran";
  EXPECT_FALSE(std::filesystem::exists(fsmonitor_marker)) << "the fsmonitor program ran";
  EXPECT_FALSE(std::filesystem::exists(hook_marker)) << "a hook ran";
  // The edit was recorded as it is in the working tree.
  const json doc = json::parse(read_file(out / "results.json"));
  EXPECT_EQ(repo.git("show " + doc["head"]["sha"].get<std::string>() + ":value.txt"), "30");
}

}  // namespace
}  // namespace benchpr::testing
