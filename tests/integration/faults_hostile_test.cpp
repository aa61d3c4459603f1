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
  for (const auto& name : kHostileNames) expect_compared_in_every_round(doc, name, 4);

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

// A name, an error message, a run's output and a build log holding bytes that are not UTF-8 (a
// Latin-1 "é", a stray 0xFF). JSON cannot carry them: before, serialising threw and the job
// ended with exit 1, no comment and no results file. Now each bad byte becomes U+FFFD where it
// enters benchpr, and the benchmark is measured under that name.
const std::string kReplacement = "\xEF\xBF\xBD";

std::string latin1_prelude() {
  return "static void Fast(benchmark::State& s) { for (auto _ : s) { " + spin(1000) +
         " } }\n"
         "static void Broken(benchmark::State& s) { for (auto _ : s) { s.SkipWithError(\"caf\\xe9 "
         "\\xff\"); break; } }\n"
         "static const int kRegistered = [] {\n"
         "  benchmark::RegisterBenchmark(\"BM_caf\\xe9\", Fast);\n"
         "  benchmark::RegisterBenchmark(\"BM_err\", Broken);\n"
         "  return 0;\n}();\n";
}

TEST(FaultsHostile, InvalidUtf8InNamesErrorsAndOutputIsReplacedAndNothingIsLost) {
  TempRepo repo;
  const std::vector<GbenchCase> plain = {{"BM_Plain", spin(1000), ""}};
  commit_base_and_pr(repo, plain, plain, small_config(), latin1_prelude(), latin1_prelude());
  // A second suite whose run prints raw bytes and fails: its log tail is kept in the results.
  std::string config = slurp(repo.path() + "/.benchpr.yml");
  const std::string suites = "suites:\n";
  config.insert(config.find(suites) + suites.size(),
                "  - name: noisy\n"
                "    run: sh -c 'printf \"caf\\351 \\377 end\\n\" >&2; exit 3' sh\n"
                "    format: google-benchmark\n");
  repo.git("checkout -q main");
  repo.write(".benchpr.yml", config);
  repo.commit("second suite");
  repo.git("checkout -q feature");
  repo.git("merge -q --no-edit main");

  TempDir out;
  const Ending e = run_benchpr_to_end(run_args(repo, out));
  ASSERT_TRUE(e.exited) << e.describe() << "\n" << e.err;
  EXPECT_EQ(e.exit_code, 0) << e.err;

  // The results file exists and is JSON (a parser refuses ill-formed UTF-8).
  const std::string text = slurp(out / "results.json");
  ASSERT_FALSE(text.empty()) << e.err;
  EXPECT_TRUE(is_valid_utf8(text));
  const json doc = json::parse(text);
  expect_compared_in_every_round(doc, "BM_caf" + kReplacement, 2);
  const json* err = find_benchmark(doc, "BM_err");
  ASSERT_NE(err, nullptr) << doc["benchmarks"].dump(2);
  EXPECT_EQ((*err)["verdict"], "failed");
  EXPECT_NE(err->dump().find("caf" + kReplacement + " " + kReplacement), std::string::npos)
      << err->dump();
  bool noisy_tail = false;
  for (const json& run : doc["runs"])
    if (run["suite"] == "noisy" &&
        run.value("log_tail", "").find("caf" + kReplacement + " " + kReplacement + " end") !=
            std::string::npos)
      noisy_tail = true;
  EXPECT_TRUE(noisy_tail) << doc["runs"].dump(2);

  // The comment is printed, valid, and the same as the file.
  const std::string& md = e.out;
  EXPECT_TRUE(is_valid_utf8(md));
  EXPECT_EQ(md, slurp(out / "comment.md"));
  EXPECT_NE(md.find("BM_caf" + kReplacement), std::string::npos) << md;
  const auto problems = markdown_problems(md);
  EXPECT_TRUE(problems.empty()) << join(problems) << "\n" << md;
}

TEST(FaultsHostile, InvalidUtf8InTheBuildLogIsReplacedAndTheCommentIsWritten) {
  TempRepo repo;
  const std::vector<GbenchCase> plain = {{"BM_Plain", spin(1000), ""}};
  commit_base_and_pr(repo, plain, plain, small_config(), "",
                     "#error \"broken caf\xe9 \xff byte\"\n");
  TempDir out;
  const Ending e = run_benchpr_to_end(run_args(repo, out));
  ASSERT_TRUE(e.exited) << e.describe() << "\n" << e.err;
  EXPECT_EQ(e.exit_code, 0) << e.err;
  const std::string text = slurp(out / "results.json");
  ASSERT_FALSE(text.empty()) << e.err;
  const json doc = json::parse(text);
  ASSERT_EQ(doc["builds"].size(), 2u);
  EXPECT_NE(doc["builds"][1]["log_tail"].get<std::string>().find("broken caf" + kReplacement + " " +
                                                                 kReplacement + " byte"),
            std::string::npos)
      << doc["builds"][1].dump();
  EXPECT_TRUE(is_valid_utf8(e.out));
  EXPECT_NE(e.out.find("broken caf" + kReplacement), std::string::npos) << e.out;
  EXPECT_EQ(e.out, slurp(out / "comment.md"));
}

// Units, JMH parameters and counter names come from the results file just as names do. A custom
// suite's "unit" and JMH's "scoreUnit" once went into the comment as they were: raw HTML, a
// heading, a live @mention, a table row split in two. No compiler needed: each suite prints (or
// copies) a results file whose values differ between base and PR, so every row is shown.
const std::string kHostileUnit = R"(ms|<b>x</b>\n\n# H @octocat https://evil.example)";

std::string results_generator(int scale) {
  std::string gbench_counter = R"(<img src=x onerror=alert(1)>|@octocat #1)";
  return "r=$(od -An -N1 -tu1 /dev/urandom | tr -d ' ')\n"
         "v=$((" +
         std::to_string(scale) +
         " + r % 7))\n"
         "U='" +
         kHostileUnit +
         "'\n"
         "case \"$1\" in\n"
         "custom) printf '[{\"name\":\"c1\",\"unit\":\"%s\",\"value\":%s}]\\n' \"$U\" \"$v\" ;;\n"
         "jmh) for size in 1 2; do\n"
         "  printf '%s{\"benchmark\":\"org.Foo.bar\",\"mode\":\"avgt\",\"params\":{"
         "\"<b>k</b>|@octocat\":\"<img src=x>|#1 %s\",\"size\":\"%s\"},"
         "\"primaryMetric\":{\"score\":%s,\"scoreUnit\":\"%s\",\"rawData\":[[%s]]}}' "
         "\"$([ $size = 1 ] && echo '[' || echo ',')\" \"$size\" \"$size\" \"$v\" \"$U\" \"$v\"\n"
         "  done; echo ']' ;;\n"
         "gbench) printf '{\"context\":{},\"benchmarks\":[{\"name\":\"BM_counted\","
         "\"run_name\":\"BM_counted\",\"run_type\":\"iteration\",\"repetitions\":1,"
         "\"repetition_index\":0,\"threads\":1,\"iterations\":100,\"real_time\":%s,"
         "\"cpu_time\":%s,\"time_unit\":\"ns\",\"" +
         gbench_counter +
         "\":3}]}' \"$v\" \"$v\" "
         "> \"$2\" ;;\n"
         "esac\n";
}

TEST(FaultsHostile, HostileUnitsParamsAndCounterNamesCannotInjectMarkupIntoTheComment) {
  TempRepo repo;
  commit_script_project(repo,
                        "  - name: custom\n"
                        "    run: sh gen.sh custom\n"
                        "    format: custom\n"
                        "  - name: jmh\n"
                        "    run: sh gen.sh jmh\n"
                        "    format: jmh\n"
                        "  - name: counters\n"
                        "    run: sh gen.sh gbench {out}\n"
                        "    format: google-benchmark\n"
                        "    metric: bytes_per_second\n",
                        3, results_generator(100), results_generator(200));
  TempDir out;
  const Ending e = run_benchpr_to_end(run_args(repo, out));
  ASSERT_TRUE(e.exited) << e.describe() << "\n" << e.err;
  EXPECT_EQ(e.exit_code, 0) << e.err;

  // Measured, with the unit intact in the results file (data, escaped only when rendered).
  const json doc = read_json(out / "results.json");
  const json* c1 = find_benchmark(doc, "c1");
  ASSERT_NE(c1, nullptr) << doc["benchmarks"].dump(2);
  EXPECT_EQ((*c1)["verdict"], "regression") << c1->dump();
  EXPECT_EQ((*c1)["unit"], "ms|<b>x</b>\n\n# H @octocat https://evil.example");
  const json* counted = find_benchmark(doc, "BM_counted");
  ASSERT_NE(counted, nullptr) << doc["benchmarks"].dump(2);
  EXPECT_EQ((*counted)["verdict"], "failed");  // no such counter: the names are listed

  const std::string& md = e.out;
  const auto problems = markdown_problems(md);
  EXPECT_TRUE(problems.empty()) << join(problems) << "\n" << md;
  // Shown, as text.
  EXPECT_NE(md.find("&lt;b&gt;x&lt;/b&gt;"), std::string::npos) << md;
  EXPECT_NE(md.find("onerror=alert(1)"), std::string::npos) << md;
}

// Values no benchmark can report: base 1e-200 ns against PR 1e200 ns once read as "faster" with
// "Looks good to merge". Values outside the plausible range for their unit, and a spread between
// the sides no measurement has, fail the benchmark with the reason; the others are compared: the
// honest benchmark is 1100 to 1106 ns on the base and 1000 to 1006 ns in the PR, an improvement
// of 9.1% (8.6 to 9.6%) the analysis must find whatever the noise.
std::string nonsense_generator(bool pr) {
  const std::string tiny_or_huge = pr ? "1e200" : "1e-200";
  const std::string widgets = pr ? "1e20" : "1e-20";
  const std::string honest_floor = pr ? "1000" : "1100";
  return "r=$(od -An -N1 -tu1 /dev/urandom | tr -d ' ')\n"
         "printf '[{\"name\":\"tiny_vs_huge\",\"unit\":\"ns\",\"value\":" +
         tiny_or_huge +
         "},"
         "{\"name\":\"spread\",\"unit\":\"widgets\",\"value\":" +
         widgets +
         "},"
         "{\"name\":\"honest\",\"unit\":\"ns\",\"value\":%s}]\\n' \"$((" +
         honest_floor + " + r % 7))\"\n";
}

TEST(FaultsHostile, ImplausibleValuesFailTheBenchmarkInsteadOfAConfidentVerdict) {
  TempRepo repo;
  commit_script_project(repo,
                        "  - name: nonsense\n"
                        "    run: sh gen.sh\n"
                        "    format: custom\n",
                        4, nonsense_generator(false), nonsense_generator(true));
  TempDir out;
  const Ending e = run_benchpr_to_end(run_args(repo, out));
  ASSERT_TRUE(e.exited) << e.describe() << "\n" << e.err;
  EXPECT_EQ(e.exit_code, 0) << e.err;

  const json doc = read_json(out / "results.json");
  const json* tiny = find_benchmark(doc, "tiny_vs_huge");
  ASSERT_NE(tiny, nullptr) << doc["benchmarks"].dump(2);
  EXPECT_EQ((*tiny)["verdict"], "failed") << tiny->dump();
  EXPECT_NE((*tiny)["reason"].get<std::string>().find("outside the plausible range"),
            std::string::npos)
      << tiny->dump();
  const json* spread = find_benchmark(doc, "spread");
  ASSERT_NE(spread, nullptr) << doc["benchmarks"].dump(2);
  EXPECT_EQ((*spread)["verdict"], "failed") << spread->dump();
  EXPECT_NE((*spread)["reason"].get<std::string>().find("values span a factor of"),
            std::string::npos)
      << spread->dump();
  expect_compared_in_every_round(doc, "honest", 4);
  const json* honest = find_benchmark(doc, "honest");
  ASSERT_NE(honest, nullptr);
  EXPECT_EQ((*honest)["verdict"], "improvement") << honest->dump();
  EXPECT_NEAR((*honest)["change"].get<double>(), 1000.0 / 1100 - 1, 0.006) << honest->dump();

  const std::string& md = e.out;
  EXPECT_EQ(doc["recommendation"]["verdict"], "failed") << doc["recommendation"].dump();
  EXPECT_NE(md.find("outside the plausible range"), std::string::npos) << md;
  const auto problems = markdown_problems(md);
  EXPECT_TRUE(problems.empty()) << join(problems) << "\n" << md;
}

// --filter is matched in benchpr against the names the PR's code reports: a 200,000-character
// name and the pattern 'c.*x' overflowed std::regex's recursion (SIGSEGV). Names longer than
// 4096 bytes are not matched, so the filter leaves them out; the others are compared.
TEST(FaultsHostile, AHugeBenchmarkNameUnderFilterIsLeftOutNotACrash) {
  TempRepo repo;
  const std::string gen =
      "r=$(od -An -N1 -tu1 /dev/urandom | tr -d ' ')\n"
      "printf '[{\"name\":\"%s\",\"unit\":\"ns\",\"value\":%s},"
      "{\"name\":\"c_short_x\",\"unit\":\"ns\",\"value\":%s}]\\n' " +
      std::string(200000, 'c') + " \"$((1000 + r % 7))\" \"$((1000 + r % 5))\"\n";
  commit_script_project(repo,
                        "  - name: s\n"
                        "    run: sh gen.sh\n"
                        "    format: custom\n",
                        2, gen, gen + "\n");
  TempDir out;
  const Ending e = run_benchpr_to_end(run_args(repo, out, {"--filter", "c.*x"}));
  ASSERT_TRUE(e.exited) << e.describe() << "\n" << e.err.substr(0, 2000);
  EXPECT_EQ(e.exit_code, 0) << e.err.substr(0, 2000);
  const json doc = read_json(out / "results.json");
  EXPECT_NE(find_benchmark(doc, "c_short_x"), nullptr) << doc["benchmarks"].dump(1);
  EXPECT_EQ(find_benchmark(doc, std::string(200000, 'c')), nullptr);
}

// The pattern itself is bounded too: compiling it recurses.
TEST(FaultsHostile, AFilterOfFiftyThousandCharactersIsRefused) {
  TempRepo repo;
  repo.write(".benchpr.yml", "build: 'true'\nsuites:\n  - name: s\n    run: 'true'\n");
  repo.commit("base");
  const Ending e = run_benchpr_to_end({"run", "-C", repo.path(), "--base", "main", "--head", "main",
                                       "--dry-run", "--filter", std::string(50000, '(') + "a"},
                                      60);
  ASSERT_TRUE(e.exited) << e.describe();
  EXPECT_EQ(e.exit_code, 2) << e.err.substr(0, 500);
  EXPECT_NE(e.err.find("--filter: 50001 characters, more than 1000"), std::string::npos)
      << e.err.substr(0, 500);
}

}  // namespace
}  // namespace benchpr::testing::faults
