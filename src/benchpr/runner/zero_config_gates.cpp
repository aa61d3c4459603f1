#include "benchpr/runner/zero_config_gates.hpp"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <optional>
#include <set>
#include <string>

#include <fmt/format.h>

#include "benchpr/core/base/text.hpp"
#include "benchpr/runner/zero_config_cmake_text.hpp"

namespace benchpr::runner::zero_config_detail {

namespace fs = std::filesystem;

namespace {

// What downloads at configure time in command `c`, in the project's spelling; "" for nothing.
std::string configure_download(const CMakeCommand& c) {
  const auto upper_words = [&] {
    std::vector<std::string> out;
    for (std::string_view w : cmake_words(c.args)) {
      std::string u(w);
      for (char& ch : u) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
      out.push_back(std::move(u));
    }
    return out;
  };
  if (c.name == "cpmaddpackage") return "CPM.cmake (CPMAddPackage)";
  if (c.name == "cpmfindpackage") return "CPM.cmake (CPMFindPackage)";
  if (c.name == "cpmdeclarepackage") return "CPM.cmake (CPMDeclarePackage)";
  if (c.name == "include") {
    const std::vector<std::string> words = upper_words();
    if (!words.empty() && words[0].find("CPM") != std::string::npos)
      return "CPM.cmake (include(" + std::string(cmake_words(c.args)[0]) + "))";
    return "";
  }
  if (c.name == "fetchcontent_declare") return "FetchContent_Declare";
  if (c.name == "fetchcontent_makeavailable") return "FetchContent_MakeAvailable";
  if (c.name == "externalproject_add") {
    for (const std::string& w : upper_words())
      if (w == "URL" || w == "GIT_REPOSITORY") return "ExternalProject_Add with " + w;
    return "";
  }
  if (c.name == "file") {
    const std::vector<std::string> words = upper_words();
    if (!words.empty() && words[0] == "DOWNLOAD") return "file(DOWNLOAD)";
  }
  return "";
}

}  // namespace

// option()s, and if() guards around benchmark directories and executables, of one CMake file
// (`dir` relative to the project, "" at the root).
void scan_cmake_gates(const std::string& text, const std::string& dir, Project& project) {
  std::vector<std::string> guards;  // the enclosing conditions, outermost first
  for (const CMakeCommand& c : cmake_commands(text)) {
    if (std::string download = configure_download(c); !download.empty()) {
      std::string condition;
      for (const std::string& g : guards) condition += (condition.empty() ? "" : " AND ") + g;
      project.downloads.push_back({std::move(download),
                                   dir.empty() ? "CMakeLists.txt" : dir + "/CMakeLists.txt",
                                   std::move(condition)});
      continue;
    }
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

namespace {

// The gates that keep a benchmark from being built: around a directory holding a benchmark
// target the scan found, or around such a target itself. Only when it found none, around a
// directory named bench* (the best guess left); otherwise a gate of a directory whose programs
// are not among the suites (a microbenchmarks/ of other programs) would be named for nothing.
std::vector<BuildGate> benchmark_gates(const Project& project) {
  std::vector<BuildGate> found;
  for (const BuildGate& gate : project.gates) {
    bool counts = false;
    if (!gate.subdir.empty()) {
      counts = project.targets.empty() &&
               lower(fs::path(gate.subdir).filename().string()).find("bench") != std::string::npos;
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

// "CMakeLists.txt downloads at configure time (CPM.cmake (CPMAddPackage) …): a build without
// network access fails there; -DROARING_USE_CPM=OFF turns them off …", one note for the project:
// the option that guards the downloads when one does, else what to do.
std::optional<std::string> download_note(const Project& project) {
  if (project.downloads.empty()) return std::nullopt;
  std::vector<std::string> whats;
  std::set<std::string> options;  // ON options that guard a download
  bool unguarded = false;
  for (const ConfigureDownload& d : project.downloads) {
    std::string what = d.what + " in " + d.file;
    if (std::find(whats.begin(), whats.end(), what) == whats.end()) whats.push_back(what);
    bool guarded = false;
    const std::vector<std::string> words = condition_words(d.condition);
    for (std::size_t i = 0; i < words.size(); ++i) {
      const auto option = project.options.find(words[i]);
      if (option == project.options.end() || !option->second) continue;
      if (i > 0 && words[i - 1] == "NOT") continue;
      options.insert(words[i]);
      guarded = true;
    }
    unguarded = unguarded || !guarded;
  }
  std::string listed;
  for (std::size_t i = 0; i < whats.size() && i < 3; ++i) listed += (i ? ", " : "") + whats[i];
  if (whats.size() > 3) listed += fmt::format(" and {} more", whats.size() - 3);
  std::string note = fmt::format(
      "the project downloads while CMake configures ({}): a build without network access fails "
      "at configure time",
      listed);
  if (!options.empty()) {
    std::string flags;
    for (const std::string& o : options) flags += (flags.empty() ? "" : " ") + ("-D" + o + "=OFF");
    note += fmt::format(
        "; {} turns {} off (the option{} guarding them): add it to the cmake command in `build:` "
        "with the dependencies installed instead",
        flags, unguarded ? "some of them" : "them", options.size() == 1 ? "" : "s");
  } else {
    note +=
        "; no option guards them: give the runner network access, or point CMake at "
        "installed dependencies in `build:`";
  }
  return note;
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
  if (std::optional<std::string> note = download_note(project))
    result.notes.push_back(std::move(*note));
  return result;
}

}  // namespace benchpr::runner::zero_config_detail
