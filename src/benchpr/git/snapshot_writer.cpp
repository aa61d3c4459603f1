// Writes a tree snapshot into a directory incrementally: the mtimes of unchanged files survive so
// the build in that directory stays incremental, and a crash at any point leaves every file either
// old or new (never half-written) and every written path recorded for the next run to clean up.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <optional>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "benchpr/core/base/text.hpp"
#include "benchpr/git/repository.hpp"

namespace benchpr::git {
namespace {

constexpr std::string_view kManifestHeader = "benchpr-manifest 1\n";

[[noreturn]] void fail_errno(const std::string& what, const std::string& path) {
  throw GitError(what + " " + path + ": " + std::strerror(errno));
}

std::vector<std::string> split_path(const std::string& path) {
  std::vector<std::string> parts;
  std::string::size_type start = 0;
  while (true) {
    auto slash = path.find('/', start);
    parts.push_back(path.substr(start, slash - start));
    if (slash == std::string::npos) break;
    start = slash + 1;
  }
  return parts;
}

bool is_dot_git(const std::string& name) { return name.size() == 4 && lower(name) == ".git"; }

// Nothing when `path` is safe to create below the snapshot root, else the reason it is not.
std::optional<std::string> unsafe_reason(const std::string& path) {
  if (path.empty()) return "empty path";
  if (path.front() == '/') return "absolute path";
  if (path.find('\0') != std::string::npos) return "NUL byte in path";
  for (const std::string& part : split_path(path)) {
    if (part.empty()) return "empty path component";
    if (part == "." || part == "..") return "'" + part + "' component";
    if (is_dot_git(part)) return "'.git' component";
  }
  if (path == kSnapshotManifest) return "collides with benchpr's manifest file";
  return std::nullopt;
}

std::string parent_of(const std::string& rel) {
  auto slash = rel.rfind('/');
  return slash == std::string::npos ? "" : rel.substr(0, slash);
}

// What the manifest records: files and symlinks to delete when they stop being tracked, and
// submodule directories to remove when empty.
struct Manifest {
  std::set<std::string> files;
  std::set<std::string> dirs;
};

Manifest read_manifest(const std::string& root) {
  Manifest m;
  std::ifstream in(root + "/" + kSnapshotManifest, std::ios::binary);
  if (!in) return m;
  std::ostringstream ss;
  ss << in.rdbuf();
  std::string text = ss.str();
  // An unknown or damaged manifest deletes nothing: untracked files are worth more than tidiness.
  if (text.compare(0, kManifestHeader.size(), kManifestHeader) != 0) return m;
  std::string::size_type pos = kManifestHeader.size();
  while (pos < text.size()) {
    auto end = text.find('\0', pos);
    if (end == std::string::npos) break;
    std::string record = text.substr(pos, end - pos);
    pos = end + 1;
    if (record.size() < 2) continue;
    std::string rel = record.substr(1);
    if (unsafe_reason(rel)) continue;
    if (record[0] == 'f') m.files.insert(rel);
    if (record[0] == 'd') m.dirs.insert(rel);
  }
  return m;
}

std::string temp_name_for(const std::string& path) {
  static thread_local std::mt19937_64 rng{std::random_device{}()};
  std::string dir = parent_of(path);
  std::string base = path.substr(dir.empty() ? 0 : dir.size() + 1);
  std::ostringstream name;
  name << (dir.empty() ? "" : dir + "/") << "." << base << ".benchpr-" << std::hex << rng();
  return name.str();
}

// Creates `path` with exactly `content`, atomically replacing whatever is there.
void write_atomically(const std::string& path, std::string_view content, mode_t mode) {
  std::string temp;
  int fd = -1;
  for (int attempt = 0; fd < 0; ++attempt) {
    temp = temp_name_for(path);
    fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode);
    if (fd < 0 && (errno != EEXIST || attempt > 16)) fail_errno("cannot create", temp);
  }
  const char* data = content.data();
  std::size_t left = content.size();
  while (left > 0) {
    ssize_t n = ::write(fd, data, left);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      int saved = errno;
      ::close(fd);
      ::unlink(temp.c_str());
      errno = saved;
      fail_errno("cannot write", temp);
    }
    data += n;
    left -= static_cast<std::size_t>(n);
  }
  if (::close(fd) != 0) {
    ::unlink(temp.c_str());
    fail_errno("cannot write", temp);
  }
  if (::rename(temp.c_str(), path.c_str()) != 0) {
    int saved = errno;
    ::unlink(temp.c_str());
    errno = saved;
    fail_errno("cannot replace", path);
  }
}

void symlink_atomically(const std::string& path, const std::string& target) {
  std::string temp;
  for (int attempt = 0;; ++attempt) {
    temp = temp_name_for(path);
    if (::symlink(target.c_str(), temp.c_str()) == 0) break;
    if (errno != EEXIST || attempt > 16) fail_errno("cannot create symlink", temp);
  }
  if (::rename(temp.c_str(), path.c_str()) != 0) {
    int saved = errno;
    ::unlink(temp.c_str());
    errno = saved;
    fail_errno("cannot replace", path);
  }
}

void write_manifest(const std::string& root, const Manifest& m) {
  std::string text(kManifestHeader);
  for (const auto& f : m.files) text += "f" + f + '\0';
  for (const auto& d : m.dirs) text += "d" + d + '\0';
  write_atomically(root + "/" + kSnapshotManifest, text, 0666);
}

// Removes whatever is at `path` (a file, a symlink or a whole directory) without following links.
void remove_tree(const std::string& path) {
  struct stat st {};
  if (::lstat(path.c_str(), &st) != 0) return;
  if (S_ISDIR(st.st_mode)) {
    std::error_code ec;
    std::filesystem::remove_all(path, ec);  // does not follow symlinks inside
    if (ec) throw GitError("cannot remove " + path + ": " + ec.message());
  } else if (::unlink(path.c_str()) != 0) {
    fail_errno("cannot remove", path);
  }
}

class SnapshotWriter {
 public:
  explicit SnapshotWriter(std::string root) : root_(std::move(root)) {}

  std::string full(const std::string& rel) const { return root_ + "/" + rel; }

  // Makes every component of `rel` a real directory (not a symlink a hostile tree planted, not a
  // file from an older snapshot), so nothing is ever written outside the root.
  void ensure_dir(const std::string& rel) {
    if (rel.empty()) return;
    std::string sofar;
    for (const std::string& part : split_path(rel)) {
      sofar += (sofar.empty() ? "" : "/") + part;
      std::string path = full(sofar);
      struct stat st {};
      if (::lstat(path.c_str(), &st) == 0) {
        if (S_ISDIR(st.st_mode)) continue;
        remove_tree(path);
      } else if (errno != ENOENT) {
        fail_errno("cannot inspect", path);
      }
      if (::mkdir(path.c_str(), 0777) != 0) fail_errno("cannot create directory", path);
    }
  }

  // True when every parent of `rel` is a real directory, so operating on `rel` stays inside.
  bool parents_are_real_dirs(const std::string& rel) const {
    std::string parent = parent_of(rel);
    if (parent.empty()) return true;
    std::string sofar;
    for (const std::string& part : split_path(parent)) {
      sofar += (sofar.empty() ? "" : "/") + part;
      struct stat st {};
      if (::lstat(full(sofar).c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) return false;
    }
    return true;
  }

  // Removes empty directories from `rel` upwards, stopping at one still needed or not empty.
  void prune_empty_parents(std::string rel, const std::set<std::string>& needed) {
    while (!rel.empty() && !needed.count(rel)) {
      if (::rmdir(full(rel).c_str()) != 0) return;  // not empty (untracked files) or gone
      rel = parent_of(rel);
    }
  }

  void delete_stale(const Manifest& old, const std::set<std::string>& files,
                    const std::set<std::string>& dirs) {
    for (const auto& rel : old.files) {
      if (files.count(rel) || !parents_are_real_dirs(rel)) continue;
      struct stat st {};
      // A directory standing there now is not ours to delete (it is untracked content).
      if (::lstat(full(rel).c_str(), &st) == 0 && !S_ISDIR(st.st_mode)) remove_tree(full(rel));
      prune_empty_parents(parent_of(rel), dirs);
    }
    for (auto it = old.dirs.rbegin(); it != old.dirs.rend(); ++it) {
      if (dirs.count(*it) || !parents_are_real_dirs(*it)) continue;
      prune_empty_parents(*it, dirs);
    }
  }

  void write_file(const std::string& rel, const std::string& content, bool executable) {
    ensure_dir(parent_of(rel));
    std::string path = full(rel);
    struct stat st {};
    if (::lstat(path.c_str(), &st) == 0) {
      if (S_ISREG(st.st_mode) && static_cast<std::size_t>(st.st_size) == content.size() &&
          same_content(path, content)) {
        bool is_executable = (st.st_mode & S_IXUSR) != 0;
        if (is_executable != executable) set_executable(path, st.st_mode, executable);
        return;
      }
      if (S_ISDIR(st.st_mode)) remove_tree(path);
    } else if (errno != ENOENT) {
      fail_errno("cannot inspect", path);
    }
    write_atomically(path, content, executable ? 0777 : 0666);
  }

  void write_symlink(const std::string& rel, const std::string& target) {
    ensure_dir(parent_of(rel));
    std::string path = full(rel);
    struct stat st {};
    if (::lstat(path.c_str(), &st) == 0) {
      if (S_ISLNK(st.st_mode) && read_link(path) == target) return;
      if (S_ISDIR(st.st_mode)) remove_tree(path);
    }
    symlink_atomically(path, target);
  }

 private:
  static bool same_content(const std::string& path, const std::string& content) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return false;
    std::string buf(64 * 1024, '\0');
    std::size_t offset = 0;
    while (in) {
      in.read(buf.data(), static_cast<std::streamsize>(buf.size()));
      auto n = static_cast<std::size_t>(in.gcount());
      if (n == 0) break;
      if (offset + n > content.size() || content.compare(offset, n, buf.data(), n) != 0) {
        return false;
      }
      offset += n;
    }
    return offset == content.size();
  }

  static std::string read_link(const std::string& path) {
    std::string buf(4096, '\0');
    ssize_t n = ::readlink(path.c_str(), buf.data(), buf.size());
    return n < 0 ? std::string() : buf.substr(0, static_cast<std::size_t>(n));
  }

  // Like git: the x bits follow the r bits, so the user's umask choices are kept.
  static void set_executable(const std::string& path, mode_t mode, bool executable) {
    mode_t perms = mode & 07777;
    perms = executable ? (perms | ((perms & 0444) >> 2)) : (perms & ~mode_t{0111});
    if (::chmod(path.c_str(), perms) != 0) fail_errno("cannot chmod", path);
  }

  std::string root_;
};

}  // namespace

void write_snapshot(const std::string& dir, const std::vector<SnapshotEntry>& entries,
                    const std::function<std::string(std::size_t)>& content) {
  std::set<std::string> files;  // files and symlinks
  std::set<std::string> dirs;   // every directory the snapshot needs, submodules included
  for (const SnapshotEntry& e : entries) {
    if (const std::optional<std::string> why = unsafe_reason(e.path)) {
      throw GitError("refusing to materialise tree path '" + e.path + "' (" + *why +
                     "): the repository is corrupt or hostile");
    }
    bool fresh = e.kind == SnapshotEntry::Kind::Directory ? dirs.insert(e.path).second
                                                          : files.insert(e.path).second;
    if (!fresh) {
      throw GitError("refusing to materialise tree path '" + e.path +
                     "' (listed twice): the repository is corrupt or hostile");
    }
    for (std::string p = parent_of(e.path); !p.empty(); p = parent_of(p)) dirs.insert(p);
  }
  for (const auto& f : files) {
    if (dirs.count(f)) {
      throw GitError("refusing to materialise tree path '" + f +
                     "' (both a file and a directory): the repository is corrupt or hostile");
    }
  }

  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) throw GitError("cannot create directory " + dir + ": " + ec.message());

  SnapshotWriter writer(dir);
  Manifest old = read_manifest(dir);
  // Record the union before touching anything, so a crash midway leaves no unrecorded file.
  Manifest pending = old;
  pending.files.insert(files.begin(), files.end());
  for (const SnapshotEntry& e : entries) {
    if (e.kind == SnapshotEntry::Kind::Directory) pending.dirs.insert(e.path);
  }
  write_manifest(dir, pending);

  writer.delete_stale(old, files, dirs);
  Manifest done;
  for (std::size_t i = 0; i < entries.size(); ++i) {
    const SnapshotEntry& e = entries[i];
    switch (e.kind) {
      case SnapshotEntry::Kind::Directory:
        writer.ensure_dir(e.path);
        done.dirs.insert(e.path);
        break;
      case SnapshotEntry::Kind::Symlink:
        writer.write_symlink(e.path, content(i));
        done.files.insert(e.path);
        break;
      case SnapshotEntry::Kind::File:
      case SnapshotEntry::Kind::Executable:
        writer.write_file(e.path, content(i), e.kind == SnapshotEntry::Kind::Executable);
        done.files.insert(e.path);
        break;
    }
  }
  write_manifest(dir, done);
}

}  // namespace benchpr::git
