#include "benchpr/runner/placement_variants.hpp"

#include <fmt/format.h>

#include "benchpr/core/base/text.hpp"
#include "benchpr/runner/elf_symbols.hpp"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

namespace benchpr::runner {

namespace fs = std::filesystem;

namespace {

constexpr std::size_t kMaxLinkScriptBytes = 1 << 20;
constexpr std::string_view kPlacementDir = ".benchpr-placement";

std::vector<std::string_view> words_of(std::string_view line) {
  std::vector<std::string_view> out;
  std::size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
    const std::size_t start = i;
    while (i < line.size() && line[i] != ' ' && line[i] != '\t') ++i;
    if (i > start) out.push_back(line.substr(start, i - start));
  }
  return out;
}

// The link line's single command: no newline inside, and nothing a shell or CMake's own
// argument parser would read other than as plain words.
bool plain_command(std::string_view line) {
  return line.find_first_of("'\"\\$`;|&<>\n\r") == std::string_view::npos;
}

std::string trimmed(std::string_view text) { return std::string(trim(text)); }

// The index of the compiler driver among a link line's words: a launcher (RULE_LAUNCH_LINK,
// ccache) may come first, so the first word named like a compiler (cc, gcc, g++, c++, clang,
// clang++, with a target prefix or version suffix), else the first word.
std::size_t driver_index(const std::vector<std::string_view>& words) {
  for (std::size_t i = 0; i < words.size(); ++i) {
    std::string name = fs::path(std::string(words[i])).filename().string();
    if (const auto dash = name.find_last_of('-');
        dash != std::string::npos && dash + 1 < name.size() &&
        std::all_of(name.begin() + static_cast<std::ptrdiff_t>(dash) + 1, name.end(),
                    [](char c) { return std::isdigit(static_cast<unsigned char>(c)) || c == '.'; }))
      name.erase(dash);  // "g++-12"
    for (std::string_view compiler : {"clang++", "clang", "g++", "gcc", "c++", "cc"})
      if (name.size() >= compiler.size() &&
          name.compare(name.size() - compiler.size(), compiler.size(), compiler) == 0)
        return i;
  }
  return 0;
}

}  // namespace

std::string pad_assembly(int bytes) {
  return fmt::format(
      "# benchpr placement control: {0} bytes linked before the program's code\n"
      "\t.text\n"
      "\t.p2align 4\n"
      "\t.fill {0}, 1, 0xcc\n"
      "\t.section .note.GNU-stack,\"\",@progbits\n",
      bytes);
}

std::string link_driver(std::string_view line) {
  const auto words = words_of(line);
  return words.empty() ? std::string() : std::string(words[driver_index(words)]);
}

std::optional<std::string> shifted_link_line(std::string_view line, const std::string& cwd,
                                             const std::string& program,
                                             const std::string& pad_object,
                                             const std::string& output) {
  if (!plain_command(line) || !plain_command(pad_object) || !plain_command(output))
    return std::nullopt;
  if (pad_object.find_first_of(" \t") != std::string::npos ||
      output.find_first_of(" \t") != std::string::npos)
    return std::nullopt;
  const auto words = words_of(line);
  std::optional<std::size_t> out_at;
  for (std::size_t i = 1; i + 1 < words.size(); ++i) {
    if (words[i] != "-o") continue;
    if (out_at) return std::nullopt;  // two outputs: not a plain link
    out_at = i + 1;
  }
  const std::size_t driver = driver_index(words);
  if (!out_at || words.size() < 3 || *out_at <= driver + 1) return std::nullopt;
  const fs::path named{std::string(words[*out_at])};
  const fs::path resolved =
      (named.is_absolute() ? named : fs::path(cwd) / named).lexically_normal();
  if (resolved != fs::path(program).lexically_normal()) return std::nullopt;
  // The pad right after the driver: the first object it links.
  std::string out;
  for (std::size_t i = 0; i < words.size(); ++i) {
    if (i > 0) out += ' ';
    out += i == *out_at ? std::string_view(output) : words[i];
    if (i == driver) {
      out += ' ';
      out += pad_object;
    }
  }
  return out;
}

std::optional<LinkScript> find_link_script(const std::string& root, const std::string& program) {
  std::error_code ec;
  std::optional<LinkScript> found;
  for (auto it = fs::recursive_directory_iterator(root, ec); !ec && it != fs::end(it);
       it.increment(ec)) {
    std::error_code e;
    if (it->is_symlink(e)) {
      if (it->is_directory(e)) it.disable_recursion_pending();
      continue;
    }
    if (it->is_directory(e)) {
      if (it->path().filename() == kPlacementDir) it.disable_recursion_pending();
      continue;
    }
    const fs::path& p = it->path();
    if (p.filename() != "link.txt" || !p.parent_path().has_parent_path() ||
        p.parent_path().parent_path().filename() != "CMakeFiles")
      continue;
    if (!it->is_regular_file(e) || it->file_size(e) > kMaxLinkScriptBytes) continue;
    std::ifstream in(p);
    std::stringstream text;
    text << in.rdbuf();
    const std::string line = trimmed(text.str());
    if (line.empty() || line.find('\n') != std::string::npos) continue;
    const fs::path dir = fs::weakly_canonical(p.parent_path().parent_path().parent_path(), e);
    if (e) continue;
    if (!shifted_link_line(line, dir.string(), program, "pad.o", "out")) continue;
    if (found) return std::nullopt;  // two targets write the program: neither is certain
    found = LinkScript{p.string(), dir.string(), line};
  }
  return found;
}

std::optional<std::string> ninja_link_line(std::string_view commands) {
  std::string text = trimmed(commands);
  if (const auto nl = text.rfind('\n'); nl != std::string::npos)
    text = trimmed(text.substr(nl + 1));
  constexpr std::string_view kOpen = ": && ";
  constexpr std::string_view kClose = " && :";
  if (text.size() > kOpen.size() + kClose.size() && text.compare(0, kOpen.size(), kOpen) == 0 &&
      text.compare(text.size() - kClose.size(), kClose.size(), kClose) == 0)
    text = trimmed(text.substr(kOpen.size(), text.size() - kOpen.size() - kClose.size()));
  if (text.empty() || !plain_command(text)) return std::nullopt;
  return text;
}

std::optional<std::string> ninja_build_dir(const std::string& root, const std::string& program) {
  const fs::path top = fs::path(root).lexically_normal();
  for (fs::path dir = fs::path(program).parent_path(); !dir.empty(); dir = dir.parent_path()) {
    const auto rel = dir.lexically_relative(top);
    if (rel.empty() || *rel.begin() == "..") return std::nullopt;
    std::error_code ec;
    if (fs::is_regular_file(dir / "build.ninja", ec)) return dir.string();
    if (dir == top || dir == dir.parent_path()) return std::nullopt;
  }
  return std::nullopt;
}

std::optional<std::string> relinked_differs(const std::string& program,
                                            const std::string& variant) {
  const ElfFunctions built = read_elf_functions(program);
  const ElfFunctions moved = read_elf_functions(variant);
  if (!built.error.empty()) return "its functions cannot be read: " + built.error;
  if (!moved.error.empty())
    return "the relinked program's functions cannot be read: " + moved.error;
  using ByName = std::map<std::string, std::vector<const ElfFunction*>>;
  const auto by_name = [](const ElfFunctions& file) {
    ByName out;
    for (const ElfFunction& f : file.functions)
      if (f.size > 0) out[f.name].push_back(&f);
    return out;
  };
  const ByName a = by_name(built);
  const ByName b = by_name(moved);
  if (a.empty()) return std::string("it names no function to compare");
  for (const auto& [name, fs_a] : a) {
    const auto it = b.find(name);
    if (it == b.end() || it->second.size() != fs_a.size())
      return fmt::format("`{}` is not in it as built", name);
    for (std::size_t i = 0; i < fs_a.size(); ++i)
      if (!same_code(*fs_a[i], built, *it->second[i], moved))
        return fmt::format("`{}` is other code", name);
  }
  for (const auto& [name, fs_b] : b)
    if (!a.count(name)) return fmt::format("`{}` is a function the program as built lacks", name);
  return std::nullopt;
}

std::string placement_dir(const std::string& root) {
  return (fs::path(root) / kPlacementDir).string();
}

bool is_placement_variant(const std::string& relative) {
  return relative.rfind(std::string(kPlacementDir) + "/", 0) == 0;
}

std::string placement_variant_path(const std::string& root, const std::string& relative,
                                   int shift) {
  return (fs::path(placement_dir(root)) / fmt::format("shift{}", shift) / relative).string();
}

}  // namespace benchpr::runner
