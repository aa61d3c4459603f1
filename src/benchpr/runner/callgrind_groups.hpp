// Several benchmarks of a suite counted in one Callgrind process, so that a suite whose start-up
// is costly (data loaded in main before any benchmark runs) pays it once per process instead of
// once per benchmark: under Valgrind a start-up of seconds becomes minutes.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace benchpr::runner {

// Which of `names` (a suite's benchmarks, in the order the suite runs them) share each process:
// at most `processes` groups, none empty, each in the suite's order. A benchmark's group follows
// from its name alone, so a PR that adds or removes a benchmark leaves the others' company the
// same on both sides whenever the number of groups is.
std::vector<std::vector<std::size_t>> callgrind_groups(const std::vector<std::string>& names,
                                                       int processes);

// The benchmarks a Google Benchmark JSON reports, in order, each once (repetitions and
// aggregates of one benchmark are consecutive); nothing when the text is not such a JSON.
std::vector<std::string> reported_benchmarks(const std::string& json_text);

// A Callgrind dump file of a folder: cg.<pid>.<part>.
struct DumpFile {
  long pid = 0;
  long part = 0;
  std::string file;  // its name in the folder
};
// The dump files of `dir`, by process and in the order they were written (not the profile
// cg.<pid> written at exit, nor anything else).
std::vector<DumpFile> list_dump_files(const std::string& dir);

// Hands a finished group process's files to its benchmarks. For each process folder (1/ and 2/
// of `group_dir`), benchmark k's timer dumps move to `member_dirs`[k]/<process>/ and the JSON is
// linked there as out.json; each member gets the group's log and an rc of "0 start end", its
// share of the group's time. Nothing moves unless both processes' dumps and JSON reports name
// exactly `names`, in order, from one process: otherwise the reason, and the caller counts the
// benchmarks one by one.
std::optional<std::string> split_group_run(const std::string& group_dir,
                                           const std::vector<std::string>& names,
                                           const std::vector<std::string>& member_dirs);

}  // namespace benchpr::runner
