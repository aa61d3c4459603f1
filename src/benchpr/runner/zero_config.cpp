#include "benchpr/runner/zero_config.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <string_view>

#include <fmt/format.h>

#include "benchpr/config/config_parser.hpp"
#include "benchpr/core/text.hpp"
#include "benchpr/formats/format.hpp"

namespace benchpr::runner {

namespace {

namespace fs = std::filesystem;

// Deep enough for bench/ and modules/*/bench/, shallow enough to stay quick on big trees.
constexpr int kMaxProjectDepth = 4;
constexpr std::size_t kMaxProjectFiles = 20000;
constexpr std::uintmax_t kMaxTextFileBytes = 4u << 20;
constexpr std::uintmax_t kMaxExecutableBytes = 1ull << 30;

constexpr std::string_view kDocsHint = "see benchpr's docs/config.md";

std::string read_text(const fs::path& path) {
  std::error_code ec;
  const auto size = fs::file_size(path, ec);
  if (ec || size > kMaxTextFileBytes) return "";
  std::ifstream in(path, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// Directories that hold other people's code or build output, never the project's own setup.
bool skipped_source_dir(const std::string& name) {
  return name.empty() || name[0] == '.' || name == "CMakeFiles" || name == "_deps" ||
         name == "node_modules" || name == "target" || name.rfind("build", 0) == 0 ||
         name.rfind("cmake-build", 0) == 0;
}

// Files called `file_name` (or, with a leading '*', ending in the rest: "*.cmake") under `root`
// (root first, then by path), within kMaxProjectDepth.
std::vector<fs::path> find_project_files(const fs::path& root, const std::string& file_name) {
  const bool suffix = !file_name.empty() && file_name[0] == '*';
  const std::string_view tail = suffix ? std::string_view(file_name).substr(1) : file_name;
  std::vector<fs::path> found;
  std::error_code ec;
  std::size_t visited = 0;
  for (auto it = fs::recursive_directory_iterator(
           root, fs::directory_options::skip_permission_denied, ec);
       !ec && it != fs::end(it); it.increment(ec)) {
    if (++visited > kMaxProjectFiles) break;
    const fs::path& p = it->path();
    std::error_code type_ec;
    if (it->is_directory(type_ec)) {
      if (it.depth() + 1 >= kMaxProjectDepth || skipped_source_dir(p.filename().string()))
        it.disable_recursion_pending();
      continue;
    }
    const std::string name = p.filename().string();
    const bool match = suffix ? name.size() > tail.size() && name.ends_with(tail) : name == tail;
    if (match && it->is_regular_file(type_ec)) found.push_back(p);
  }
  std::sort(found.begin(), found.end(), [&](const fs::path& a, const fs::path& b) {
    const auto da = std::distance(a.begin(), a.end());
    const auto db = std::distance(b.begin(), b.end());
    return da != db ? da < db : a < b;
  });
  return found;
}

// CMake source without comments (a '#' outside a quoted string starts one), so commented-out
// targets are not suggested.
std::string strip_cmake_comments(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  bool quoted = false, comment = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '\n') {
      comment = false;
      out += c;
      continue;
    }
    if (comment) continue;
    if (c == '"' && (i == 0 || text[i - 1] != '\\')) quoted = !quoted;
    if (c == '#' && !quoted) {
      comment = true;
      continue;
    }
    out += c;
  }
  return out;
}

// The CMake and Maven scans below are linear scans, not std::regex: libstdc++'s matcher
// recurses once per character of a repetition, and a CMakeLists.txt with 40 KB inside
// `target_link_libraries(` overflowed the stack (SIGSEGV).

bool word_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }
bool cmake_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }
bool target_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' || c == '+' ||
         c == '-';
}

// One call `name ( first rest )` in lower-cased CMake text; `rest` runs to the first ')' or the
// end of the text when there is none (`closed` false).
struct CMakeCall {
  std::string_view first;  // the first argument, if it is a plain target name
  std::string_view rest;   // the text after it up to the closing ')'
  bool closed = false;
};

// Every call of command `name` (lower case) in `text` (lower-cased), in order. Linear: the
// position of the next ')' is found once for all calls before it.
std::vector<CMakeCall> cmake_calls(std::string_view text, std::string_view name) {
  std::vector<CMakeCall> calls;
  std::size_t close = 0;
  bool close_known = false;
  for (std::size_t at = text.find(name); at != std::string_view::npos;
       at = text.find(name, at + 1)) {
    if (at > 0 && word_char(text[at - 1])) continue;
    std::size_t i = at + name.size();
    while (i < text.size() && cmake_space(text[i])) ++i;
    if (i >= text.size() || text[i] != '(') continue;
    ++i;
    while (i < text.size() && cmake_space(text[i])) ++i;
    const std::size_t first_begin = i;
    while (i < text.size() && target_char(text[i])) ++i;
    CMakeCall call;
    call.first = text.substr(first_begin, i - first_begin);
    if (!close_known || (close != std::string_view::npos && close < i)) {
      close = text.find(')', i);
      close_known = true;
    }
    call.closed = close != std::string_view::npos;
    call.rest = text.substr(i, (call.closed ? close : text.size()) - i);
    calls.push_back(call);
  }
  return calls;
}

// Words of a CMake argument list, split at spaces and quotes.
std::vector<std::string_view> cmake_words(std::string_view args) {
  std::vector<std::string_view> words;
  std::size_t i = 0;
  while (i < args.size()) {
    while (i < args.size() && (cmake_space(args[i]) || args[i] == '"')) ++i;
    const std::size_t begin = i;
    while (i < args.size() && !cmake_space(args[i]) && args[i] != '"') ++i;
    if (i > begin) words.push_back(args.substr(begin, i - begin));
  }
  return words;
}

bool is_benchmark_library(std::string_view word) {
  return word == "benchmark" || word == "benchmark_main" || word == "benchmark::benchmark" ||
         word == "benchmark::benchmark_main";
}

// `word` occurs in `text` with no letter, digit or '_' on either side.
bool contains_word(std::string_view text, std::string_view word) {
  for (std::size_t at = text.find(word); at != std::string_view::npos;
       at = text.find(word, at + 1)) {
    const std::size_t end = at + word.size();
    if ((at == 0 || !word_char(text[at - 1])) && (end == text.size() || !word_char(text[end])))
      return true;
  }
  return false;
}

// The CMake source (comments stripped) uses Google Benchmark: find_package(benchmark), a
// benchmark:: target, a FetchContent of google/benchmark, benchmark_main, or a plain
// `benchmark` among the libraries of target_link_libraries.
bool uses_benchmark(const std::string& cmake_text) {
  const std::string text = lower(cmake_text);
  if (text.find("benchmark::benchmark") != std::string::npos ||
      text.find("google/benchmark") != std::string::npos ||
      text.find("googlebenchmark") != std::string::npos || contains_word(text, "benchmark_main"))
    return true;
  for (const CMakeCall& call : cmake_calls(text, "find_package")) {
    if (call.first == "benchmark" ||
        (call.first.starts_with("benchmark") && !word_char(call.first[9])))
      return true;
  }
  for (const CMakeCall& call : cmake_calls(text, "target_link_libraries")) {
    for (std::string_view word : cmake_words(call.rest)) {
      if (word == "benchmark") return true;
    }
  }
  return false;
}

// A name or path that can go into YAML and a shell command unquoted.
bool plain_word(std::string_view s) {
  if (s.empty()) return false;
  return std::all_of(s.begin(), s.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.' ||
           c == '/' || c == '+';
  });
}

// A suite name the configuration accepts: letters, digits, '_', '.', '-'.
std::string suite_name(std::string_view raw) {
  std::string name;
  for (char c : raw) {
    const bool ok = std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' || c == '-';
    name += ok ? c : '-';
  }
  return name.empty() ? "bench" : name;
}

struct BenchTarget {
  std::string name;  // CMake target = executable name
  std::string dir;   // directory of its CMakeLists.txt relative to the project ("" at the root)
};

struct Project {
  bool cmake = false;           // CMakeLists.txt at the root
  bool uses_benchmark = false;  // some CMake file uses Google Benchmark
  std::vector<BenchTarget> targets;
  std::optional<std::string> jmh_module;  // directory of the pom.xml that uses JMH ("" = root)
  std::string jmh_jar = "benchmarks.jar";
};

// `part` (a view into `lowered`, the lower-cased `text`) in the case of `text`.
std::string original_case(const std::string& text, const std::string& lowered,
                          std::string_view part) {
  return text.substr(static_cast<std::size_t>(part.data() - lowered.data()), part.size());
}

// The first `<finalName> NAME </finalName>` of a pom.xml with a plain NAME.
std::optional<std::string> final_name(const std::string& pom) {
  static constexpr std::string_view kOpen = "<finalName>", kClose = "</finalName>";
  for (std::size_t at = pom.find(kOpen); at != std::string::npos; at = pom.find(kOpen, at + 1)) {
    std::size_t i = at + kOpen.size();
    while (i < pom.size() && cmake_space(pom[i])) ++i;
    const std::size_t begin = i;
    while (i < pom.size() && target_char(pom[i])) ++i;
    const std::size_t end = i;
    while (i < pom.size() && cmake_space(pom[i])) ++i;
    if (end > begin && pom.compare(i, kClose.size(), kClose) == 0)
      return pom.substr(begin, end - begin);
  }
  return std::nullopt;
}

void scan_cmake(const fs::path& root, Project& project) {
  for (const fs::path& file : find_project_files(root, "CMakeLists.txt")) {
    const std::string text = strip_cmake_comments(read_text(file));
    if (uses_benchmark(text)) project.uses_benchmark = true;

    const std::string lowered = lower(text);
    std::set<std::string> executables;
    for (const CMakeCall& call : cmake_calls(lowered, "add_executable")) {
      if (!call.first.empty()) executables.insert(original_case(text, lowered, call.first));
    }
    std::string dir = fs::relative(file.parent_path(), root).generic_string();
    if (dir == ".") dir.clear();
    for (const CMakeCall& call : cmake_calls(lowered, "target_link_libraries")) {
      if (!call.closed || call.first.empty()) continue;
      const std::string target = original_case(text, lowered, call.first);
      const std::vector<std::string_view> words = cmake_words(call.rest);
      if (!executables.count(target) ||
          std::none_of(words.begin(), words.end(), is_benchmark_library))
        continue;
      if (!plain_word(dir) && !dir.empty()) continue;
      const bool known = std::any_of(project.targets.begin(), project.targets.end(),
                                     [&](const BenchTarget& t) { return t.name == target; });
      if (!known) project.targets.push_back({target, dir});
    }
  }
  // find_package(benchmark) often lives in a cmake/*.cmake file the CMakeLists.txt includes.
  if (!project.uses_benchmark) {
    for (const fs::path& file : find_project_files(root, "*.cmake")) {
      if (uses_benchmark(strip_cmake_comments(read_text(file)))) {
        project.uses_benchmark = true;
        break;
      }
    }
  }
}

void scan_maven(const fs::path& root, Project& project) {
  for (const fs::path& pom : find_project_files(root, "pom.xml")) {
    const std::string text = read_text(pom);
    if (lower(text).find("jmh") == std::string::npos) continue;
    std::string dir = fs::relative(pom.parent_path(), root).generic_string();
    if (dir == ".") dir.clear();
    if (!dir.empty() && !plain_word(dir)) continue;
    // The root pom often only manages the JMH version; the module that uses it is deeper.
    if (!project.jmh_module || project.jmh_module->empty()) {
      project.jmh_module = dir;
      project.jmh_jar = final_name(text).value_or("benchmarks") + ".jar";
    }
  }
}

Project scan_project(const std::string& project_dir) {
  Project project;
  const fs::path root(project_dir);
  std::error_code ec;
  project.cmake = fs::is_regular_file(root / "CMakeLists.txt", ec);
  if (project.cmake) scan_cmake(root, project);
  if (fs::is_regular_file(root / "pom.xml", ec)) scan_maven(root, project);
  return project;
}

std::string cmake_build_command() {
  return fmt::format(
      "cmake -S . -B {0} -DCMAKE_BUILD_TYPE=Release -DBENCHMARK_ENABLE_TESTING=OFF && "
      "cmake --build {0} -j2",
      kZeroConfigBuildDir);
}

constexpr std::string_view kCommonSettings =
    "# Analysed rounds (after warm-up), each running base and PR in alternating order.\n"
    "rounds: 10\n"
    "warmup_rounds: 1\n"
    "# Smallest change that counts as a regression or improvement.\n"
    "threshold: 2%\n";

std::string cmake_yaml(const Project& project) {
  std::string yaml = fmt::format(
      "# benchpr: compares the benchmarks of a pull request with its base ({}).\n"
      "# Read from the base branch, so a pull request cannot change what is run.\n"
      "\n"
      "# Built once per revision, each in its own worktree, in Release.\n"
      "build: {}\n"
      "build_timeout: 30m\n"
      "\n"
      "# One suite per Google Benchmark executable. benchpr adds --benchmark_format=console\n"
      "# --benchmark_out=FILE --benchmark_out_format=json --benchmark_repetitions=3\n"
      "# --benchmark_enable_random_interleaving=true and, sized to the time budget,\n"
      "# --benchmark_min_time; add --benchmark_filter=... to `run` as you like (a\n"
      "# --benchmark_min_time of your own is kept, and the rounds are sized around it).\n"
      "suites:\n",
      kDocsHint, cmake_build_command());
  if (project.targets.empty()) {
    yaml +=
        "  # No executable linking benchmark was found in the CMake files: name yours here.\n"
        "  - name: bench\n";
    yaml += fmt::format("    run: {}/bench/my_bench\n", kZeroConfigBuildDir);
    yaml += "    format: google-benchmark\n";
  } else {
    std::map<std::string, int> seen;
    for (const BenchTarget& t : project.targets) {
      std::string name = suite_name(t.name);
      if (seen[name]++ > 0) name += "-" + std::to_string(seen[name]);
      const std::string path = t.dir.empty()
                                   ? fmt::format("{}/{}", kZeroConfigBuildDir, t.name)
                                   : fmt::format("{}/{}/{}", kZeroConfigBuildDir, t.dir, t.name);
      yaml += fmt::format("  - name: {}\n    run: {}\n    format: google-benchmark\n", name, path);
    }
  }
  yaml += "\n";
  yaml += kCommonSettings;
  return yaml;
}

std::string jmh_yaml(const Project& project) {
  const std::string& module = *project.jmh_module;
  const std::string build = module.empty()
                                ? std::string("mvn -B -q -DskipTests package")
                                : fmt::format("mvn -B -q -DskipTests -pl {} -am package", module);
  const std::string jar =
      module.empty() ? "target/" + project.jmh_jar : module + "/target/" + project.jmh_jar;
  return fmt::format(
      "# benchpr: compares the benchmarks of a pull request with its base ({}).\n"
      "# Read from the base branch, so a pull request cannot change what is run.\n"
      "\n"
      "# Built once per revision, each in its own worktree.\n"
      "build: {}\n"
      "build_timeout: 30m\n"
      "\n"
      "suites:\n"
      "  # JMH writes its JSON results to {{out}}, which benchpr reads. benchpr repeats the run\n"
      "  # in interleaved rounds, so one fork and a few iterations per run are enough; add a\n"
      "  # benchmark regex after the jar to run a subset.\n"
      "  - name: jmh\n"
      "    run: java -jar {} -f 1 -wi 3 -i 5 -rf json -rff {{out}}\n"
      "    format: jmh\n"
      "    timeout: 30m\n"
      "\n"
      "{}",
      kDocsHint, build, jar, kCommonSettings);
}

std::string what_to_add(const std::string& project_dir, const Project& project) {
  std::string found;
  if (project.cmake) {
    found =
        "it has a CMakeLists.txt, but no CMake file uses Google Benchmark "
        "(find_package(benchmark), benchmark::benchmark)";
  } else {
    found = "it is neither a CMake project using Google Benchmark nor a Maven project with JMH";
  }
  return fmt::format(
      "no .benchpr.yml in {}, and benchpr cannot guess how to run its benchmarks: {}. Add a "
      ".benchpr.yml that says how to build and run them ({}), for example:\n\n"
      "build: make bench\n"
      "suites:\n"
      "  - name: bench\n"
      "    run: ./bench --json {{out}}   # writes github-action-benchmark JSON\n"
      "    format: custom\n",
      project_dir, found, kDocsHint);
}

// Whether `path` is an ELF executable carrying Google Benchmark: its strings when linked
// statically, its dynamic symbols or the library's soname when linked dynamically.
bool is_google_benchmark_binary(const fs::path& path) {
  static constexpr std::array<std::string_view, 4> kMarkers = {
      "--benchmark_filter", "_ZN9benchmark22RunSpecifiedBenchmarks", "libbenchmark.so",
      "benchmark_format"};
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  char magic[4] = {};
  if (!in.read(magic, 4) || std::string_view(magic, 4) !=
                                "\x7f"
                                "ELF")
    return false;
  std::size_t longest = 0;
  for (std::string_view m : kMarkers) longest = std::max(longest, m.size());
  std::string window;
  std::vector<char> chunk(1 << 20);
  while (in) {
    in.read(chunk.data(), static_cast<std::streamsize>(chunk.size()));
    const auto got = static_cast<std::size_t>(in.gcount());
    if (got == 0) break;
    window.append(chunk.data(), got);
    for (std::string_view m : kMarkers)
      if (window.find(m) != std::string::npos) return true;
    // Keep the tail so a marker split across two chunks is still found.
    window.erase(0, window.size() - std::min(window.size(), longest - 1));
  }
  return false;
}

bool skipped_build_dir(const std::string& name) {
  return name == "CMakeFiles" || name == "_deps" || name == "tests" || name == "test" ||
         name == "Testing" || (!name.empty() && name[0] == '.');
}

bool shared_library_name(const std::string& file_name) {
  return file_name.size() > 3 &&
         (file_name.ends_with(".so") || file_name.find(".so.") != std::string::npos);
}

}  // namespace

Config zero_config(const std::string& project_dir) {
  const Project project = scan_project(project_dir);
  if (project.cmake && project.uses_benchmark) {
    Config config;
    config.build = cmake_build_command();
    return config;
  }
  if (project.jmh_module) {
    throw config::ConfigError(fmt::format(
        "no .benchpr.yml in {}: it is a Maven project with JMH benchmarks, which benchpr runs "
        "once you say how. Commit this .benchpr.yml to the base branch (`benchpr init` writes "
        "it), check the jar path, and run again:\n\n{}",
        project_dir, jmh_yaml(project)));
  }
  throw config::ConfigError(what_to_add(project_dir, project));
}

std::vector<SuiteConfig> discover_benchmark_suites(const std::string& build_dir,
                                                   const std::string& worktree_root) {
  fs::path build = fs::path(build_dir).lexically_normal();
  if (!build.has_filename()) build = build.parent_path();  // "build-benchpr/"
  const fs::path root = worktree_root.empty() ? build.parent_path() : fs::path(worktree_root);
  std::vector<fs::path> found;
  std::error_code ec;
  if (!fs::is_directory(build, ec)) return {};
  for (auto it = fs::recursive_directory_iterator(
           build, fs::directory_options::skip_permission_denied, ec);
       !ec && it != fs::end(it); it.increment(ec)) {
    const fs::path& p = it->path();
    const std::string file_name = p.filename().string();
    std::error_code type_ec;
    if (it->is_symlink(type_ec)) continue;
    if (it->is_directory(type_ec)) {
      if (skipped_build_dir(file_name)) it.disable_recursion_pending();
      continue;
    }
    if (!it->is_regular_file(type_ec) || shared_library_name(file_name)) continue;
    const auto perms = it->status(type_ec).permissions();
    if ((perms & fs::perms::owner_exec) == fs::perms::none) continue;
    if (it->file_size(type_ec) > kMaxExecutableBytes) continue;
    if (is_google_benchmark_binary(p)) found.push_back(p);
  }
  std::sort(found.begin(), found.end());

  std::map<std::string, int> stems;
  for (const fs::path& p : found) ++stems[suite_name(p.stem().string())];
  std::vector<SuiteConfig> suites;
  for (const fs::path& p : found) {
    SuiteConfig suite;
    const std::string relative =
        p.lexically_normal().lexically_relative(root.lexically_normal()).generic_string();
    const std::string in_build =
        p.lexically_normal().lexically_relative(build.lexically_normal()).generic_string();
    const std::string stem = suite_name(p.stem().string());
    if (stems[stem] > 1) {
      // Two executables of the same name: their directories tell them apart (bench.core_bench).
      std::string dotted = in_build;
      std::replace(dotted.begin(), dotted.end(), '/', '.');
      suite.name = suite_name(dotted);
    } else {
      suite.name = stem;
    }
    const std::string path = relative.empty() || relative.starts_with("..") ? p.string() : relative;
    suite.run = plain_word(path) ? path : shell_quote(path);
    suite.format = "google-benchmark";
    suites.push_back(std::move(suite));
  }
  return suites;
}

std::string suggest_config_yaml(const std::string& project_dir) {
  const Project project = scan_project(project_dir);
  if (project.cmake && project.uses_benchmark) return cmake_yaml(project);
  if (project.jmh_module) return jmh_yaml(project);
  throw config::ConfigError(what_to_add(project_dir, project));
}

}  // namespace benchpr::runner
