#include "benchpr/runner/zero_config_files.hpp"

#include <algorithm>
#include <fstream>
#include <sstream>
#include <string_view>

namespace benchpr::runner::zero_config_detail {

namespace fs = std::filesystem;

namespace {

// Deep enough for bench/ and modules/*/bench/, shallow enough to stay quick on big trees.
constexpr int kMaxProjectDepth = 4;
constexpr std::size_t kMaxProjectFiles = 20000;
constexpr std::uintmax_t kMaxTextFileBytes = 4u << 20;

// Directories that hold other people's code or build output, never the project's own setup.
bool skipped_source_dir(const std::string& name) {
  return name.empty() || name[0] == '.' || name == "CMakeFiles" || name == "_deps" ||
         name == "node_modules" || name == "target" || name.rfind("build", 0) == 0 ||
         name.rfind("cmake-build", 0) == 0;
}

}  // namespace

std::string read_text(const fs::path& path) {
  std::error_code ec;
  const auto size = fs::file_size(path, ec);
  if (ec || size > kMaxTextFileBytes) return "";
  std::ifstream in(path, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// Within kMaxProjectDepth, and at most kMaxProjectFiles visited.
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

}  // namespace benchpr::runner::zero_config_detail
