// The Repository interface on top of libgit2. Every libgit2 object is owned by a unique_ptr with
// its free function, and every failure becomes a GitError that names the repository and the fix.
#include <git2.h>

#include <filesystem>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "benchpr/git/repository.hpp"

namespace benchpr::git {
namespace {

template <typename T, void (*Free)(T*)>
struct Deleter {
  void operator()(T* p) const { Free(p); }
};
template <typename T, void (*Free)(T*)>
using Handle = std::unique_ptr<T, Deleter<T, Free>>;

using RepositoryHandle = Handle<git_repository, git_repository_free>;
using ObjectHandle = Handle<git_object, git_object_free>;
using CommitHandle = Handle<git_commit, git_commit_free>;
using TreeHandle = Handle<git_tree, git_tree_free>;
using TreeEntryHandle = Handle<git_tree_entry, git_tree_entry_free>;
using BlobHandle = Handle<git_blob, git_blob_free>;
using DiffHandle = Handle<git_diff, git_diff_free>;

// libgit2 counts init/shutdown pairs itself (thread-safely), so each open repository holds one
// reference and the library is torn down after the last repository is gone.
class Libgit2Reference {
 public:
  Libgit2Reference() { git_libgit2_init(); }
  ~Libgit2Reference() { git_libgit2_shutdown(); }
  Libgit2Reference(const Libgit2Reference&) = delete;
  Libgit2Reference& operator=(const Libgit2Reference&) = delete;
};

std::string last_error() {
  const git_error* e = git_error_last();
  return e && e->message ? e->message : "unknown libgit2 error";
}

std::string without_trailing_slash(const char* path) {
  std::string s = path ? path : "";
  while (s.size() > 1 && s.back() == '/') s.pop_back();
  return s;
}

std::string hex(const git_oid& oid) {
  char buf[GIT_OID_HEXSZ + 1];
  git_oid_tostr(buf, sizeof buf, &oid);
  return buf;
}

std::string first_line(const char* message) {
  std::string s = message ? message : "";
  s = s.substr(0, s.find('\n'));
  while (!s.empty() && (s.back() == '\r' || s.back() == ' ')) s.pop_back();
  return s;
}

// Lexically joins and normalises a path inside a tree; nullopt if it climbs above the root.
std::optional<std::string> normalise_tree_path(const std::string& path) {
  std::vector<std::string> parts;
  std::string::size_type start = 0;
  while (start <= path.size()) {
    auto slash = path.find('/', start);
    if (slash == std::string::npos) slash = path.size();
    std::string part = path.substr(start, slash - start);
    start = slash + 1;
    if (part.empty() || part == ".") continue;
    if (part == "..") {
      if (parts.empty()) return std::nullopt;
      parts.pop_back();
      continue;
    }
    parts.push_back(part);
  }
  std::string out;
  for (const auto& p : parts) out += (out.empty() ? "" : "/") + p;
  return out;
}

// Collects a tree's entries for write_snapshot; runs inside git_tree_walk, so it reports errors
// through `error` instead of throwing through C frames.
struct TreeListing {
  std::vector<SnapshotEntry> entries;
  std::vector<git_oid> blobs;  // blob id per entry (unused for directories)
  std::string error;
};

int list_entry(const char* root, const git_tree_entry* entry, void* payload) {
  auto* listing = static_cast<TreeListing*>(payload);
  std::string name = git_tree_entry_name(entry);
  if (name.empty() || name.find('/') != std::string::npos) {
    listing->error = "tree entry '" + name + "' under '" + root + "' has an invalid name";
    return -1;
  }
  std::string path = std::string(root) + name;
  SnapshotEntry e{path, SnapshotEntry::Kind::File};
  switch (git_tree_entry_filemode(entry)) {
    case GIT_FILEMODE_TREE:
      return 0;  // directories follow from the paths of their files
    case GIT_FILEMODE_BLOB:
      break;
    case GIT_FILEMODE_BLOB_EXECUTABLE:
      e.kind = SnapshotEntry::Kind::Executable;
      break;
    case GIT_FILEMODE_LINK:
      e.kind = SnapshotEntry::Kind::Symlink;
      break;
    case GIT_FILEMODE_COMMIT:
      e.kind = SnapshotEntry::Kind::Directory;  // a submodule: its content is not in this repo
      break;
    default:
      listing->error = "tree entry '" + path + "' has an unknown file mode";
      return -1;
  }
  listing->entries.push_back(std::move(e));
  listing->blobs.push_back(*git_tree_entry_id(entry));
  return 0;
}

class Libgit2Repository final : public Repository {
 public:
  explicit Libgit2Repository(const std::string& given) {
    std::string path = given.empty() ? "." : given;
    std::string shown =
        without_trailing_slash(std::filesystem::absolute(path).lexically_normal().string().c_str());
    std::error_code ec;
    if (!std::filesystem::is_directory(path, ec)) {
      throw GitError("not a directory: " + shown + " (pass -C DIR with the path of a clone)");
    }
    git_repository* raw = nullptr;
    int rc = git_repository_open_ext(&raw, path.c_str(), 0, nullptr);
    repo_.reset(raw);
    if (rc == GIT_ENOTFOUND) {
      throw GitError("not a git repository: " + shown +
                     " (run benchpr inside a clone or pass -C DIR)");
    }
    if (rc == GIT_EOWNER) {
      throw GitError("git repository at " + shown +
                     " is owned by another user (mark it safe: git config --global --add "
                     "safe.directory " +
                     shown + ")");
    }
    if (rc < 0) throw GitError("cannot open git repository at " + shown + ": " + last_error());
  }

  RevisionInfo resolve(const std::string& spec) override {
    CommitHandle commit = commit_for(spec);
    return RevisionInfo{spec, hex(*git_commit_id(commit.get())),
                        first_line(git_commit_message(commit.get()))};
  }

  std::optional<std::string> read_file(const std::string& sha, const std::string& path) override {
    TreeHandle tree = tree_of(*commit_for(sha));
    auto normalised = normalise_tree_path(path);
    if (!normalised || normalised->empty()) return std::nullopt;
    return blob_at(*tree, *normalised, 0);
  }

  void materialise(const std::string& sha, const std::string& dir) override {
    TreeHandle tree = tree_of(*commit_for(sha));
    TreeListing listing;
    if (git_tree_walk(tree.get(), GIT_TREEWALK_PRE, list_entry, &listing) < 0) {
      throw GitError("cannot list the tree of " + sha + " in " + location() + ": " +
                     (listing.error.empty() ? last_error() : listing.error));
    }
    write_snapshot(dir, listing.entries, [&](std::size_t i) {
      git_blob* raw = nullptr;
      if (git_blob_lookup(&raw, repo_.get(), &listing.blobs[i]) < 0) {
        throw GitError("cannot read '" + listing.entries[i].path + "' of " + sha + " in " +
                       location() + ": " + last_error());
      }
      BlobHandle blob(raw);
      return std::string(static_cast<const char*>(git_blob_rawcontent(blob.get())),
                         static_cast<std::size_t>(git_blob_rawsize(blob.get())));
    });
  }

  std::string git_dir() const override {
    return without_trailing_slash(git_repository_path(repo_.get()));
  }

  std::string workdir() const override {
    const char* wd = git_repository_workdir(repo_.get());
    return wd ? without_trailing_slash(wd) : "";
  }

  std::string merge_base(const std::string& a_sha, const std::string& b_sha) override {
    CommitHandle a = commit_for(a_sha);
    CommitHandle b = commit_for(b_sha);
    git_oid base;
    int rc = git_merge_base(&base, repo_.get(), git_commit_id(a.get()), git_commit_id(b.get()));
    if (rc == GIT_ENOTFOUND) {
      throw GitError("'" + a_sha + "' and '" + b_sha + "' have no common ancestor in " +
                     location() + " (" + history_hint() + ")");
    }
    if (rc < 0) {
      throw GitError("cannot find the merge base of '" + a_sha + "' and '" + b_sha + "' in " +
                     location() + ": " + last_error());
    }
    return hex(base);
  }

  bool is_shallow() const override { return git_repository_is_shallow(repo_.get()) == 1; }

  std::vector<std::string> changed_paths(const std::string& base_sha,
                                         const std::string& head_sha) override {
    TreeHandle base = tree_of(*commit_for(base_sha));
    TreeHandle head = tree_of(*commit_for(head_sha));
    // libgit2's init function, not GIT_DIFF_OPTIONS_INIT: the macro names only the first fields
    // (the rest left to the compiler's zeros, which -Wmissing-field-initializers reports).
    git_diff_options options{};
    if (git_diff_options_init(&options, GIT_DIFF_OPTIONS_VERSION) < 0)
      throw GitError("cannot set up a diff in " + location() + ": " + last_error());
    options.flags |= GIT_DIFF_INCLUDE_TYPECHANGE;
    git_diff* raw = nullptr;
    if (git_diff_tree_to_tree(&raw, repo_.get(), base.get(), head.get(), &options) < 0) {
      throw GitError("cannot compare " + base_sha + " with " + head_sha + " in " + location() +
                     ": " + last_error());
    }
    DiffHandle diff(raw);
    std::set<std::string> paths;
    for (std::size_t i = 0, n = git_diff_num_deltas(diff.get()); i < n; ++i) {
      const git_diff_delta* delta = git_diff_get_delta(diff.get(), i);
      if (delta->old_file.path) paths.insert(delta->old_file.path);
      if (delta->new_file.path) paths.insert(delta->new_file.path);
    }
    return {paths.begin(), paths.end()};
  }

 private:
  // Where the repository is, for messages: the working tree, or the git directory when bare.
  std::string location() const {
    std::string wd = workdir();
    return wd.empty() ? git_dir() : wd;
  }

  std::string history_hint() const {
    return is_shallow() ? "the clone is shallow: fetch the history with git fetch --unshallow, "
                          "or set fetch-depth: 0 in actions/checkout"
                        : "check that both revisions belong to this repository's history";
  }

  std::string not_found_message(const std::string& spec) const {
    std::string msg = "revision '" + spec + "' not found in " + location() + " (";
    bool relative = spec.find_first_of("~^:@") != std::string::npos;
    if (relative) {
      msg += is_shallow() ? history_hint()
                          : "check the revision and that enough history exists: "
                            "git log --oneline";
    } else {
      msg += "check the branch name, or fetch it first: git fetch origin " + spec;
    }
    return msg + ")";
  }

  CommitHandle commit_for(const std::string& spec) {
    if (spec.empty()) throw GitError("empty revision: name a branch, tag or commit");
    git_object* raw = nullptr;
    int rc = git_revparse_single(&raw, repo_.get(), spec.c_str());
    ObjectHandle object(raw);
    if (rc == GIT_ENOTFOUND) throw RevisionNotFound(not_found_message(spec));
    if (rc == GIT_EAMBIGUOUS) {
      throw GitError("revision '" + spec + "' is ambiguous in " + location() +
                     " (several objects or refs match; use more characters of the SHA or a "
                     "full ref name such as refs/heads/" +
                     spec + ")");
    }
    if (rc == GIT_EINVALIDSPEC) {
      throw GitError("revision '" + spec + "' is not valid revision syntax (" + last_error() +
                     "); name a branch, tag or commit");
    }
    if (rc < 0) {
      throw GitError("cannot resolve revision '" + spec + "' in " + location() + ": " +
                     last_error());
    }
    git_object* peeled = nullptr;
    if (git_object_peel(&peeled, object.get(), GIT_OBJECT_COMMIT) < 0) {
      throw GitError("revision '" + spec + "' in " + location() + " is a " +
                     git_object_type2string(git_object_type(object.get())) +
                     ", not a commit (name a branch, tag or commit)");
    }
    return CommitHandle(reinterpret_cast<git_commit*>(peeled));
  }

  TreeHandle tree_of(const git_commit& commit) {
    git_tree* raw = nullptr;
    if (git_commit_tree(&raw, &commit) < 0) {
      throw GitError("cannot read the tree of commit " + hex(*git_commit_id(&commit)) + " in " +
                     location() + ": " + last_error());
    }
    return TreeHandle(raw);
  }

  // Follows symlinks that stay inside the tree (a config file may be a link), a few levels deep.
  std::optional<std::string> blob_at(const git_tree& tree, const std::string& path, int depth) {
    git_tree_entry* raw = nullptr;
    if (git_tree_entry_bypath(&raw, &tree, path.c_str()) < 0) return std::nullopt;
    TreeEntryHandle entry(raw);
    git_filemode_t mode = git_tree_entry_filemode(entry.get());
    if (mode != GIT_FILEMODE_BLOB && mode != GIT_FILEMODE_BLOB_EXECUTABLE &&
        mode != GIT_FILEMODE_LINK) {
      return std::nullopt;  // a directory or a submodule
    }
    git_blob* raw_blob = nullptr;
    if (git_blob_lookup(&raw_blob, repo_.get(), git_tree_entry_id(entry.get())) < 0) {
      throw GitError("cannot read '" + path + "' in " + location() + ": " + last_error());
    }
    BlobHandle blob(raw_blob);
    std::string content(static_cast<const char*>(git_blob_rawcontent(blob.get())),
                        static_cast<std::size_t>(git_blob_rawsize(blob.get())));
    if (mode != GIT_FILEMODE_LINK) return content;
    if (depth >= 8 || content.empty() || content.front() == '/') return std::nullopt;
    auto slash = path.rfind('/');
    std::string dir = slash == std::string::npos ? "" : path.substr(0, slash + 1);
    auto target = normalise_tree_path(dir + content);
    if (!target || target->empty()) return std::nullopt;
    return blob_at(tree, *target, depth + 1);
  }

  Libgit2Reference library_;  // declared first: released after the handles below
  RepositoryHandle repo_;
};

}  // namespace

std::unique_ptr<Repository> open_repository(const std::string& path) {
  return std::make_unique<Libgit2Repository>(path);
}

}  // namespace benchpr::git
