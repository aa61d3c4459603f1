#include "benchpr/runner/suite_command_line.hpp"

#include <cctype>

#include <fmt/format.h>

#include "benchpr/core/base/text.hpp"
#include "benchpr/runner/gbench_filter_argument.hpp"

namespace benchpr::runner {

namespace {

// Sets Google Benchmark flag `name` (without "--benchmark_") to `value`: as BENCHMARK_NAME in the
// environment, or, when the user's own arguments give the flag, on the command line after them.
class GbenchFlags {
 public:
  GbenchFlags(RunCommand& rc, std::string user_args) : rc_(rc), user_(std::move(user_args)) {}

  void set(const std::string& name, const std::string& value) {
    std::string var = "BENCHMARK_";
    for (char c : name) var += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    // The user's command gives the flag (as an argument, or as a variable set in the command
    // itself, which would shadow benchpr's): benchpr's value goes after it on the command line.
    if (user_.find("--benchmark_" + name) != std::string::npos ||
        user_.find(var + "=") != std::string::npos) {
      rc_.command += fmt::format(" --benchmark_{}={}", name, shell_quote(value));
      return;
    }
    rc_.env.emplace_back(std::move(var), value);
  }

 private:
  RunCommand& rc_;
  std::string user_;
};

std::string filter_regex(const RunFlags& flags) {
  if (!flags.only.empty()) {
    std::string regex = "^(";
    for (std::size_t i = 0; i < flags.only.size(); ++i)
      regex += (i ? "|" : "") + regex_escape(flags.only[i]);
    return regex + ")$";
  }
  return flags.filter;
}

}  // namespace

RunCommand make_run_command(const SuiteConfig& suite, const formats::Format& format,
                            const std::string& out_path, const RunFlags& flags) {
  RunCommand rc;
  const bool gbench = suite.format == FormatKind::GoogleBenchmark;
  const std::string placeholder = "{out}";
  if (auto pos = suite.run.find(placeholder); pos != std::string::npos) {
    rc.command = suite.run;
    const std::string quoted = shell_quote(out_path);
    for (; pos != std::string::npos; pos = rc.command.find(placeholder, pos + quoted.size())) {
      rc.command.replace(pos, placeholder.size(), quoted);
    }
    if (!flags.bench_args.empty()) rc.command += " " + flags.bench_args;
    if (gbench) {
      // The user's own argument list stays as it is (a main() may check it, as spdlog's
      // formatter-bench does): the filter of --filter or of an adaptive look goes through
      // BENCHMARK_FILTER, or after the user's own filter on the command line, where it wins.
      GbenchFlags set(rc, suite.run + " " + flags.bench_args);
      if (const std::string regex = filter_regex(flags); !regex.empty()) set.set("filter", regex);
      return rc;
    }
    if (!flags.only.empty()) rc.command += gbench_filter_argument(flags.only);
    return rc;
  }
  rc.command = suite.run;
  if (gbench) {
    if (!flags.bench_args.empty()) rc.command += " " + flags.bench_args;
    GbenchFlags set(rc, suite.run + " " + flags.bench_args);
    // Results go to the file as JSON; the console keeps the human-readable table, so the tail
    // of a failed run's log shows what a person needs to see.
    set.set("format", "console");
    set.set("out", out_path);
    set.set("out_format", "json");
    set.set("repetitions", std::to_string(flags.repetitions));
    set.set("enable_random_interleaving", "true");
    if (const std::string regex = filter_regex(flags); !regex.empty()) set.set("filter", regex);
    if (flags.min_time) set.set("min_time", fmt::format("{:g}", *flags.min_time));
    return rc;
  }
  const std::string extra = format.extra_arguments(out_path, flags.repetitions);
  rc.command += extra;
  rc.reads_file = !extra.empty();
  if (!flags.bench_args.empty()) rc.command += " " + flags.bench_args;
  if (!flags.only.empty()) rc.command += gbench_filter_argument(flags.only);
  return rc;
}

}  // namespace benchpr::runner
