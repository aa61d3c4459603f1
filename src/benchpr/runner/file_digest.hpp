// SHA-256 of files, and a copy that hashes what it writes: how benchpr knows that the executable
// a side runs is the one its build made. SHA-256 rather than a fast non-cryptographic hash because
// the other side's code is the adversary: it could craft a file with the same 64-bit FNV or xxHash.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "benchpr/core/base/error.hpp"

namespace benchpr::runner {

class FileDigestError : public Error {
 public:
  explicit FileDigestError(const std::string& message) : Error(ErrorCategory::Input, message) {}
};

// Incremental SHA-256 (FIPS 180-4).
class Sha256 {
 public:
  Sha256();
  void update(const void* data, std::size_t size);
  // The digest as 64 lowercase hex digits; the object must not be updated afterwards.
  std::string hex_digest();

 private:
  void block(const unsigned char* p);
  std::array<std::uint32_t, 8> h_;
  std::array<unsigned char, 64> buffer_{};
  std::size_t buffered_ = 0;
  std::uint64_t total_ = 0;
};

std::string sha256_hex(std::string_view bytes);

// The SHA-256 of a regular file (symbolic links are followed: a build may link its output).
// Throws FileDigestError naming the path when it cannot be read.
std::string sha256_file(const std::string& path);

// Copies the regular file `from` to `to` (created, or replaced, with `from`'s permission bits)
// and returns the SHA-256 of the bytes written, read once. Throws FileDigestError naming the path.
std::string copy_file_hashed(const std::string& from, const std::string& to);

}  // namespace benchpr::runner
