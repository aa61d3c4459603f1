// Zero-config for real: the bundled demo project (CMake + Google Benchmark, no .benchpr.yml) is
// configured and built with the command zero_config chooses, and its benchmark executable is
// discovered in the build directory.
#include <gtest/gtest.h>

#include <filesystem>

#include "benchpr/runner/zero_config.hpp"
#include "support/temp_dir.hpp"

namespace benchpr::testing {
namespace {

namespace fs = std::filesystem;

TEST(ZeroConfigDemo, BuildsTheDemoProjectAndFindsItsBenchmark) {
  TempDir dir;
  fs::copy(std::string(BENCHPR_SOURCE_DIR) + "/examples/demo/project", dir.path(),
           fs::copy_options::recursive);
  const Config config = runner::zero_config(dir.path());
  ASSERT_FALSE(config.build.empty());
  EXPECT_TRUE(config.suites.empty());
  run_checked(config.build, dir.path());

  const auto suites =
      runner::discover_benchmark_suites(dir / std::string(runner::kZeroConfigBuildDir));
  ASSERT_EQ(suites.size(), 1u);
  EXPECT_EQ(suites[0].name, "demo_bench");
  EXPECT_EQ(suites[0].run, "build-benchpr/demo_bench");
  EXPECT_EQ(suites[0].format, FormatKind::GoogleBenchmark);
  // The suite's command works from the worktree root, as the session runs it.
  const std::string listed =
      run_checked(suites[0].run + " --benchmark_list_tests=true", dir.path());
  EXPECT_NE(listed.find("BM_"), std::string::npos) << listed;

  // The configuration `benchpr init` would write names the same executable.
  const std::string yaml = runner::suggest_config_yaml(dir.path());
  EXPECT_NE(yaml.find("    run: build-benchpr/demo_bench\n"), std::string::npos) << yaml;
}

}  // namespace
}  // namespace benchpr::testing
