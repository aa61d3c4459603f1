#include "benchpr/runner/zero_config_scan.hpp"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include <fmt/format.h>

#include "benchpr/core/text.hpp"

namespace benchpr::runner::zero_config_detail {

namespace {

namespace fs = std::filesystem;

// Deep enough for bench/ and modules/*/bench/, shallow enough to stay quick on big trees.
constexpr int kMaxProjectDepth = 4;
constexpr std::size_t kMaxProjectFiles = 20000;
constexpr std::uintmax_t kMaxTextFileBytes = 4u << 20;

std::string read_text(const fs::path& path) {
  std::error_code ec;
  const auto size = fs::file_size(path, ec);
  if (ec || size > kMaxTextFileBytes) return "";
  std::ifstream in(path, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
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

}  // namespace

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

namespace {

// The argument count check of a main() that needs arguments: `argc != N` or `argc < N` with N of
// 2 or more, `argc <= N` with N of 1 or more (spdlog's formatter-bench: `if (argc != 2)`).
std::string argument_check(const std::string& source) {
  for (std::size_t at = source.find("argc"); at != std::string::npos;
       at = source.find("argc", at + 1)) {
    if ((at > 0 && word_char(source[at - 1])) ||
        (at + 4 < source.size() && word_char(source[at + 4])))
      continue;
    std::size_t i = at + 4;
    while (i < source.size() && cmake_space(source[i])) ++i;
    std::string op;
    while (i < source.size() && op.size() < 2 &&
           (source[i] == '!' || source[i] == '<' || source[i] == '='))
      op += source[i++];
    while (i < source.size() && cmake_space(source[i])) ++i;
    if (i >= source.size() || !std::isdigit(static_cast<unsigned char>(source[i]))) continue;
    const int n = source[i] - '0';
    if ((i + 1 < source.size() && std::isdigit(static_cast<unsigned char>(source[i + 1]))))
      continue;
    if (((op == "!=" || op == "<") && n >= 2) || (op == "<=" && n >= 1))
      return fmt::format("argc {} {}", op, n);
  }
  return "";
}

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

// One CMake command invocation: its name (lower case) and its arguments as written, up to the
// matching ')' (nested parentheses included, as in `if((A OR B) AND C)`).
struct CMakeCommand {
  std::string name;
  std::string args;
};

// Every command of comment-free CMake `text`, in order. Linear; a command whose ')' is missing
// takes the rest of the text.
std::vector<CMakeCommand> cmake_commands(std::string_view text) {
  std::vector<CMakeCommand> commands;
  std::size_t i = 0;
  while (i < text.size()) {
    if (!(std::isalpha(static_cast<unsigned char>(text[i])) || text[i] == '_') ||
        (i > 0 && word_char(text[i - 1]))) {
      ++i;
      continue;
    }
    const std::size_t begin = i;
    while (i < text.size() && word_char(text[i])) ++i;
    std::size_t j = i;
    while (j < text.size() && (text[j] == ' ' || text[j] == '\t')) ++j;
    if (j >= text.size() || text[j] != '(') continue;
    CMakeCommand command{lower(std::string(text.substr(begin, i - begin))), ""};
    int depth = 1;
    bool quoted = false;
    std::size_t k = j + 1;
    for (; k < text.size() && depth > 0; ++k) {
      const char c = text[k];
      if (c == '"' && text[k - 1] != '\\') quoted = !quoted;
      if (quoted) continue;
      if (c == '(') ++depth;
      if (c == ')') --depth;
    }
    const std::size_t end = depth == 0 ? k - 1 : text.size();
    command.args = std::string(trim(text.substr(j + 1, end - j - 1)));
    commands.push_back(std::move(command));
    i = k;
  }
  return commands;
}

// The words of an if() condition, parentheses and quotes dropped.
std::vector<std::string> condition_words(const std::string& condition) {
  std::string spaced = condition;
  for (char& c : spaced)
    if (c == '(' || c == ')' || c == '"') c = ' ';
  std::vector<std::string> words;
  for (std::string_view w : cmake_words(spaced)) words.emplace_back(w);
  return words;
}

std::string one_spaced(std::string_view text) {
  std::string out;
  for (std::string_view w : cmake_words(text)) {
    if (!out.empty()) out += ' ';
    out += w;
  }
  return out;
}

// option()s, and if() guards around benchmark directories and executables, of one CMake file
// (`dir` relative to the project, "" at the root).
void scan_cmake_gates(const std::string& text, const std::string& dir, Project& project) {
  std::vector<std::string> guards;  // the enclosing conditions, outermost first
  for (const CMakeCommand& c : cmake_commands(text)) {
    if (c.name == "option") {
      const std::vector<std::string_view> words = cmake_words(c.args);
      if (words.empty()) continue;
      // option(NAME "help text" [value]): the value, when given, is the last word.
      const std::string value = words.size() >= 3 ? lower(std::string(words.back())) : "off";
      project.options.emplace(std::string(words[0]),
                              value == "on" || value == "true" || value == "yes" || value == "1");
    } else if (c.name == "if") {
      guards.push_back(one_spaced(c.args));
    } else if (c.name == "elseif" && !guards.empty()) {
      guards.back() = one_spaced(c.args);
    } else if (c.name == "else" && !guards.empty()) {
      guards.back() = "NOT (" + guards.back() + ")";
    } else if (c.name == "endif" && !guards.empty()) {
      guards.pop_back();
    } else if ((c.name == "add_subdirectory" || c.name == "add_executable") && !guards.empty()) {
      const std::vector<std::string_view> words = cmake_words(c.args);
      if (words.empty()) continue;
      BuildGate gate;
      if (c.name == "add_subdirectory") {
        gate.subdir =
            fs::path(dir.empty() ? std::string(words[0]) : dir + "/" + std::string(words[0]))
                .lexically_normal()
                .generic_string();
        gate.what = gate.subdir + "/";
      } else {
        gate.what = "target " + std::string(words[0]);
      }
      std::string condition;
      for (const std::string& g : guards) condition += (condition.empty() ? "" : " AND ") + g;
      gate.condition = guards.size() == 1 ? guards[0] : condition;
      project.gates.push_back(std::move(gate));
    }
  }
}

// The gates that keep a benchmark from being built: around a directory named bench* or holding
// a benchmark target, or around a benchmark target itself.
std::vector<BuildGate> benchmark_gates(const Project& project) {
  std::vector<BuildGate> found;
  for (const BuildGate& gate : project.gates) {
    bool counts = false;
    if (!gate.subdir.empty()) {
      counts = lower(fs::path(gate.subdir).filename().string()).find("bench") != std::string::npos;
      for (const BenchTarget& t : project.targets)
        counts = counts || t.dir == gate.subdir || t.dir.starts_with(gate.subdir + "/");
    } else {
      for (const BenchTarget& t : project.targets)
        counts = counts || gate.what == "target " + t.name;
    }
    if (counts) found.push_back(gate);
  }
  return found;
}

bool mentions_bench(const std::string& word) {
  return lower(word).find("bench") != std::string::npos;
}

bool cmake_variable_name(const std::string& word) {
  return !word.empty() && !std::isdigit(static_cast<unsigned char>(word[0])) &&
         std::all_of(word.begin(), word.end(), [](char c) {
           return std::isupper(static_cast<unsigned char>(c)) ||
                  std::isdigit(static_cast<unsigned char>(c)) || c == '_';
         });
}

// What a gate's condition needs turned on: the options (declared OFF, or named *BENCH*) that are
// not negated; of an OR, only the one about benchmarks (or the first). Empty when nothing in the
// condition can be turned on from the command line with confidence.
std::vector<std::string> options_to_enable(const BuildGate& gate, const Project& project) {
  const std::vector<std::string> words = condition_words(gate.condition);
  const bool any_or = std::find(words.begin(), words.end(), "OR") != words.end();
  std::vector<std::string> picked;
  for (std::size_t i = 0; i < words.size(); ++i) {
    const std::string& w = words[i];
    if (i > 0 && words[i - 1] == "NOT") continue;
    const auto option = project.options.find(w);
    const bool off_option = option != project.options.end() && !option->second;
    const bool bench_variable = option == project.options.end() && cmake_variable_name(w) &&
                                mentions_bench(w) && w != "NOT" && w != "AND" && w != "OR";
    if (off_option || bench_variable) picked.push_back(w);
  }
  if (any_or && picked.size() > 1) {
    const auto bench = std::find_if(picked.begin(), picked.end(), mentions_bench);
    picked = {bench != picked.end() ? *bench : picked.front()};
  }
  return picked;
}

}  // namespace

BuildOptions build_options(const Project& project) {
  BuildOptions result;
  std::set<std::string> seen;
  for (const BuildGate& gate : benchmark_gates(project)) {
    const std::vector<std::string> names = options_to_enable(gate, project);
    bool satisfied = false;
    for (const std::string& name : names) {
      satisfied = true;
      if (!seen.insert(name).second) continue;
      result.on.push_back(name);
      result.notes.push_back(
          fmt::format("turned on the CMake option {} (-D{}=ON): {} is built only if({})", name,
                      name, gate.what, gate.condition));
    }
    if (!satisfied) {
      // Options that default ON need nothing; anything else is for the user to judge.
      const std::vector<std::string> words = condition_words(gate.condition);
      const bool on_by_default =
          words.size() == 1 && project.options.count(words[0]) && project.options.at(words[0]);
      if (!on_by_default)
        result.notes.push_back(fmt::format(
            "{} is built only if({}): if no benchmark gets built, add the -D option that makes "
            "this true to the cmake command in `build:`",
            gate.what, gate.condition));
    }
  }
  return result;
}

namespace {

void scan_cmake(const fs::path& root, Project& project) {
  for (const fs::path& file : find_project_files(root, "CMakeLists.txt")) {
    const std::string text = strip_cmake_comments(read_text(file));
    if (uses_benchmark(text)) project.uses_benchmark = true;

    const std::string lowered = lower(text);
    std::set<std::string> executables;
    std::map<std::string, std::string> argument_checks;  // target -> its main()'s check
    for (const CMakeCall& call : cmake_calls(lowered, "add_executable")) {
      if (call.first.empty()) continue;
      const std::string target = original_case(text, lowered, call.first);
      executables.insert(target);
      const std::string sources = original_case(text, lowered, call.rest);  // outlives the views
      for (std::string_view source : cmake_words(sources)) {
        const fs::path path = file.parent_path() / std::string(source);
        const std::string ext = path.extension().string();
        if (ext != ".cpp" && ext != ".cc" && ext != ".cxx" && ext != ".c") continue;
        if (std::string check = argument_check(read_text(path)); !check.empty())
          argument_checks[target] = check;
      }
    }
    std::string dir = fs::relative(file.parent_path(), root).generic_string();
    if (dir == ".") dir.clear();
    scan_cmake_gates(text, dir, project);
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
      if (!known) project.targets.push_back({target, dir, argument_checks[target]});
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

}  // namespace

Project scan_project(const std::string& project_dir) {
  Project project;
  const fs::path root(project_dir);
  std::error_code ec;
  project.cmake = fs::is_regular_file(root / "CMakeLists.txt", ec);
  if (project.cmake) scan_cmake(root, project);
  if (fs::is_regular_file(root / "pom.xml", ec)) scan_maven(root, project);
  return project;
}

}  // namespace benchpr::runner::zero_config_detail
