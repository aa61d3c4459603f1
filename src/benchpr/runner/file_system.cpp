#include "benchpr/runner/file_system.hpp"

#include <filesystem>
#include <system_error>

namespace benchpr::runner {

namespace {

class LocalFileSystem final : public FileSystem {
 public:
  void remove(const std::string& path) override {
    std::error_code ec;
    std::filesystem::remove(path, ec);
  }
  bool exists(const std::string& path) const override {
    std::error_code ec;
    return std::filesystem::exists(std::filesystem::symlink_status(path, ec));
  }
  std::string read(const std::string& path, std::size_t max_bytes) const override {
    return read_text_file(path, max_bytes);
  }
  void write_atomically(const std::string& path, const std::string& content) override {
    write_file_atomically(path, content);
  }
};

}  // namespace

FileSystem& local_file_system() {
  static LocalFileSystem files;
  return files;
}

}  // namespace benchpr::runner
