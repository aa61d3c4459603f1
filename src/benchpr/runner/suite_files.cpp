#include "benchpr/runner/suite_files.hpp"

#include <sys/stat.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include <fmt/format.h>

#include "benchpr/runner/file_digest.hpp"
#include "benchpr/runner/placement_variants.hpp"

namespace benchpr::runner {

namespace fs = std::filesystem;

namespace {

std::string side_word(Side s) { return s == Side::Base ? "base" : "PR"; }
Side other(Side s) { return s == Side::Base ? Side::Head : Side::Base; }

std::string short_digest(const std::string& d) { return d.substr(0, 12); }

bool is_path_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' ||
         c == '/' || c == '_' || c == '-' || c == '+';
}

bool below(const std::string& path, const std::string& root) {
  return path.size() > root.size() && path.compare(0, root.size(), root) == 0 &&
         path[root.size()] == '/';
}

// The file at `path` resolved to its real path, or "" when it is not a regular file.
std::string real_file(const std::string& path) {
  std::error_code ec;
  const fs::path real = fs::canonical(path, ec);
  if (ec || !fs::is_regular_file(real, ec)) return "";
  return real.string();
}

std::string read_prefix(const std::string& path, std::size_t max) {
  std::ifstream in(path, std::ios::binary);
  std::string bytes(max, '\0');
  in.read(bytes.data(), static_cast<std::streamsize>(max));
  bytes.resize(static_cast<std::size_t>(std::max<std::streamsize>(0, in.gcount())));
  return bytes;
}

template <typename T>
std::optional<T> read_le(const std::string& bytes, std::uint64_t offset) {
  if (offset > bytes.size() || bytes.size() - offset < sizeof(T)) return std::nullopt;
  T v{};
  std::memcpy(&v, bytes.data() + offset, sizeof(T));  // little-endian host (x86-64, aarch64)
  return v;
}

// DT_NEEDED names and the search path (DT_RUNPATH, else DT_RPATH) of a 64-bit LE ELF file.
struct DynamicInfo {
  std::vector<std::string> needed;
  std::string search_path;
  std::string interpreter;  // PT_INTERP, "" when none
};

std::optional<DynamicInfo> read_dynamic(const std::string& path) {
  constexpr std::uint64_t kMaxElfBytes = 1ull << 30;
  std::error_code ec;
  const auto size = fs::file_size(path, ec);
  if (ec || size < 64 || size > kMaxElfBytes) return std::nullopt;
  const std::string bytes = read_prefix(path, static_cast<std::size_t>(size));
  if (bytes.compare(0, 4,
                    "\x7f"
                    "ELF") != 0 ||
      bytes[4] != 2 || bytes[5] != 1)
    return std::nullopt;
  const auto phoff = read_le<std::uint64_t>(bytes, 0x20);
  const auto phentsize = read_le<std::uint16_t>(bytes, 0x36);
  const auto phnum = read_le<std::uint16_t>(bytes, 0x38);
  if (!phoff || !phentsize || !phnum || *phentsize < 56) return std::nullopt;
  struct Load {
    std::uint64_t offset, vaddr, filesz;
  };
  std::vector<Load> loads;
  std::optional<std::uint64_t> dynamic_offset;
  std::uint64_t dynamic_size = 0;
  std::string interpreter;
  for (std::uint64_t i = 0; i < *phnum; ++i) {
    const std::uint64_t at = *phoff + i * *phentsize;
    const auto type = read_le<std::uint32_t>(bytes, at);
    const auto offset = read_le<std::uint64_t>(bytes, at + 8);
    const auto vaddr = read_le<std::uint64_t>(bytes, at + 16);
    const auto filesz = read_le<std::uint64_t>(bytes, at + 32);
    if (!type || !offset || !vaddr || !filesz) return std::nullopt;
    if (*type == 1) loads.push_back({*offset, *vaddr, *filesz});
    if (*type == 2) {
      dynamic_offset = *offset;
      dynamic_size = *filesz;
    }
    if (*type == 3 && *offset < bytes.size())
      interpreter = std::string(bytes.c_str() + *offset,
                                strnlen(bytes.c_str() + *offset,
                                        std::min<std::uint64_t>(*filesz, bytes.size() - *offset)));
  }
  if (!dynamic_offset) return DynamicInfo{{}, {}, interpreter};  // static: needs nothing
  std::vector<std::uint64_t> needed;
  std::optional<std::uint64_t> strtab, runpath, rpath;
  for (std::uint64_t at = *dynamic_offset; at + 16 <= *dynamic_offset + dynamic_size; at += 16) {
    const auto tag = read_le<std::int64_t>(bytes, at);
    const auto val = read_le<std::uint64_t>(bytes, at + 8);
    if (!tag || !val || *tag == 0) break;
    if (*tag == 1) needed.push_back(*val);
    if (*tag == 5) strtab = *val;
    if (*tag == 15) rpath = *val;
    if (*tag == 29) runpath = *val;
  }
  if (!strtab) return DynamicInfo{};
  std::optional<std::uint64_t> strtab_offset;
  for (const Load& l : loads)
    if (*strtab >= l.vaddr && *strtab < l.vaddr + l.filesz)
      strtab_offset = *strtab - l.vaddr + l.offset;
  if (!strtab_offset) return std::nullopt;
  const auto string_at = [&](std::uint64_t index) -> std::string {
    const std::uint64_t at = *strtab_offset + index;
    if (at >= bytes.size()) return "";
    return std::string(bytes.c_str() + at, strnlen(bytes.c_str() + at, bytes.size() - at));
  };
  DynamicInfo info;
  info.interpreter = interpreter;
  for (std::uint64_t n : needed) info.needed.push_back(string_at(n));
  if (runpath)
    info.search_path = string_at(*runpath);
  else if (rpath)
    info.search_path = string_at(*rpath);
  return info;
}

std::vector<std::string> search_dirs(const std::string& search_path, const std::string& origin) {
  std::vector<std::string> dirs;
  std::istringstream in(search_path);
  for (std::string dir; std::getline(in, dir, ':');) {
    for (const std::string token : {"${ORIGIN}", "$ORIGIN"})
      for (auto pos = dir.find(token); pos != std::string::npos; pos = dir.find(token))
        dir.replace(pos, token.size(), origin);
    if (!dir.empty()) dirs.push_back(dir);
  }
  return dirs;
}

// The manifest materialise writes beside the tracked files (git/snapshot_writer.cpp): a header
// line, then 'f' + path + NUL per tracked file.
std::vector<std::string> tracked_files(const std::string& root) {
  std::ifstream in(root + "/.benchpr-manifest", std::ios::binary);
  if (!in) return {};
  std::ostringstream ss;
  ss << in.rdbuf();
  const std::string text = ss.str();
  const std::string header = "benchpr-manifest 1\n";
  if (text.compare(0, header.size(), header) != 0) return {};
  std::vector<std::string> files;
  for (std::size_t pos = header.size(); pos < text.size();) {
    const auto end = text.find('\0', pos);
    if (end == std::string::npos) break;
    if (end > pos + 1 && text[pos] == 'f') files.push_back(text.substr(pos + 1, end - pos - 1));
    pos = end + 1;
  }
  return files;
}

std::string real_dir(const std::string& dir) {
  std::error_code ec;
  const fs::path real = fs::canonical(dir, ec);
  return ec ? dir : real.string();
}

void make_dirs(const std::string& dir) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec)
    throw FileDigestError("cannot create " + dir + " for the executables' copies: " + ec.message());
}

}  // namespace

namespace {

// Where the program word of `command` starts and how long it is: leading assignments
// (NAME=value, the value plain, in single quotes as `{out}` is substituted, or `{out}`) are
// skipped.
std::optional<std::pair<std::size_t, std::size_t>> program_span(std::string_view command) {
  std::size_t start = 0;
  const auto skip_blanks = [&] {
    while (start < command.size() && (command[start] == ' ' || command[start] == '\t')) ++start;
  };
  for (skip_blanks();; skip_blanks()) {
    std::size_t end = start;
    while (end < command.size() && is_path_char(command[end])) ++end;
    if (end == start) return std::nullopt;
    if (end == command.size() || command[end] == ' ' || command[end] == '\t')
      return std::make_pair(start, end - start);
    // An assignment: a name, '=', then a plain or single-quoted value.
    const std::string_view name = command.substr(start, end - start);
    if (command[end] != '=' || name.empty() || name.find_first_of("./+-") != std::string::npos ||
        (name[0] >= '0' && name[0] <= '9'))
      return std::nullopt;
    std::size_t v = end + 1;
    if (v < command.size() && command[v] == '\'') {
      const auto close = command.find('\'', v + 1);
      if (close == std::string_view::npos) return std::nullopt;
      v = close + 1;
    } else if (command.substr(v, 5) == "{out}") {
      v += 5;  // the configured command, before benchpr substitutes the results file's path
    } else {
      while (v < command.size() && is_path_char(command[v])) ++v;
    }
    if (v < command.size() && command[v] != ' ' && command[v] != '\t') return std::nullopt;
    start = v;
  }
}

}  // namespace

std::optional<std::string> leading_program(std::string_view command) {
  const auto span = program_span(command);
  if (!span) return std::nullopt;
  return std::string(command.substr(span->first, span->second));
}

WholeTreeState whole_tree_state(const std::string& root) {
  WholeTreeState state;
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(root, ec); !ec && it != fs::end(it);
       it.increment(ec)) {
    struct stat st {};
    if (::lstat(it->path().c_str(), &st) != 0 || S_ISDIR(st.st_mode)) continue;
    state[it->path().lexically_relative(root).string()] = {
        st.st_ino, st.st_size,
        static_cast<long long>(st.st_ctim.tv_sec) * 1000000000LL + st.st_ctim.tv_nsec};
  }
  return state;
}

std::optional<std::string> first_tree_change(const WholeTreeState& before,
                                             const WholeTreeState& after) {
  for (const auto& [rel, was] : before) {
    const auto now = after.find(rel);
    if (now == after.end()) return rel + " was removed";
    if (now->second != was) return rel + " was rewritten";
  }
  for (const auto& [rel, _] : after)
    if (!before.count(rel)) return rel + " was added";
  return std::nullopt;
}

WholeTreeState untracked_state(const std::string& root) {
  WholeTreeState state = whole_tree_state(root);
  for (const std::string& rel : tracked_files(root)) state.erase(rel);
  state.erase(".benchpr-manifest");
  return state;
}

void save_tree_state(const WholeTreeState& state, const std::string& path) {
  std::string text = "benchpr-tree 1\n";
  for (const auto& [rel, s] : state)
    text += fmt::format("{} {} {} {}", std::get<0>(s), std::get<1>(s), std::get<2>(s), rel) +
            std::string(1, '\0');
  const std::string tmp = path + ".tmp";
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    out << text;
    if (!out) return;  // a missing record only costs a clean build next time
  }
  std::error_code ec;
  fs::rename(tmp, path, ec);
}

std::optional<WholeTreeState> load_tree_state(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream ss;
  ss << in.rdbuf();
  const std::string text = ss.str();
  const std::string header = "benchpr-tree 1\n";
  if (text.compare(0, header.size(), header) != 0) return std::nullopt;
  WholeTreeState state;
  for (std::size_t pos = header.size(); pos < text.size();) {
    const auto end = text.find('\0', pos);
    if (end == std::string::npos) return std::nullopt;
    std::istringstream entry(text.substr(pos, end - pos));
    unsigned long long inode = 0;
    long long size = 0, ctime = 0;
    if (!(entry >> inode >> size >> ctime) || entry.get() != ' ') return std::nullopt;
    std::string rel;
    std::getline(entry, rel, '\0');
    state[rel] = {inode, size, ctime};
    pos = end + 1;
  }
  return state;
}

std::optional<std::string> first_future_dated(const std::string& root, long long now_ns) {
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(root, ec); !ec && it != fs::end(it);
       it.increment(ec)) {
    struct stat st {};
    if (::lstat(it->path().c_str(), &st) != 0) continue;
    const long long mtime =
        static_cast<long long>(st.st_mtim.tv_sec) * 1000000000LL + st.st_mtim.tv_nsec;
    if (mtime > now_ns) return it->path().lexically_relative(root).string();
  }
  return std::nullopt;
}

bool is_elf_file(const std::string& path) {
  return read_prefix(path, 4) == std::string(
                                     "\x7f"
                                     "ELF");
}

std::optional<std::string> loads_from_working_directory(const std::string& elf_path) {
  const auto info = read_dynamic(elf_path);
  if (!info) return "its program headers cannot be read";
  if (!info->interpreter.empty() && info->interpreter.front() != '/')
    return "its interpreter " + info->interpreter + " is a relative path";
  for (const std::string& name : info->needed)
    if (name.find('/') != std::string::npos && name.front() != '/')
      return "it needs " + name + ", a relative path";
  std::istringstream in(info->search_path);
  for (std::string dir; std::getline(in, dir, ':');)
    if (!dir.empty() && dir.front() != '/' && dir.rfind("$ORIGIN", 0) != 0 &&
        dir.rfind("${ORIGIN}", 0) != 0)
      return "its library search path holds " + dir + ", a relative directory";
  return std::nullopt;
}

std::vector<LibraryFile> worktree_libraries(const std::string& elf_path, const std::string& root) {
  std::vector<LibraryFile> found;
  std::set<std::string> seen;
  std::vector<std::string> todo = {elf_path};
  while (!todo.empty() && found.size() < 256) {
    const std::string file = todo.back();
    todo.pop_back();
    const auto info = read_dynamic(file);
    if (!info) continue;
    const std::string origin = fs::path(real_file(file)).parent_path().string();
    const auto dirs = search_dirs(info->search_path, origin);
    for (const std::string& name : info->needed) {
      if (name.empty() || name.find('/') != std::string::npos || seen.count(name)) continue;
      for (const std::string& d : dirs) {
        const std::string real = real_file(d + "/" + name);
        if (real.empty()) continue;
        if (below(real, root)) {
          seen.insert(name);
          found.push_back({name, real, "", {}});
          todo.push_back(real);
        }
        break;  // the loader takes the first it finds
      }
    }
  }
  return found;
}

SuiteFiles::SuiteFiles(std::string copy_root, std::string base_dir, std::string head_dir)
    : copy_root_(std::move(copy_root)),
      base_dir_(std::move(base_dir)),
      head_dir_(std::move(head_dir)) {}

std::string SuiteFiles::side_copy_dir(Side side) const {
  return copy_root_ + (side == Side::Base ? "/base" : "/head");
}

std::string SuiteFiles::copy_path(const std::string& suite, Side side) const {
  const SuiteProgram& p = programs_.at({suite, side});
  return fmt::format("{}/{}/{}", side_copy_dir(side), suite_index_.at(suite),
                     fs::path(p.word).filename().string());
}

std::string SuiteFiles::library_dir(const std::string& suite, Side side) const {
  return fmt::format("{}/{}/lib", side_copy_dir(side), suite_index_.at(suite));
}

SuiteFiles::TreeState SuiteFiles::tree_state(Side side) const {
  TreeState state;
  const std::string& root = dir(side);
  for (const std::string& rel : tracked_files(root)) {
    struct stat st {};
    FileState f;
    if (::lstat((root + "/" + rel).c_str(), &st) == 0) {
      f.exists = true;
      f.inode = st.st_ino;
      f.size = st.st_size;
      f.ctime_ns = static_cast<long long>(st.st_ctim.tv_sec) * 1000000000LL + st.st_ctim.tv_nsec;
    }
    state[rel] = f;
  }
  return state;
}

std::vector<std::string> SuiteFiles::record(const std::vector<SuiteConfig>& suites, bool warn_stale,
                                            const std::vector<int>& placement_shifts) {
  std::vector<std::string> lines;
  int index = 0;
  // The worktree paths the builds wrote into the programs, replaced in their loaded images only
  // when both have the same length (benchpr's own worktrees do).
  const bool same_length = real_dir(base_dir_).size() == real_dir(head_dir_).size();
  for (const SuiteConfig& suite : suites) {
    suite_index_[suite.name] = index++;
    const auto word = leading_program(suite.run);
    for (Side side : {Side::Base, Side::Head}) {
      const std::string root = real_dir(dir(side));
      const std::string real =
          word ? real_file(word->front() == '/' ? *word : dir(side) + "/" + *word) : "";
      if (!real.empty() && !below(real, root) && word->find('/') != std::string::npos) {
        if (side == Side::Base)
          lines.push_back(fmt::format(
              "warning: suite {} runs {}, a file outside the worktrees: both sides run that same "
              "file, so its results say nothing about the revisions",
              suite.name, *word));
        continue;
      }
      if (real.empty() || !below(real, root)) {
        if (side == Side::Base)
          lines.push_back(fmt::format(
              "suite {} runs a command, not an executable of the worktree: it is not copied per "
              "round; the worktree's tracked files are checked before each run",
              suite.name));
        continue;
      }
      SuiteProgram p;
      p.word = *word;
      p.path = real;
      p.digest = sha256_file(real);
      p.copied = is_elf_file(real);
      // What another file the loader finds through the working directory would be is not in
      // the loaded image: such a program never counts as identical.
      const auto loaded = [&](const std::string& file) {
        LoadedImageDigest d = loaded_image_digest(file, same_length ? root : "");
        if (d.elf && loads_from_working_directory(file)) d.elf = false;
        return d;
      };
      p.image = loaded(real);
      if (p.copied) {
        p.libraries = worktree_libraries(real, root);
        for (LibraryFile& lib : p.libraries) {
          lib.digest = sha256_file(lib.path);
          lib.image = loaded(lib.path);
        }
        const std::string relative = fs::path(real).lexically_relative(root).string();
        for (std::size_t k = 1; k < placement_shifts.size(); ++k) {
          PlacementVariant v;
          v.shift = placement_shifts[k];
          v.path = placement_variant_path(root, relative, v.shift);
          // Only the timed programs are relinked: a program of a suite of counts only runs as
          // built in every round. (One removed since its relink is missed by a resumed run's
          // digests, which then lack it.)
          std::error_code missing;
          if (!fs::exists(v.path, missing)) continue;
          try {
            v.digest = sha256_file(v.path);
          } catch (const FileDigestError&) {
            // Gone: the round that would copy it ends the comparison, naming it.
          }
          p.variants.push_back(std::move(v));
        }
      } else if (side == Side::Base) {
        lines.push_back(fmt::format(
            "suite {} runs {}, a script: it is checked before each run but runs in place, and "
            "what it starts is not copied per round",
            suite.name, *word));
      }
      programs_[{suite.name, side}] = std::move(p);
    }
  }
  for (Side side : {Side::Base, Side::Head}) trees_[side] = tree_state(side);
  if (!warn_stale) return lines;
  // Without a build of benchpr's, a program the checkout did not write and older than the
  // newest tracked file is a build output left from another revision, not this one's code.
  for (const auto& [key, p] : programs_) {
    const TreeState& tree = trees_[key.second];
    const std::string rel = p.path.substr(real_dir(dir(key.second)).size() + 1);
    if (tree.count(rel)) continue;
    long long newest = 0;
    for (const auto& [_, f] : tree) newest = std::max(newest, f.ctime_ns);
    struct stat st {};
    if (::stat(p.path.c_str(), &st) != 0) continue;
    const long long mtime =
        static_cast<long long>(st.st_mtim.tv_sec) * 1000000000LL + st.st_mtim.tv_nsec;
    if (mtime < newest)
      lines.push_back(fmt::format(
          "warning: the {}'s {} is older than the checkout of its revision: it was not built "
          "from that revision (left by an earlier build?), so its results may not be the "
          "revision's; add a `build:` to the configuration",
          side_word(key.second), p.word));
  }
  return lines;
}

std::size_t remove_untracked_files(const std::string& root) {
  const std::vector<std::string> tracked = tracked_files(root);
  // No manifest (or an unreadable one): nothing is known to be a build output.
  if (tracked.empty()) return 0;
  const std::set<std::string> keep(tracked.begin(), tracked.end());
  std::vector<fs::path> doomed;
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(root, ec); !ec && it != fs::end(it);
       it.increment(ec)) {
    const std::string rel = it->path().lexically_relative(root).string();
    if (rel == ".benchpr-manifest") continue;
    if (it->is_directory(ec) && !it->is_symlink(ec)) continue;
    if (!keep.count(rel)) doomed.push_back(it->path());
  }
  std::size_t removed = 0;
  for (const fs::path& p : doomed) removed += fs::remove(p, ec) ? 1 : 0;
  return removed;
}

namespace {

// An ELF executable or shared library (not an object file or a core dump), by its header.
bool is_elf_program(const std::string& path) {
  constexpr char kMagic[] = {0x7f, 'E', 'L', 'F'};
  const std::string head = read_prefix(path, 18);
  if (head.size() < 18 || head.compare(0, 4, kMagic, 4) != 0) return false;
  const auto type = read_le<std::uint16_t>(head, 16);
  return type && (*type == 2 || *type == 3);  // ET_EXEC, ET_DYN (little-endian files)
}

void add_built_programs(const std::string& dir, Side side, bool same_length,
                        std::vector<ProgramImage>& out) {
  const std::string root = real_dir(dir);
  const std::vector<std::string> tracked = tracked_files(dir);
  const std::set<std::string> keep(tracked.begin(), tracked.end());
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(root, ec); !ec && it != fs::end(it);
       it.increment(ec)) {
    const std::string rel = it->path().lexically_relative(root).generic_string();
    if (rel == ".benchpr-manifest" || keep.count(rel)) continue;
    std::error_code e;
    // The placement control's relinked programs are benchpr's, made from the ones built.
    if (it->path() == fs::path(placement_dir(root))) {
      it.disable_recursion_pending();
      continue;
    }
    if (it->is_symlink(e)) {
      const fs::path target = fs::read_symlink(it->path(), e);
      if (e || !is_elf_program(it->path().string())) continue;
      std::string text = target.string();
      if (text.rfind(root + "/", 0) == 0) text = "<worktree>" + text.substr(root.size());
      out.push_back({"", side, rel, "-> " + text, false});
      continue;
    }
    if (!it->is_regular_file(e) || !is_elf_program(it->path().string())) continue;
    ProgramImage image{"", side, rel, "", false};
    try {
      const LoadedImageDigest d = loaded_image_digest(it->path().string(), same_length ? root : "");
      image.digest = d.digest;
      image.loaded_image = d.elf;
    } catch (const FileDigestError&) {
      // No digest: never the same as the other side's.
    }
    out.push_back(std::move(image));
  }
}

}  // namespace

std::optional<std::vector<ProgramImage>> built_programs(const std::string& base_dir,
                                                        const std::string& head_dir) {
  if (tracked_files(base_dir).empty() || tracked_files(head_dir).empty()) return std::nullopt;
  const bool same_length = real_dir(base_dir).size() == real_dir(head_dir).size();
  std::vector<ProgramImage> out;
  add_built_programs(base_dir, Side::Base, same_length, out);
  add_built_programs(head_dir, Side::Head, same_length, out);
  return out;
}

std::vector<SuiteFiles::RecordedFile> SuiteFiles::recorded_files() const {
  std::vector<RecordedFile> out;
  for (const auto& [key, p] : programs_) {
    const std::string root = real_dir(dir(key.second));
    const auto relative = [&](const std::string& path) {
      return fs::path(path).lexically_relative(root).generic_string();
    };
    out.push_back({key.first, key.second, relative(p.path), &p.digest, &p.image});
    for (const LibraryFile& lib : p.libraries)
      out.push_back({key.first, key.second, relative(lib.path), &lib.digest, &lib.image});
  }
  return out;
}

std::vector<ExecutableDigest> SuiteFiles::digests() const {
  std::vector<ExecutableDigest> out;
  for (const RecordedFile& f : recorded_files())
    out.push_back({f.suite, f.side, f.relative_path, *f.digest});
  // The relinked variants are what other rounds run: a resumed comparison checks them too.
  for (const auto& [key, p] : programs_)
    for (const PlacementVariant& v : p.variants)
      out.push_back(
          {key.first, key.second,
           fs::path(v.path).lexically_relative(real_dir(dir(key.second))).generic_string(),
           v.digest.empty() ? std::string(64, '0') : v.digest});
  return out;
}

const std::string& SuiteFiles::source_of(const SuiteProgram& p, int slot) {
  return slot > 0 && static_cast<std::size_t>(slot) <= p.variants.size()
             ? p.variants[static_cast<std::size_t>(slot) - 1].path
             : p.path;
}

const std::string& SuiteFiles::digest_of(const SuiteProgram& p, int slot) {
  return slot > 0 && static_cast<std::size_t>(slot) <= p.variants.size()
             ? p.variants[static_cast<std::size_t>(slot) - 1].digest
             : p.digest;
}

std::vector<ProgramImage> SuiteFiles::images() const {
  std::vector<ProgramImage> out;
  for (const RecordedFile& f : recorded_files())
    out.push_back({f.suite, f.side, f.relative_path, f.image->digest, f.image->elf});
  return out;
}

void SuiteFiles::copy_side(const std::string& suite, Side side, const SuiteProgram& p, int slot) {
  const std::string to = copy_path(suite, side);
  make_dirs(fs::path(to).parent_path().string());
  const std::string& from = source_of(p, slot);
  const std::string& expected = digest_of(p, slot);
  const bool relinked = slot > 0 && static_cast<std::size_t>(slot) <= p.variants.size();
  const std::string what =
      relinked ? fmt::format("benchmark executable {} relinked at +{} bytes ({})", p.word,
                             p.variants[static_cast<std::size_t>(slot) - 1].shift, from)
               : fmt::format("benchmark executable {}", p.word);
  std::string digest;
  try {
    digest = copy_file_hashed(from, to);
  } catch (const Error& e) {
    if (!relinked) throw;
    throw TamperError(
        fmt::format("the {}'s {} cannot be copied ({}): code run by the {} removed "
                    "it; the comparison is void",
                    side_word(side), what, e.what(), side_word(other(side))));
  }
  if (digest != expected)
    throw TamperError(
        fmt::format("the {}'s {} changed after its build (SHA-256 {} then, {} now): code "
                    "run by the {} rewrote it between rounds; the comparison is void",
                    side_word(side), what, short_digest(expected), short_digest(digest),
                    side_word(other(side))));
  copy_digests_[{suite, side}] = digest;
  if (p.libraries.empty()) return;
  make_dirs(library_dir(suite, side));
  for (const LibraryFile& lib : p.libraries) {
    const std::string got = copy_file_hashed(lib.path, library_dir(suite, side) + "/" + lib.name);
    if (got != lib.digest)
      throw TamperError(fmt::format(
          "the {}'s shared library {} changed after its build (SHA-256 {} then, {} now): code run "
          "by the {} rewrote it between rounds; the comparison is void",
          side_word(side), lib.path, short_digest(lib.digest), short_digest(got),
          side_word(other(side))));
  }
}

void SuiteFiles::begin_round(int slot) {
  end_round();
  in_round_ = true;
  slot_ = slot;
  for (const auto& [key, p] : programs_)
    if (p.copied) copy_side(key.first, key.second, p, slot);
}

void SuiteFiles::end_round() {
  in_round_ = false;
  copy_digests_.clear();
  std::error_code ec;
  for (Side side : {Side::Base, Side::Head}) fs::remove_all(side_copy_dir(side), ec);
}

void SuiteFiles::verify(const std::string& suite, Side side) const {
  const std::string who = side_word(side);
  const std::string by = side_word(other(side));
  if (auto it = programs_.find({suite, side}); it != programs_.end()) {
    const SuiteProgram& p = it->second;
    const bool copy = p.copied && in_round_;
    const std::string file = copy ? copy_path(suite, side) : p.path;
    std::string now;
    try {
      now = sha256_file(file);
    } catch (const FileDigestError& e) {
      throw TamperError(
          fmt::format("the {}'s benchmark executable {} is gone since its build ({}): "
                      "code run by the {} removed it; the comparison is void",
                      who, p.word, e.what(), by));
    }
    const std::string& expected = copy ? digest_of(p, slot_) : p.digest;
    if (now != expected)
      throw TamperError(fmt::format(
          "the {}'s benchmark {} {} changed after its build (SHA-256 {} then, {} now): code run "
          "by the {} rewrote it between rounds; the comparison is void",
          who, copy ? "executable's copy" : "program", copy ? file : p.word, short_digest(expected),
          short_digest(now), by));
    if (copy)
      for (const LibraryFile& lib : p.libraries) {
        const std::string lib_copy = library_dir(suite, side) + "/" + lib.name;
        std::string got;
        try {
          got = sha256_file(lib_copy);
        } catch (const FileDigestError&) {
        }
        if (got != lib.digest)
          throw TamperError(fmt::format(
              "the {}'s copy of the shared library {} changed before its run: code run by the {} "
              "rewrote it; the comparison is void",
              who, lib.name, by));
      }
  }
  const auto known = trees_.find(side);
  if (known == trees_.end()) return;
  const TreeState now = tree_state(side);
  for (const auto& [rel, before] : known->second) {
    const auto it = now.find(rel);
    if (it != now.end() && it->second == before) continue;
    throw TamperError(fmt::format(
        "the {}'s tracked file {} changed since the {}'s previous run: code run by the {} "
        "rewrote it between rounds; the comparison is void",
        who, rel, who, by));
  }
}

void SuiteFiles::after_run(Side side) {
  if (trees_.count(side)) trees_[side] = tree_state(side);
}

std::string SuiteFiles::command_for(const std::string& suite, Side side,
                                    const std::string& command) const {
  const auto it = programs_.find({suite, side});
  if (it == programs_.end() || !it->second.copied || !in_round_) return command;
  const auto span = program_span(command);
  if (!span || command.compare(span->first, span->second, it->second.word) != 0) return command;
  return command.substr(0, span->first) + copy_path(suite, side) +
         command.substr(span->first + span->second);
}

std::vector<std::pair<std::string, std::string>> SuiteFiles::environment_for(
    const std::string& suite, Side side) const {
  // Set on both sides when either needs it, so the environments keep equal lengths.
  bool libraries = false;
  for (Side s : {Side::Base, Side::Head})
    if (auto it = programs_.find({suite, s}); it != programs_.end() && it->second.copied)
      libraries = libraries || !it->second.libraries.empty();
  if (!libraries || !in_round_ || !suite_index_.count(suite)) return {};
  std::string value = library_dir(suite, side);
  if (const char* inherited = std::getenv("LD_LIBRARY_PATH"); inherited && *inherited)
    value += std::string(":") + inherited;
  return {{"LD_LIBRARY_PATH", value}};
}

}  // namespace benchpr::runner
