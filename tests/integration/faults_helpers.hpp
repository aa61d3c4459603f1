// Shared by the fault tests (tests/integration/faults_*_test.cpp): starting the real benchpr
// binary as a child we control (so a test can signal it mid-run and see whether it ended by
// exit or by a signal), finding processes it left behind, reading its results file, and
// checking a comment for markup that untrusted text could have injected.
#pragma once

#include <dirent.h>
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "support/benchpr_process.hpp"
#include "support/gbench_project.hpp"
#include "support/markdown_check.hpp"
#include "support/results_doc.hpp"
#include "support/temp_dir.hpp"
#include "support/temp_repo.hpp"

namespace benchpr::testing::faults {

using nlohmann::json;

inline double now_seconds() {
  using namespace std::chrono;
  return duration<double>(steady_clock::now().time_since_epoch()).count();
}

inline std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// How benchpr ended: by exit (with a code) or killed by a signal, which must never happen.
struct Ending {
  bool exited = false;
  int exit_code = -1;
  int signal = 0;
  double seconds = 0;
  std::string out;
  std::string err;
  std::string describe() const {
    return exited ? fmt::format("exit code {} after {:.1f}s", exit_code, seconds)
                  : fmt::format("killed by signal {} after {:.1f}s", signal, seconds);
  }
};

// benchpr started with fork/exec; stdout and stderr go to files the test can read while it runs.
// GitHub Actions variables are removed so the outcome does not depend on where the tests run.
class BenchprChild {
 public:
  explicit BenchprChild(const std::vector<std::string>& args) {
    out_path_ = io_ / "stdout";
    err_path_ = io_ / "stderr";
    started_ = now_seconds();
    pid_ = ::fork();
    if (pid_ == 0) {
      const int out = ::open(out_path_.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
      const int err = ::open(err_path_.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
      ::dup2(out, 1);
      ::dup2(err, 2);
      for (const char* v : {"GITHUB_ACTIONS", "GITHUB_EVENT_PATH", "GITHUB_STEP_SUMMARY",
                            "GITHUB_OUTPUT", "GITHUB_SERVER_URL", "GITHUB_REPOSITORY",
                            "GITHUB_RUN_ID", "GITHUB_TOKEN", "GH_TOKEN", "GITHUB_API_URL"})
        ::unsetenv(v);
      std::vector<char*> argv;
      std::string binary = BENCHPR_BINARY;
      argv.push_back(binary.data());
      std::vector<std::string> copy = time_only_unless_said(args);
      for (auto& a : copy) argv.push_back(a.data());
      argv.push_back(nullptr);
      ::execv(binary.c_str(), argv.data());
      ::_exit(127);
    }
  }
  ~BenchprChild() {
    // Only on a failed test: do not leave benchpr running behind the test.
    if (!ending_ && pid_ > 0) {
      ::kill(pid_, SIGTERM);
      if (!wait_for(10)) {
        ::kill(pid_, SIGKILL);
        wait_for(10);
      }
    }
  }
  BenchprChild(const BenchprChild&) = delete;
  BenchprChild& operator=(const BenchprChild&) = delete;

  pid_t pid() const { return pid_; }
  void signal(int sig) const { ::kill(pid_, sig); }
  std::string err_so_far() const { return slurp(err_path_); }

  // True once benchpr has ended (within `seconds`).
  bool wait_for(double seconds) {
    if (ending_) return true;
    const double deadline = now_seconds() + seconds;
    for (;;) {
      int status = 0;
      const pid_t r = ::waitpid(pid_, &status, WNOHANG);
      if (r == pid_) {
        Ending e;
        e.exited = WIFEXITED(status);
        e.exit_code = e.exited ? WEXITSTATUS(status) : -1;
        e.signal = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
        e.seconds = now_seconds() - started_;
        e.out = slurp(out_path_);
        e.err = slurp(err_path_);
        ending_ = std::move(e);
        return true;
      }
      if (r < 0 && errno != EINTR) return false;
      if (now_seconds() >= deadline) return false;
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
  }
  const Ending& ending() const { return *ending_; }

 private:
  TempDir io_;
  std::string out_path_, err_path_;
  pid_t pid_ = -1;
  double started_ = 0;
  std::optional<Ending> ending_;
};

// Runs benchpr to the end (at most `limit` seconds, then it is stopped and the test fails).
inline Ending run_benchpr_to_end(const std::vector<std::string>& args, double limit = 120) {
  BenchprChild child(args);
  if (!child.wait_for(limit)) {
    ADD_FAILURE() << "benchpr still running after " << limit << "s";
    child.signal(SIGKILL);
    child.wait_for(10);
  }
  return child.ending();
}

// Processes (other than this test) whose working directory or executable lies under `dir`:
// "pid: command line". Benchmarks and builds run in worktrees under the repository, so anything
// listed after benchpr ended is a child it left behind.
inline std::vector<std::string> processes_under(const std::string& dir) {
  std::vector<std::string> found;
  const std::string root = std::filesystem::weakly_canonical(dir).string();
  auto inside = [&](const std::string& p) { return p == root || p.rfind(root + "/", 0) == 0; };
  DIR* proc = ::opendir("/proc");
  if (!proc) return found;
  while (const dirent* e = ::readdir(proc)) {
    const std::string name = e->d_name;
    if (name.find_first_not_of("0123456789") != std::string::npos) continue;
    if (std::stoi(name) == ::getpid()) continue;
    std::error_code ec;
    const std::string cwd = std::filesystem::read_symlink("/proc/" + name + "/cwd", ec).string();
    const std::string exe = std::filesystem::read_symlink("/proc/" + name + "/exe", ec).string();
    if (!inside(cwd) && !inside(exe)) continue;
    std::string cmdline = slurp("/proc/" + name + "/cmdline");
    for (char& c : cmdline)
      if (c == '\0') c = ' ';
    found.push_back(name + ": " + cmdline);
  }
  ::closedir(proc);
  return found;
}

// The processes still under `dir` after a grace period: a group killed with SIGKILL needs a
// moment to disappear from /proc, longer on a loaded machine; a survivor stays. A hang guard:
// the wait ends as soon as none is left.
inline std::vector<std::string> survivors_under(const std::string& dir, double grace = 10.0) {
  const double deadline = now_seconds() + grace;
  for (;;) {
    auto found = processes_under(dir);
    if (found.empty() || now_seconds() >= deadline) return found;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
}

inline std::string join(const std::vector<std::string>& lines) {
  std::string s;
  for (const auto& l : lines) s += "  " + l + "\n";
  return s;
}

// A project with no build whose suites run `sh gen.sh ...`: `suites` is the suites: list of
// .benchpr.yml, measured over `rounds` rounds with no warm-up; main holds `base_gen` as gen.sh
// and the checked-out branch feature `head_gen`.
inline void commit_script_project(TempRepo& repo, const std::string& suites, int rounds,
                                  const std::string& base_gen, const std::string& head_gen) {
  repo.write(".benchpr.yml", "build: 'true'\nsuites:\n" + suites +
                                 "rounds: " + std::to_string(rounds) + "\nwarmup_rounds: 0\n");
  repo.write("gen.sh", base_gen);
  repo.commit_base_and_branch();
  repo.write("gen.sh", head_gen);
  repo.commit("the change");
}

// A gate that holds benchpr in a round the test chooses, instead of racing it with sleeps: the
// benchmark body from `body(free_runs)` lets the first `free_runs` measuring processes through
// (each takes a ticket, a directory, when it first runs the body) and makes every later one wait
// until the test calls open(). The wait is bounded (45 s, a hang guard below the suite timeout
// of small_config) so a failing test cannot hold benchpr for ever. Put kPrelude in the source.
class Gate {
 public:
  static constexpr const char* kPrelude =
      "#include <sys/stat.h>\n#include <cerrno>\n#include <filesystem>\n";

  std::string body(int free_runs) const {
    return fmt::format(
        "static const int ticket = [] {{ int n = 1; while (mkdir((\"{0}/\" + std::to_string(n))"
        ".c_str(), 0755) != 0 && errno == EEXIST) ++n; return n; }}(); "
        "if (ticket > {1}) for (int i = 0; i < 9000 && !std::filesystem::exists(\"{0}/open\"); "
        "++i) std::this_thread::sleep_for(std::chrono::milliseconds(5)); "
        "benchmark::DoNotOptimize(ticket);",
        dir_.path(), free_runs);
  }
  void open() const { write_file(dir_ / "open", ""); }

 private:
  TempDir dir_;
};

// The small, fast configuration every fault test uses unless it needs something else.
inline GbenchConfig small_config() {
  GbenchConfig c;
  c.rounds = 2;
  c.warmup = 0;
  c.min_time = "0.01";
  c.timeout = "60s";
  return c;
}

// `main` with the base project, `feature` (checked out) with the PR's.
inline void commit_base_and_pr(TempRepo& repo, const std::vector<GbenchCase>& base,
                               const std::vector<GbenchCase>& head,
                               const GbenchConfig& config = small_config(),
                               const std::string& base_prelude = "",
                               const std::string& head_prelude = "") {
  commit_comparison(repo, base, head, config, "feature", base_prelude, head_prelude);
}

// `benchpr run` comparing main with feature, printing the comment and writing the results file
// and the markdown into `out`.
inline std::vector<std::string> run_args(const TempRepo& repo, const TempDir& out,
                                         const std::vector<std::string>& extra = {}) {
  std::vector<std::string> a = {"run",        "-C",
                                repo.path(),  "--base",
                                "main",       "--head",
                                "feature",    "--dry-run",
                                "--seed",     "7",
                                "--output",   out / "results.json",
                                "--markdown", out / "comment.md"};
  // The fault tests check what a run of the configured rounds leaves behind: a fixed plan of
  // them (`--rounds`), not the default's adaptive rounds.
  const std::string config = slurp(repo.path() + "/.benchpr.yml");
  if (const auto at = config.find("\nrounds: "); at != std::string::npos) {
    a.push_back("--rounds");
    a.push_back(config.substr(at + 9, config.find('\n', at + 1) - at - 9));
  }
  // Many of them give both sides the same program (the fault is in what the rounds meet, not in
  // the code): they time it all the same, as an A/A comparison does.
  a.push_back("--time-identical");
  a.insert(a.end(), extra.begin(), extra.end());
  return a;
}

inline json read_json(const std::string& path) { return json::parse(slurp(path)); }

inline std::string contains_msg(const std::string& haystack, const std::string& needle) {
  return "expected to find \"" + needle + "\" in:\n" + haystack;
}

}  // namespace benchpr::testing::faults
