// One comment from one set of numbers: `benchpr run` and `benchpr publish` of the results file
// that run wrote render the same comment, byte for byte. The file holds each value to 10
// significant digits and run's memory the full double; a comment rendered from the memory could
// differ from the one publish renders (a digit of an interval, a p value at the boundary, a note
// from a field the file does not keep), and a reader comparing the two would trust neither.
#include <gtest/gtest.h>

#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "support/benchpr_process.hpp"
#include "support/gbench_project.hpp"
#include "support/temp_repo.hpp"

namespace benchpr::testing {
namespace {

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

TEST(RunAndPublish, TheSameResultsFileGivesTheSameCommentByteForByte) {
  TempRepo repo;
  GbenchConfig cfg;
  cfg.rounds = 4;
  std::vector<GbenchCase> base;
  for (int i = 0; i < 8; ++i)
    base.push_back({"BM_Work" + std::to_string(i), chain(1000 + 250 * i), ""});
  auto head = base;
  head[0].body = chain(3000);  // a regression
  head[1].body = chain(600);   // an improvement
  commit_comparison(repo, base, head, cfg);

  TempDir out;
  const BenchprRun run =
      run_benchpr(BENCHPR_BINARY, {"run", "-C", repo.path(), "--base", "main", "--head", "feature",
                                   "--dry-run", "--seed", "11", "--output", out / "results.json",
                                   "--markdown", out / "run.md", "--html", out / "run.html"});
  ASSERT_TRUE(run.exit_code == 0 || run.exit_code == 3) << run.err;
  const BenchprRun published =
      run_benchpr(BENCHPR_BINARY, {"publish", out / "results.json", "--dry-run", "--markdown",
                                   out / "publish.md", "--html", out / "publish.html"});
  ASSERT_EQ(published.exit_code, 0) << published.err;
  const std::string run_md = read_file(out / "run.md");
  ASSERT_FALSE(run_md.empty());
  EXPECT_EQ(run_md, read_file(out / "publish.md"));
  EXPECT_EQ(read_file(out / "run.html"), read_file(out / "publish.html"));
}

}  // namespace
}  // namespace benchpr::testing
