// Benchmark names are the code under test's, as long as it likes. A name meets a regular
// expression in several places (--filter on every run, the shard partition, the listing for
// instruction counts, the multi-threaded check); libstdc++'s std::regex recursed a stack frame
// per character on a 200,000-character name and benchpr died of SIGSEGV. Here a stand-in for a
// Google Benchmark executable (a shell script speaking its command line) lists and reports such
// a name, and benchpr must finish its run.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "support/benchpr_process.hpp"
#include "support/contains.hpp"
#include "support/temp_repo.hpp"

namespace benchpr::testing {
namespace {

// `long` is a shell expression for the long name; `short_name` an ordinary one. The script
// lists both for --benchmark_list_tests and writes both as Google Benchmark JSON to
// --benchmark_out.
std::string fake_gbench(const std::string& long_name, const std::string& short_name) {
  return "long=\"" + long_name +
         "\"\n"
         "out=\"\"\n"
         "for a in \"$@\"; do\n"
         "  case \"$a\" in\n"
         "    --benchmark_list_tests=true) printf '%s\\n' '" +
         short_name +
         "' \"$long\"; exit 0 ;;\n"
         "    --benchmark_out=*) out=\"${a#--benchmark_out=}\" ;;\n"
         "  esac\n"
         "done\n"
         "entry() {\n"
         "  printf '{\"name\": \"%s\", \"run_name\": \"%s\", \"run_type\": \"iteration\", "
         "\"repetitions\": 1, \"repetition_index\": 0, \"threads\": 1, \"iterations\": 1000, "
         "\"real_time\": 5, \"cpu_time\": 5, \"time_unit\": \"ns\"}' \"$1\" \"$1\"\n"
         "}\n"
         "{ printf '{\"context\": {}, \"benchmarks\": ['; entry '" +
         short_name +
         "'; printf ','; entry \"$long\"; printf ']}\\n'; } > \"${out:-/dev/stdout}\"\n";
}

const std::string kRepeat200k = "$(head -c 200000 /dev/zero | tr '\\0' ";

// A repository whose one suite is the script, and a local run of it with more arguments: main
// against itself, the results file in `out`.
class LongNames : public ::testing::Test {
 protected:
  void commit_project(const std::string& script) {
    repo.write(".benchpr.yml",
               "build: 'true'\n"
               "suites:\n"
               "  - name: micro\n"
               "    run: sh fake_gbench.sh\n"
               "    format: google-benchmark\n"
               "rounds: 2\n"
               "warmup_rounds: 0\n");
    repo.write("fake_gbench.sh", script);
    repo.commit("base");
  }
  BenchprRun run(const std::vector<std::string>& more) {
    std::vector<std::string> args = {
        "run",    "-C",   repo.path(), "--base",   "main",
        "--head", "main", "--dry-run", "--output", out / "results.json"};
    args.insert(args.end(), more.begin(), more.end());
    return run_benchpr(BENCHPR_BINARY, args,
                       {{"GITHUB_ACTIONS", ""}, {"GITHUB_EVENT_PATH", ""}, {"BENCHPR_SHARD", ""}});
  }

  TempRepo repo;
  TempDir out;
};

// --shard with --filter: the partition lists both sides' benchmarks and keeps those the filter
// matches.
TEST_F(LongNames, AShardWithAFilterSurvivesA200000CharacterName) {
  commit_project(fake_gbench("BM_" + kRepeat200k + "a)x", "BM_short_x"));
  const BenchprRun r = run({"--shard", "1/2", "--filter", "BM_.*x"});
  ASSERT_LT(r.exit_code, 128) << "killed by a signal:\n" << r.err;
  // The fake suite gives no value: a comparison that measured nothing fails the job (exit 4),
  // after the results are written.
  EXPECT_EQ(r.exit_code, 4) << r.err;
  EXPECT_TRUE(contains(r.err, "nothing was measured")) << r.err;
  EXPECT_TRUE(contains(r.err, "shard 1 of 2 done")) << r.err;
}

// --instructions: every listed name is checked for /threads:N (a long run of digits there is
// what made the regex recurse), and --filter applies to the listing.
TEST_F(LongNames, InstructionCountsSurviveA200000DigitThreadCount) {
  // Both names multi-threaded: Callgrind is never started, the check alone is what is tested.
  commit_project(fake_gbench("BM_x/threads:" + kRepeat200k + "2)", "BM_t/threads:2"));
  const BenchprRun r = run({"--instructions"});
  ASSERT_LT(r.exit_code, 128) << "killed by a signal:\n" << r.err;
  // The fake suite gives no value: a comparison that measured nothing fails the job (exit 4),
  // after the results are written.
  EXPECT_EQ(r.exit_code, 4) << r.err;
  EXPECT_TRUE(contains(r.err, "nothing was measured")) << r.err;
  EXPECT_TRUE(contains(read_file(out / "results.json"), "multi-threaded")) << r.err;
}

}  // namespace
}  // namespace benchpr::testing
