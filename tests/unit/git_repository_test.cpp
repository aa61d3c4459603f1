#include "benchpr/git/repository.hpp"

#include <sys/stat.h>
#include <unistd.h>
#include <utime.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "support/temp_dir.hpp"
#include "support/temp_repo.hpp"

namespace benchpr::git {
namespace {

namespace fs = std::filesystem;
using benchpr::testing::read_file;
using benchpr::testing::TempDir;
using benchpr::testing::TempRepo;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

std::string canonical(const std::string& path) { return fs::canonical(path).string(); }

// The message of the GitError `f` throws ("" and a test failure if it throws nothing).
template <typename F>
std::string git_error_of(F&& f) {
  try {
    f();
  } catch (const GitError& e) {
    return e.what();
  }
  ADD_FAILURE() << "expected a GitError";
  return "";
}

bool is_executable(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 && (st.st_mode & S_IXUSR) != 0;
}

void make_executable(const std::string& path) {
  fs::permissions(path, fs::perms::owner_exec | fs::perms::group_exec | fs::perms::others_exec,
                  fs::perm_options::add);
}

time_t mtime_of(const std::string& path) {
  struct stat st {};
  EXPECT_EQ(::stat(path.c_str(), &st), 0) << path;
  return st.st_mtime;
}

// Lists the regular files and symlinks under `dir`, relative and sorted.
std::vector<std::string> files_under(const std::string& dir) {
  std::vector<std::string> out;
  for (const auto& e : fs::recursive_directory_iterator(dir)) {
    if (e.is_regular_file() || e.is_symlink()) {
      out.push_back(e.path().lexically_relative(dir).string());
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

// main: c1 "first commit" -> c2 "second"; tag v1 (lightweight) and v1-annotated at c1.
struct TwoCommits {
  TempRepo repo;
  std::string c1;
  std::string c2;
  TwoCommits() {
    repo.write("a.txt", "one\n");
    repo.write("src/lib.cpp", "int f();\n");
    c1 = repo.commit("first commit\n\nwith a body");
    repo.write("a.txt", "two\n");
    c2 = repo.commit("second");
    repo.git("tag v1 " + c1);
    repo.git("tag -a v1-annotated -m release " + c1);
  }
};

TEST(GitRepository, ResolvesBranchTagShortShaAndRelativeRevisions) {
  TwoCommits t;
  auto repo = open_repository(t.repo.path());

  RevisionInfo main = repo->resolve("main");
  EXPECT_EQ(main.spec, "main");
  EXPECT_EQ(main.sha, t.c2);
  EXPECT_EQ(main.subject, "second");

  EXPECT_EQ(repo->resolve("v1").sha, t.c1);
  EXPECT_EQ(repo->resolve("v1-annotated").sha, t.c1);  // peeled through the tag object
  EXPECT_EQ(repo->resolve(t.c1.substr(0, 7)).sha, t.c1);
  RevisionInfo parent = repo->resolve("HEAD~1");
  EXPECT_EQ(parent.sha, t.c1);
  EXPECT_EQ(parent.subject, "first commit");
  EXPECT_EQ(parent.sha.size(), 40u);
}

TEST(GitRepository, MissingRevisionNamesTheRevisionTheRepositoryAndTheFix) {
  TwoCommits t;
  auto repo = open_repository(t.repo.path());
  EXPECT_EQ(git_error_of([&] { repo->resolve("nope"); }),
            "revision 'nope' not found in " + canonical(t.repo.path()) +
                " (check the branch name, or fetch it first: git fetch origin nope)");
  EXPECT_THAT(git_error_of([&] { repo->resolve("HEAD~5"); }),
              HasSubstr("revision 'HEAD~5' not found in "));
}

TEST(GitRepository, NonCommitRevisionIsRejectedClearly) {
  TwoCommits t;
  auto repo = open_repository(t.repo.path());
  EXPECT_THAT(git_error_of([&] { repo->resolve("HEAD^{tree}"); }),
              HasSubstr("is a tree, not a commit"));
}

// Only a revision that is not there is "not found" (a fetch may bring it); a tree, a bad
// syntax or a repository that cannot answer is another GitError, which a fetch would not mend.
TEST(GitRepository, OnlyAMissingRevisionIsNotFound) {
  TwoCommits t;
  auto repo = open_repository(t.repo.path());
  EXPECT_THROW(repo->resolve(std::string(40, 'a')), RevisionNotFound);
  EXPECT_THROW(repo->resolve("HEAD~5"), RevisionNotFound);
  for (const char* other : {"HEAD^{tree}", "HEAD@{"}) {
    try {
      repo->resolve(other);
      ADD_FAILURE() << other << " resolved";
    } catch (const RevisionNotFound& e) {
      ADD_FAILURE() << other << " reads as missing: " << e.what();
    } catch (const GitError&) {
    }
  }
}

TEST(GitRepository, NotARepositoryNamesThePathAndTheFix) {
  TempDir plain;
  EXPECT_EQ(
      git_error_of([&] { open_repository(plain.path()); }),
      "not a git repository: " + plain.path() + " (run benchpr inside a clone or pass -C DIR)");
}

TEST(GitRepository, SubdirectoryOpensTheEnclosingRepository) {
  TwoCommits t;
  auto repo = open_repository(t.repo.path() + "/src");
  EXPECT_EQ(repo->workdir(), canonical(t.repo.path()));
  EXPECT_EQ(repo->git_dir(), canonical(t.repo.path()) + "/.git");
  EXPECT_EQ(repo->resolve("main").sha, t.c2);
}

TEST(GitRepository, ReadsFilesAtACommit) {
  TwoCommits t;
  t.repo.git("checkout -q -b linked");
  t.repo.write("conf/real.yml", "rounds: 4\n");
  ASSERT_EQ(::symlink("conf/real.yml", (t.repo.path() + "/.benchpr.yml").c_str()), 0);
  std::string c3 = t.repo.commit("config as a link");
  auto repo = open_repository(t.repo.path());

  EXPECT_EQ(repo->read_file(t.c2, "a.txt"), "two\n");
  EXPECT_EQ(repo->read_file(t.c1, "a.txt"), "one\n");  // the older content
  EXPECT_EQ(repo->read_file(t.c2, "src/lib.cpp"), "int f();\n");
  EXPECT_EQ(repo->read_file(t.c2, "missing.txt"), std::nullopt);
  EXPECT_EQ(repo->read_file(t.c2, "src"), std::nullopt);          // a directory
  EXPECT_EQ(repo->read_file(c3, ".benchpr.yml"), "rounds: 4\n");  // link followed in the tree
  EXPECT_THAT(git_error_of([&] { repo->read_file("nope", "a.txt"); }),
              HasSubstr("revision 'nope' not found"));
}

TEST(GitRepository, MaterialisesContentExecutableBitAndSymlinks) {
  TempRepo r;
  r.write("README", "hello\n");
  r.write("tools/run.sh", "#!/bin/sh\necho hi\n");
  make_executable(r.path() + "/tools/run.sh");
  ASSERT_EQ(::symlink("README", (r.path() + "/link").c_str()), 0);
  std::string c = r.commit("files");
  auto repo = open_repository(r.path());
  TempDir out;
  std::string wt = out / "wt";

  repo->materialise(c, wt);

  EXPECT_EQ(read_file(wt + "/README"), "hello\n");
  EXPECT_EQ(read_file(wt + "/tools/run.sh"), "#!/bin/sh\necho hi\n");
  EXPECT_TRUE(is_executable(wt + "/tools/run.sh"));
  EXPECT_FALSE(is_executable(wt + "/README"));
  ASSERT_TRUE(fs::is_symlink(wt + "/link"));
  EXPECT_EQ(fs::read_symlink(wt + "/link"), "README");
  // Exactly the tracked files plus the manifest: no temporary files left behind.
  EXPECT_THAT(files_under(wt), ElementsAre(".benchpr-manifest", "README", "link", "tools/run.sh"));
}

TEST(GitRepository, RematerialisingRewritesOnlyWhatChanged) {
  TempRepo r;
  r.write("keep.txt", "same\n");
  r.write("change.txt", "old\n");
  r.write("gone/deep/file.txt", "bye\n");
  r.write("mode.sh", "echo\n");
  std::string c1 = r.commit("one");
  r.write("change.txt", "new\n");
  r.remove("gone");
  r.write("added.txt", "hi\n");
  make_executable(r.path() + "/mode.sh");
  std::string c2 = r.commit("two");
  auto repo = open_repository(r.path());
  TempDir out;
  std::string wt = out / "wt";

  repo->materialise(c1, wt);
  const time_t old_time = 1000000000;  // 2001: any rewrite would move it to now
  utimbuf times{old_time, old_time};
  ASSERT_EQ(::utime((wt + "/keep.txt").c_str(), &times), 0);
  ASSERT_EQ(::utime((wt + "/mode.sh").c_str(), &times), 0);
  benchpr::testing::write_file(wt + "/build/out.o", "object");

  repo->materialise(c2, wt);

  EXPECT_EQ(mtime_of(wt + "/keep.txt"), old_time);
  EXPECT_EQ(mtime_of(wt + "/mode.sh"), old_time);  // only the mode changed
  EXPECT_TRUE(is_executable(wt + "/mode.sh"));
  EXPECT_EQ(read_file(wt + "/change.txt"), "new\n");
  EXPECT_EQ(read_file(wt + "/added.txt"), "hi\n");
  EXPECT_FALSE(fs::exists(wt + "/gone"));  // the file and its emptied directories
  EXPECT_EQ(read_file(wt + "/build/out.o"), "object");

  repo->materialise(c1, wt);  // and back
  EXPECT_EQ(read_file(wt + "/gone/deep/file.txt"), "bye\n");
  EXPECT_FALSE(fs::exists(wt + "/added.txt"));
  EXPECT_FALSE(is_executable(wt + "/mode.sh"));
  EXPECT_EQ(read_file(wt + "/build/out.o"), "object");
}

TEST(GitRepository, ChangedPathsListsAddedModifiedAndDeletedPaths) {
  TempRepo r;
  r.write("same.txt", "x\n");
  r.write("edit.txt", "1\n");
  r.write("del.txt", "d\n");
  std::string base = r.commit("base");
  r.write("edit.txt", "2\n");
  r.remove("del.txt");
  r.write(".benchpr.yml", "rounds: 2\n");
  std::string head = r.commit("head");
  auto repo = open_repository(r.path());

  EXPECT_THAT(repo->changed_paths(base, head), ElementsAre(".benchpr.yml", "del.txt", "edit.txt"));
  EXPECT_TRUE(repo->changed_paths(head, head).empty());
}

TEST(GitRepository, MergeBaseIsTheForkPoint) {
  TempRepo r;
  r.write("f", "0\n");
  std::string fork = r.commit("fork point");
  r.branch("feature");
  r.write("f", "main\n");
  std::string on_main = r.commit("main moves on");
  r.checkout("feature");
  r.write("g", "pr\n");
  std::string on_feature = r.commit("pr work");
  auto repo = open_repository(r.path());

  EXPECT_EQ(repo->merge_base(on_main, on_feature), fork);
  EXPECT_EQ(repo->merge_base(fork, on_main), fork);
}

TEST(GitRepository, ShallowCloneIsReportedAndExplainedInMessages) {
  TwoCommits t;
  TempDir clones;
  t.repo.git("clone -q --depth 1 file://" + t.repo.path() + " " + clones.path() + "/shallow");
  auto full = open_repository(t.repo.path());
  auto shallow = open_repository(clones.path() + "/shallow");

  EXPECT_FALSE(full->is_shallow());
  EXPECT_TRUE(shallow->is_shallow());
  EXPECT_THAT(git_error_of([&] { shallow->resolve("HEAD~1"); }),
              HasSubstr("the clone is shallow: fetch the history with git fetch --unshallow"));
}

TEST(GitRepository, RefusesToMaterialiseATreeThatClimbsOut) {
  TempRepo r;
  r.write("evil.txt", "evil\n");
  std::string blob = r.git("hash-object -w evil.txt");
  r.write("inner.in", "100644 blob " + blob + "\tescaped\n");
  std::string inner = r.git("mktree < inner.in");
  r.write("outer.in", "040000 tree " + inner + "\t..\n");
  std::string outer = r.git("mktree < outer.in");
  std::string hostile = r.git("commit-tree -m hostile " + outer);
  auto repo = open_repository(r.path());
  TempDir out;

  EXPECT_THAT(git_error_of([&] { repo->materialise(hostile, out / "a/wt"); }),
              HasSubstr("refusing to materialise tree path '../escaped' ('..' component)"));
  EXPECT_FALSE(fs::exists(out / "a/escaped"));
}

TEST(SnapshotWriter, RejectsUnsafePathsBeforeWritingAnything) {
  TempDir out;
  auto content = [](std::size_t) { return std::string("x"); };
  using K = SnapshotEntry::Kind;
  for (const char* bad :
       {"/etc/passwd", "a/../../b", ".git/hooks/pre-commit", "a//b", ".benchpr-manifest"}) {
    std::vector<SnapshotEntry> entries{{"ok.txt", K::File}, {bad, K::File}};
    EXPECT_THAT(git_error_of([&] { write_snapshot(out / "wt", entries, content); }),
                HasSubstr("refusing to materialise tree path '" + std::string(bad) + "'"));
  }
  std::vector<SnapshotEntry> twice{{"a", K::File}, {"a", K::Symlink}};
  EXPECT_THAT(git_error_of([&] { write_snapshot(out / "wt", twice, content); }),
              HasSubstr("(listed twice)"));
  std::vector<SnapshotEntry> link_and_dir{{"a", K::Symlink}, {"a/b", K::File}};
  EXPECT_THAT(git_error_of([&] { write_snapshot(out / "wt", link_and_dir, content); }),
              HasSubstr("(both a file and a directory)"));
  EXPECT_FALSE(fs::exists(out / "wt/ok.txt"));
}

TEST(SnapshotWriter, NeverWritesThroughASymlinkLeftByAnEarlierSnapshot) {
  TempDir out;
  TempDir outside;
  std::string wt = out / "wt";
  using K = SnapshotEntry::Kind;
  write_snapshot(wt, {{"a", K::Symlink}}, [&](std::size_t) { return outside.path(); });
  ASSERT_TRUE(fs::is_symlink(wt + "/a"));

  write_snapshot(wt, {{"a/b", K::File}}, [](std::size_t) { return std::string("inside"); });

  EXPECT_FALSE(fs::exists(outside / "b"));
  EXPECT_FALSE(fs::is_symlink(wt + "/a"));
  EXPECT_EQ(read_file(wt + "/a/b"), "inside");
}

TEST(SnapshotWriter, NeverWritesThroughAnUntrackedSymlink) {
  TempDir out;
  TempDir outside;
  std::string wt = out / "wt";
  fs::create_directories(wt);
  fs::create_directory_symlink(outside.path(), wt + "/a");  // not in any manifest

  write_snapshot(wt, {{"a/b", SnapshotEntry::Kind::File}},
                 [](std::size_t) { return std::string("inside"); });

  EXPECT_FALSE(fs::exists(outside / "b"));
  EXPECT_EQ(read_file(wt + "/a/b"), "inside");
}

TEST(SnapshotWriter, NeverDeletesThroughASymlink) {
  TempDir out;
  TempDir outside;
  std::string wt = out / "wt";
  using K = SnapshotEntry::Kind;
  write_snapshot(wt, {{"a/b", K::File}}, [](std::size_t) { return std::string("tracked"); });
  fs::remove_all(wt + "/a");
  fs::create_directory_symlink(outside.path(), wt + "/a");
  benchpr::testing::write_file(outside / "b", "not ours");

  write_snapshot(wt, {{"c", K::File}}, [](std::size_t) { return std::string("c"); });

  EXPECT_EQ(read_file(outside / "b"), "not ours");
}

}  // namespace
}  // namespace benchpr::git
