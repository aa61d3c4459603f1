#include "support/released_action.hpp"

#include "support/temp_repo.hpp"

namespace benchpr::testing {

namespace {

std::string first_word(const std::string& text) {
  return text.substr(0, text.find_first_of(" \n"));
}

std::string trimmed_line(const std::string& text) {
  const auto end = text.find('\n');
  return end == std::string::npos ? text : text.substr(0, end);
}

}  // namespace

ReleasedAction::ReleasedAction(const std::string& benchpr_binary) {
  run_checked(
      "cp -r --parents CMakeLists.txt cmake src templates .ci/build-packages action.yml "
      "release " +
          shell_quote(dir_.path()),
      BENCHPR_SOURCE_DIR);
  asset_ = trimmed_line(run_checked("release/asset-name.sh .", dir_.path()));
  write_file(staging_ / "asset/benchpr",
             "#!/bin/sh\nexec " + shell_quote(benchpr_binary) + " \"$@\"\n");
  write_file(staging_ / "asset/runtime-packages", "git\n");
  run_checked("chmod +x asset/benchpr && tar -C asset -czf " + shell_quote(asset_) +
                  " benchpr runtime-packages",
              staging_.path());
  tarball_ = read_file(staging_ / asset_);
  sha256_ = first_word(run_checked("sha256sum " + shell_quote(asset_), staging_.path()));
  commit_checksum(sha256_);
}

std::string ReleasedAction::download_path(const std::string& repository) const {
  return "/" + repository + "/releases/download/v" BENCHPR_VERSION "/" + asset_;
}

void ReleasedAction::commit_checksum(const std::string& sha256) const {
  const std::string sources = first_word(run_checked("release/sources-hash.sh .", dir_.path()));
  std::string sums = "# The released benchpr binaries of v" BENCHPR_VERSION ".\nsources " +
                     sources + "\nversion " BENCHPR_VERSION "\nrun 1\n";
  if (!sha256.empty()) sums += sha256 + "  " + asset_ + "\n";
  write_file(dir_ / "release/SHA256SUMS", sums);
}

}  // namespace benchpr::testing
