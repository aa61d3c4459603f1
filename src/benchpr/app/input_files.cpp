#include "benchpr/app/input_files.hpp"

#include <filesystem>
#include <system_error>

#include "benchpr/app/user_error.hpp"

namespace benchpr::app {

void require_existing_files(const std::string& command, const std::vector<std::string>& paths) {
  for (const std::string& path : paths) {
    std::error_code ec;
    // symlink_status: a dangling link is there (its reader refuses links, naming it).
    if (std::filesystem::symlink_status(path, ec).type() == std::filesystem::file_type::not_found)
      throw UserError(command + ": " + path + ": no such file");
  }
}

}  // namespace benchpr::app
