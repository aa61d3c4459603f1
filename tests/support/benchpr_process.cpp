#include "support/benchpr_process.hpp"

#include <algorithm>

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <sstream>

#include "support/temp_dir.hpp"

namespace benchpr::testing {

BenchprRun run_benchpr(const std::string& binary, const std::vector<std::string>& args,
                       const std::vector<std::pair<std::string, std::string>>& env,
                       const std::string& cwd) {
  return run_benchpr_as_given(binary, time_only_unless_said(args), env, cwd);
}

std::vector<std::string> time_only_unless_said(const std::vector<std::string>& args) {
  const bool says = std::find(args.begin(), args.end(), "--instructions") != args.end() ||
                    std::find(args.begin(), args.end(), "--no-instructions") != args.end();
  if (args.empty() || args.front() != "run" || says) return args;
  std::vector<std::string> time_only = args;
  time_only.insert(time_only.begin() + 1, "--no-instructions");
  return time_only;
}

BenchprRun run_benchpr_as_given(const std::string& binary, const std::vector<std::string>& args,
                                const std::vector<std::pair<std::string, std::string>>& env,
                                const std::string& cwd) {
  TempDir io;
  const std::string out_path = io / "stdout", err_path = io / "stderr";
  pid_t pid = fork();
  if (pid == 0) {
    int out = ::open(out_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    int err = ::open(err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    dup2(out, 1);
    dup2(err, 2);
    if (!cwd.empty() && chdir(cwd.c_str()) != 0) _exit(126);
    for (const auto& [k, v] : env) setenv(k.c_str(), v.c_str(), 1);
    std::vector<char*> argv;
    argv.push_back(const_cast<char*>(binary.c_str()));
    for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    execv(binary.c_str(), argv.data());
    _exit(127);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  BenchprRun r;
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  r.out = read_file(out_path);
  r.err = read_file(err_path);
  return r;
}

}  // namespace benchpr::testing
