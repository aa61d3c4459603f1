// Finding the Google Benchmark executables a zero-config build produced
// (discover_benchmark_suites).
#include <algorithm>
#include <array>
#include <filesystem>
#include <fstream>
#include <map>

#include "benchpr/core/base/text.hpp"
#include "benchpr/runner/zero_config.hpp"
#include "benchpr/runner/zero_config_scan.hpp"

namespace benchpr::runner {

namespace {

namespace fs = std::filesystem;
using zero_config_detail::plain_word;
using zero_config_detail::suite_name;

constexpr std::uintmax_t kMaxExecutableBytes = 1ull << 30;

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
    suite.format = FormatKind::GoogleBenchmark;
    suites.push_back(std::move(suite));
  }
  return suites;
}

}  // namespace benchpr::runner
