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

#include "support/gbench_project.hpp"
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
      std::vector<std::string> copy = args;
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

// The processes still under `dir` after a short grace period: a group killed with SIGKILL
// needs a moment to disappear from /proc; a survivor stays.
inline std::vector<std::string> survivors_under(const std::string& dir, double grace = 1.0) {
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
  write_gbench_project(repo, base, config, base_prelude);
  repo.commit("base");
  repo.branch("feature");
  repo.checkout("feature");
  write_gbench_project(repo, head, config, head_prelude);
  repo.commit("the change");
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
  a.insert(a.end(), extra.begin(), extra.end());
  return a;
}

inline json read_json(const std::string& path) { return json::parse(slurp(path)); }

inline const json* find_benchmark(const json& doc, const std::string& name) {
  if (!doc.contains("benchmarks")) return nullptr;
  for (const json& b : doc["benchmarks"])
    if (b["name"] == name) return &b;
  return nullptr;
}

inline std::string contains_msg(const std::string& haystack, const std::string& needle) {
  return "expected to find \"" + needle + "\" in:\n" + haystack;
}

// Well-formed UTF-8 (no overlong forms, surrogates or code points past U+10FFFF): GitHub and
// every JSON parser refuse anything else. Written independently of benchpr's own check.
inline bool is_valid_utf8(const std::string& s) {
  std::size_t i = 0;
  while (i < s.size()) {
    const auto c = static_cast<unsigned char>(s[i]);
    std::size_t n = c < 0x80 ? 0 : (c >> 5) == 6 ? 1 : (c >> 4) == 14 ? 2 : (c >> 3) == 30 ? 3 : 9;
    if (n == 9 || (n > 0 && i + n >= s.size())) return false;  // not a lead byte, or truncated
    std::uint32_t cp = n == 0 ? c : n == 1 ? (c & 0x1F) : n == 2 ? (c & 0x0F) : (c & 0x07);
    for (std::size_t k = 1; k <= n; ++k) {
      const auto d = static_cast<unsigned char>(s[i + k]);
      if ((d >> 6) != 2) return false;
      cp = (cp << 6) | (d & 0x3F);
    }
    static const std::uint32_t kMin[] = {0, 0x80, 0x800, 0x10000};
    if (cp < kMin[n] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return false;
    i += n + 1;
  }
  return true;
}

// ---------------------------------------------------------------------------------------------
// Markdown checks: what GitHub would render as markup outside code spans and code blocks.

// One line split into text outside code spans ("prose") and the code spans' contents, the way
// CommonMark pairs backtick runs of equal length; backslash-escaped backticks are literal.
struct SplitLine {
  std::string prose;
  std::vector<std::string> code;
};

inline SplitLine split_code_spans(const std::string& line) {
  SplitLine out;
  std::size_t i = 0;
  while (i < line.size()) {
    if (line[i] == '\\' && i + 1 < line.size()) {
      out.prose += line.substr(i, 2);
      i += 2;
      continue;
    }
    if (line[i] != '`') {
      out.prose += line[i++];
      continue;
    }
    std::size_t run = line.find_first_not_of('`', i);
    if (run == std::string::npos) run = line.size();
    const std::size_t n = run - i;
    // The closing run: exactly n backticks.
    std::size_t j = run, close = std::string::npos;
    while (j < line.size()) {
      if (line[j] != '`') {
        ++j;
        continue;
      }
      std::size_t k = line.find_first_not_of('`', j);
      if (k == std::string::npos) k = line.size();
      if (k - j == n) {
        close = j;
        break;
      }
      j = k;
    }
    if (close == std::string::npos) {
      out.prose += line.substr(i, n);  // no partner: literal backticks
      i = run;
      continue;
    }
    out.code.push_back(line.substr(run, close - run));
    out.prose += " CODE ";
    i = close + n;
  }
  return out;
}

// Pipes that split a GFM table row into cells (GitHub splits even inside code spans; `\|` does
// not split).
inline int cell_separators(const std::string& row) {
  int n = 0;
  for (std::size_t i = 0; i < row.size(); ++i) {
    if (row[i] == '\\') {
      ++i;
      continue;
    }
    if (row[i] == '|') ++n;
  }
  return n;
}

// Every way the comment's markup is broken or injected; empty when it is clean. Only the
// template's own tags are allowed as HTML: the marker comment on line 1, <details>, <summary>,
// <sub> (balanced); no live @mention or #123 outside code; no heading but the title; every table
// row has its header's cell count; code fences are closed; the text is valid UTF-8.
inline std::vector<std::string> markdown_problems(const std::string& md) {
  std::vector<std::string> problems;
  if (!is_valid_utf8(md)) problems.push_back("the comment is not valid UTF-8");
  std::istringstream in(md);
  std::string line;
  int line_no = 0;
  std::string fence;  // the open fence, "" outside a code block
  int open_details = 0;
  int table_cells = -1;  // separators of the current table's header row
  static const std::vector<std::string> allowed = {"<details>",  "</details>", "<summary>",
                                                   "</summary>", "<sub>",      "</sub>"};
  while (std::getline(in, line)) {
    ++line_no;
    const std::string where = fmt::format("line {}: {}", line_no, line);
    if (!fence.empty()) {
      std::string t = line;
      while (!t.empty() && t.back() == ' ') t.pop_back();
      if (t.size() >= fence.size() && t.find_first_not_of('`') == std::string::npos) {
        fence.clear();
      } else if (line.find("</details") != std::string::npos) {
        problems.push_back("unescaped </details inside a code block (" + where + ")");
      }
      continue;
    }
    if (line.rfind("```", 0) == 0) {
      fence = line.substr(0, line.find_first_not_of('`'));
      table_cells = -1;
      continue;
    }
    if (line_no == 1) {
      if (line.rfind("<!-- benchpr:comment key=", 0) != 0)
        problems.push_back("first line is not the sticky marker (" + where + ")");
      continue;
    }
    if (line.rfind("<!-- benchpr:comment", 0) == 0) {
      problems.push_back("a second sticky marker: the comment appears twice (" + where + ")");
      continue;
    }
    // The template's only heading is its title on line 2; any other line that GitHub would
    // render as a heading came from untrusted text.
    if (line_no != 2 && line.find_first_not_of(' ') < 4 &&
        line[line.find_first_not_of(' ')] == '#' &&
        line.find_first_not_of('#', line.find_first_not_of(' ')) != std::string::npos &&
        line[line.find_first_not_of('#', line.find_first_not_of(' '))] == ' ')
      problems.push_back("a heading outside the template's title (" + where + ")");
    if (line.rfind("|", 0) == 0) {
      const int cells = cell_separators(line);
      if (table_cells < 0) {
        table_cells = cells;
      } else if (cells != table_cells) {
        problems.push_back(fmt::format("table row has {} cell separators, its header {} ({})",
                                       cells, table_cells, where));
      }
    } else {
      table_cells = -1;
    }
    const SplitLine split = split_code_spans(line);
    const std::string& p = split.prose;
    for (std::size_t i = 0; i < p.size(); ++i) {
      if (p[i] == '<') {
        bool ok = false;
        for (const auto& tag : allowed) {
          if (p.compare(i, tag.size(), tag) == 0) {
            ok = true;
            if (tag == "<details>") ++open_details;
            if (tag == "</details>" && --open_details < 0)
              problems.push_back("</details> without an open <details> (" + where + ")");
          }
        }
        if (!ok && i + 1 < p.size() &&
            (std::isalpha(static_cast<unsigned char>(p[i + 1])) || p[i + 1] == '/' ||
             p[i + 1] == '!' || p[i + 1] == '?'))
          problems.push_back("raw HTML outside code (" + where + ")");
      }
      if (p[i] == '@' && i + 1 < p.size() && std::isalnum(static_cast<unsigned char>(p[i + 1])) &&
          (i == 0 || !std::isalnum(static_cast<unsigned char>(p[i - 1]))))
        problems.push_back("live @mention outside code (" + where + ")");
      if (p[i] == '#' && i + 1 < p.size() && std::isdigit(static_cast<unsigned char>(p[i + 1])) &&
          (i == 0 || (!std::isalnum(static_cast<unsigned char>(p[i - 1])) && p[i - 1] != '&')))
        problems.push_back("live #reference outside code (" + where + ")");
    }
    if (p.find("](") != std::string::npos && p.find("](https://github.com/") == std::string::npos)
      problems.push_back("markdown link outside code (" + where + ")");
    if (p.find("http://") != std::string::npos || p.find("https://evil") != std::string::npos ||
        p.find("www.") != std::string::npos)
      problems.push_back("bare URL outside code (" + where + ")");
  }
  if (!fence.empty()) problems.push_back("code block never closed");
  if (open_details != 0)
    problems.push_back(fmt::format("{} <details> left open at the end", open_details));
  return problems;
}

}  // namespace benchpr::testing::faults
