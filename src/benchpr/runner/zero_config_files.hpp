// The project's own files for the zero-config scan: found by name under the project, in its own
// directories only (no build output, no fetched dependencies), bounded in depth and in count,
// and read bounded in bytes. A best effort: a file that cannot be read reads as "".
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace benchpr::runner::zero_config_detail {

// The text of `path`, or "" when it cannot be read or is larger than the scan reads.
std::string read_text(const std::filesystem::path& path);

// Files called `file_name` (or, with a leading '*', ending in the rest: "*.cmake") under `root`
// (root first, then by path), a few directories deep.
std::vector<std::filesystem::path> find_project_files(const std::filesystem::path& root,
                                                      const std::string& file_name);

}  // namespace benchpr::runner::zero_config_detail
