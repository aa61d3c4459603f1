#include "benchpr/runner/callgrind_groups.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <sstream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "benchpr/core/model/model.hpp"
#include "benchpr/exec/process.hpp"
#include "benchpr/runner/callgrind.hpp"
#include "benchpr/runner/results_store.hpp"

namespace benchpr::runner {

namespace {

namespace fs = std::filesystem;

// FNV-1a: stable across runs, builds and machines (std::hash is none of these).
std::uint64_t stable_hash(const std::string& text) {
  std::uint64_t h = 1469598103934665603ULL;
  for (unsigned char c : text) {
    h ^= c;
    h *= 1099511628211ULL;
  }
  return h;
}

// One process folder's dumps, benchmark by benchmark, checked against `names`: the files of each
// benchmark's timer dumps, or why they cannot be told apart.
struct ProcessSplit {
  std::vector<std::vector<std::string>> files;  // per benchmark
  std::optional<std::string> failure;
};

ProcessSplit split_process(const std::string& dir, const std::vector<std::string>& names) {
  ProcessSplit out;
  const std::optional<std::string> json = read_text_file_if_any(dir + "/out.json", 64u << 20);
  if (!json) return {{}, "its JSON is missing"};
  const std::vector<std::string> reported = reported_benchmarks(*json);
  if (reported != names)
    return {{},
            fmt::format("its JSON reports {} benchmarks where {} were asked for, or in another "
                        "order",
                        reported.size(), names.size())};
  std::vector<CallgrindDump> dumps;
  std::vector<std::string> files;
  long pid = -1;
  for (const DumpFile& f : list_dump_files(dir)) {
    const std::optional<std::string> text = read_text_file_if_any(dir + "/" + f.file, 256u << 20);
    if (!text) return {{}, "a dump file cannot be read: " + f.file};
    const std::optional<CallgrindDump> d = parse_callgrind_dump(*text);
    if (!d) continue;
    if (pid >= 0 && f.pid != pid) return {{}, "more than one process ran benchmarks"};
    pid = f.pid;
    dumps.push_back(*d);
    files.push_back(f.file);
  }
  const std::vector<std::vector<std::size_t>> by_benchmark = dumps_by_benchmark(dumps);
  if (by_benchmark.size() != names.size())
    return {{},
            fmt::format("Callgrind saw {} benchmark reports where {} benchmarks ran (a benchmark "
                        "that never entered its loop cannot be told apart)",
                        by_benchmark.size(), names.size())};
  for (const auto& indices : by_benchmark) {
    std::vector<std::string>& mine = out.files.emplace_back();
    for (std::size_t i : indices)
      if (dumps[i].trigger != CallgrindDump::Trigger::Report) mine.push_back(files[i]);
  }
  return out;
}

void link_or_copy(const std::string& from, const std::string& to, std::error_code& ec) {
  fs::create_hard_link(from, to, ec);
  if (ec) {
    ec.clear();
    fs::copy_file(from, to, fs::copy_options::overwrite_existing, ec);
  }
}

}  // namespace

std::vector<std::vector<std::size_t>> callgrind_groups(const std::vector<std::string>& names,
                                                       int processes) {
  const std::size_t n = std::min(names.size(), static_cast<std::size_t>(std::max(1, processes)));
  std::vector<std::vector<std::size_t>> groups(n);
  if (n == 0) return groups;
  for (std::size_t i = 0; i < names.size(); ++i) groups[stable_hash(names[i]) % n].push_back(i);
  std::erase_if(groups, [](const std::vector<std::size_t>& g) { return g.empty(); });
  return groups;
}

std::vector<std::string> reported_benchmarks(const std::string& json_text) {
  const nlohmann::json j = nlohmann::json::parse(json_text, nullptr, false);
  std::vector<std::string> out;
  if (j.is_discarded() || !j.is_object() || !j.contains("benchmarks") ||
      !j["benchmarks"].is_array())
    return out;
  for (const auto& b : j["benchmarks"]) {
    if (!b.is_object()) continue;
    // Aggregates carry the benchmark's name in run_name ("BM_A" for "BM_A_mean").
    std::string name = b.value("run_name", std::string());
    if (name.empty()) name = b.value("name", std::string());
    if (out.empty() || out.back() != name) out.push_back(std::move(name));
  }
  return out;
}

std::vector<DumpFile> list_dump_files(const std::string& dir) {
  std::vector<DumpFile> files;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    const std::string file = entry.path().filename().string();
    long pid = 0, part = 0;
    char tail = 0;
    if (std::sscanf(file.c_str(), "cg.%ld.%ld%c", &pid, &part, &tail) != 2) continue;
    files.push_back({pid, part, file});
  }
  std::sort(files.begin(), files.end(), [](const DumpFile& a, const DumpFile& b) {
    return a.pid != b.pid ? a.pid < b.pid : a.part < b.part;
  });
  return files;
}

std::optional<std::string> split_group_run(const std::string& group_dir,
                                           const std::vector<std::string>& names,
                                           const std::vector<std::string>& member_dirs) {
  if (names.size() != member_dirs.size() || names.empty()) return "no benchmarks to split";
  std::istringstream rc(read_text_file_if_any(group_dir + "/rc", 1024).value_or(""));
  int code = -1;
  double start = 0, end = 0;
  if (!(rc >> code >> start >> end)) return "the process did not run";
  if (code > 128 && code < 160)
    return fmt::format("the process was killed by signal {}", code - 128);
  if (code != 0) return fmt::format("the process ended with exit code {}", code);
  std::vector<std::pair<std::string, ProcessSplit>> processes;
  for (const char* process : {"1", "2"}) {
    ProcessSplit split = split_process(group_dir + "/" + process, names);
    if (split.failure) return fmt::format("process {}: {}", process, *split.failure);
    processes.emplace_back(process, std::move(split));
  }
  // Checked: now move. A failure past this point leaves a benchmark's folder without its files,
  // which reading it reports.
  const double share = std::max(0.0, end - start) / static_cast<double>(names.size());
  std::error_code ec;
  for (std::size_t k = 0; k < names.size(); ++k) {
    const std::string& member = member_dirs[k];
    for (const auto& [process, split] : processes) {
      const std::string from = group_dir + "/" + process, to = member + "/" + process;
      fs::create_directories(to, ec);
      for (const std::string& file : split.files[k])
        fs::rename(from + "/" + file, to + "/" + file, ec);
      link_or_copy(from + "/out.json", to + "/out.json", ec);
    }
    link_or_copy(group_dir + "/log", member + "/log", ec);
    try {
      write_file_atomically(member + "/rc",
                            fmt::format("0 {:.6f} {:.6f}\n", start + share * static_cast<double>(k),
                                        start + share * static_cast<double>(k + 1)));
    } catch (const StoreError&) {
      // No rc: the benchmark reads as "did not run under Callgrind".
    }
  }
  return std::nullopt;
}

}  // namespace benchpr::runner
