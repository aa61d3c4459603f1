// The digest of what the loader maps of a program: two builds of one source in two worktrees
// differ in their debug info, their build IDs and the worktree's path that `__FILE__` writes into
// the code's strings, yet run the same code. One job: an ELF64 file in, a SHA-256 of what runs
// out (core/evidence/identical_programs.hpp decides with it which suites need no timing).
//
// The PR's code controls the PR's build, so the digest leaves out only what the loader never
// maps or reads: it covers the ELF header (the section table's fields aside), every program
// header, the bytes of every PT_LOAD segment (the GNU build ID's bytes zeroed), and every
// allocated section's name, type, flags, address, size and contents (NOBITS: its size). The
// side's worktree path in those bytes is replaced by a fixed token of the same length, so that
// a program that names its own worktree counts as the same as one that names its own.
#pragma once

#include <string>

namespace benchpr::runner {

struct LoadedImageDigest {
  std::string digest;  // 64 lowercase hex digits
  // True: the digest is of the loaded image of a 64-bit little-endian ELF file read whole. False:
  // the whole file's SHA-256 (a script, another format, or an ELF file this reader refuses).
  bool elf = false;
};

// `worktree`: the absolute path (as the build saw it: the real path) to replace by the token, or
// "" for none. The caller gives it only when both sides' worktree paths have the same length.
// The replacement is made only when the file holds no copy of the token, so that two files with
// the same digest are the same bytes once each side's path is put back. Throws FileDigestError
// naming the path when the file cannot be read.
LoadedImageDigest loaded_image_digest(const std::string& path, const std::string& worktree);

}  // namespace benchpr::runner
