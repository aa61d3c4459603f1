#include "benchpr/runner/zero_config_scan.hpp"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <set>

#include <fmt/format.h>

#include "benchpr/core/base/text.hpp"
#include "benchpr/runner/zero_config_cmake_text.hpp"
#include "benchpr/runner/zero_config_files.hpp"
#include "benchpr/runner/zero_config_gates.hpp"

namespace benchpr::runner::zero_config_detail {

namespace fs = std::filesystem;

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
