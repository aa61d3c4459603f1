#include "benchpr/core/evidence/identical_programs.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <map>
#include <utility>

namespace benchpr {

std::vector<std::string> identical_suites(const std::vector<ProgramImage>& images) {
  std::vector<std::string> order;
  // Per suite, per side: path -> digest; and whether any program cannot count.
  struct Sides {
    std::map<std::string, std::string> base, head;
    bool disqualified = false;
  };
  std::map<std::string, Sides> by_suite;
  for (const ProgramImage& x : images) {
    auto [it, added] = by_suite.try_emplace(x.suite);
    if (added) order.push_back(x.suite);
    Sides& s = it->second;
    if (!x.loaded_image || x.digest.empty()) s.disqualified = true;
    auto& side = x.side == Side::Base ? s.base : s.head;
    // The same path twice on one side with two digests cannot be one program.
    if (auto [at, fresh] = side.try_emplace(x.path, x.digest); !fresh && at->second != x.digest)
      s.disqualified = true;
  }
  std::vector<std::string> out;
  for (const std::string& suite : order) {
    const Sides& s = by_suite.at(suite);
    if (s.disqualified || s.base.empty() || s.base != s.head) continue;
    out.push_back(suite);
  }
  return out;
}

namespace {

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

bool ends_with_any(std::string_view s, std::initializer_list<std::string_view> suffixes) {
  return std::any_of(suffixes.begin(), suffixes.end(),
                     [&](std::string_view x) { return s.ends_with(x); });
}

}  // namespace

ChangedFileKind changed_file_kind(std::string_view path) {
  const std::string p = lower(path);
  const auto slash = p.rfind('/');
  const std::string_view name =
      slash == std::string::npos ? std::string_view(p) : std::string_view(p).substr(slash + 1);
  const auto dot = name.rfind('.');
  // ".h" and the like only as an extension: a file named ".h" or "h" is not a source.
  const std::string_view ext =
      dot == std::string_view::npos || dot == 0 ? std::string_view() : name.substr(dot);
  static constexpr std::array<std::string_view, 15> kCompiled = {
      ".c",   ".cc",  ".cpp", ".cxx", ".c++", ".h", ".hh", ".hpp",
      ".hxx", ".h++", ".inl", ".ipp", ".tpp", ".s", ".asm"};
  if (std::find(kCompiled.begin(), kCompiled.end(), ext) != kCompiled.end())
    return ChangedFileKind::CompiledSource;
  // The usual names of a project's documents, wherever they are: bare or as text.
  static constexpr std::array<std::string_view, 5> kText = {"", ".md", ".markdown", ".rst", ".txt"};
  for (std::string_view doc : {"readme", "license", "licence", "copying", "authors", "contributors",
                               "contributing", "changelog", "notice", "code_of_conduct"})
    if (name.starts_with(doc) &&
        std::find(kText.begin(), kText.end(), name.substr(doc.size())) != kText.end())
      return ChangedFileKind::Documentation;
  // Documents at the top of the repository or in its documentation directory; elsewhere a .md or
  // .txt file may well be a benchmark's input (a parser's corpus).
  const bool top = slash == std::string::npos;
  const bool in_docs = p.starts_with("docs/") || p.starts_with("doc/");
  if ((top || in_docs) && ends_with_any(name, {".md", ".markdown", ".rst", ".adoc"}) &&
      !ext.empty())
    return ChangedFileKind::Documentation;
  if (in_docs && name.ends_with(".txt")) return ChangedFileKind::Documentation;
  return ChangedFileKind::Other;
}

ChangedFilesCheck check_changed_files(const std::vector<std::string>& changed) {
  ChangedFilesCheck out;
  for (const std::string& path : changed) {
    switch (changed_file_kind(path)) {
      case ChangedFileKind::CompiledSource:
        out.compiled_sources = true;
        break;
      case ChangedFileKind::Documentation:
        break;
      case ChangedFileKind::Other:
        if (!out.other) out.other = path;
        break;
    }
  }
  return out;
}

std::optional<std::string> first_different_program(const std::vector<ProgramImage>& built) {
  // Per path: each side's (kind of digest, digest); a path twice on one side with two digests is
  // not one program.
  struct Seen {
    std::optional<std::pair<bool, std::string>> base, head;
    bool conflict = false;
  };
  std::map<std::string, Seen> by_path;
  for (const ProgramImage& x : built) {
    Seen& seen = by_path[x.path];
    auto& side = x.side == Side::Base ? seen.base : seen.head;
    const std::pair<bool, std::string> digest{x.loaded_image, x.digest};
    if (side && *side != digest) seen.conflict = true;
    side = digest;
  }
  for (const auto& [path, seen] : by_path)
    if (seen.conflict || !seen.base || !seen.head || *seen.base != *seen.head ||
        seen.base->second.empty())
      return path;
  return std::nullopt;
}

bool decided_by_identical_programs(const BenchmarkAnalysis& b) {
  return b.verdict == Verdict::Unchanged && b.reason == kIdenticalProgramsReason;
}

bool is_identical_suite(const Results& results, std::string_view suite) {
  return std::find(results.identical_suites.begin(), results.identical_suites.end(), suite) !=
         results.identical_suites.end();
}

}  // namespace benchpr
