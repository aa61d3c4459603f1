// benchpr's action as a workflow finds it at a release ref: a copy of the action's sources whose
// release/SHA256SUMS lists one binary for this system, and that binary's release asset (a tar.gz
// of benchpr and runtime-packages, as release/build-binary.sh packs it). The binary in the asset
// is a script that runs the benchpr under test, so a job that uses the asset runs real benchpr.
#pragma once

#include <string>

#include "support/temp_dir.hpp"

namespace benchpr::testing {

class ReleasedAction {
 public:
  // release/SHA256SUMS lists the asset with its own SHA-256 (commit_checksum changes that).
  explicit ReleasedAction(const std::string& benchpr_binary);

  const std::string& dir() const { return dir_.path(); }   // the action's checkout
  const std::string& asset() const { return asset_; }      // its file name
  const std::string& tarball() const { return tarball_; }  // its bytes
  const std::string& sha256() const { return sha256_; }
  // Where the GitHub server serves it for `repository` (owner/name).
  std::string download_path(const std::string& repository) const;
  // Rewrites release/SHA256SUMS with this line for the asset, or none (`sha256` empty).
  void commit_checksum(const std::string& sha256) const;

 private:
  TempDir dir_;
  TempDir staging_;
  std::string asset_;
  std::string tarball_;
  std::string sha256_;
};

}  // namespace benchpr::testing
