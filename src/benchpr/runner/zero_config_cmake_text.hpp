// Reading CMake text for the zero-config scan: comments stripped, the calls of a command and
// their arguments, the words of an argument list or an if() condition, and whether a file uses
// Google Benchmark. Linear scans, not std::regex: libstdc++'s matcher recurses once per character
// of a repetition, and a CMakeLists.txt with 40 KB inside `target_link_libraries(` overflowed the
// stack (SIGSEGV).
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace benchpr::runner::zero_config_detail {

// CMake source without comments (a '#' outside a quoted string starts one), so commented-out
// targets are not suggested.
std::string strip_cmake_comments(const std::string& text);

// Characters of CMake (and of the other text the scan reads): a word's, a space, a target name's.
bool word_char(char c);
bool cmake_space(char c);
bool target_char(char c);

// One call `name ( first rest )` in lower-cased CMake text; `rest` runs to the first ')' or the
// end of the text when there is none (`closed` false).
struct CMakeCall {
  std::string_view first;  // the first argument, if it is a plain target name
  std::string_view rest;   // the text after it up to the closing ')'
  bool closed = false;
};

// Every call of command `name` (lower case) in `text` (lower-cased), in order. Linear: the
// position of the next ')' is found once for all calls before it.
std::vector<CMakeCall> cmake_calls(std::string_view text, std::string_view name);

// Words of a CMake argument list, split at spaces and quotes.
std::vector<std::string_view> cmake_words(std::string_view args);

// A library name that is Google Benchmark's (benchmark, benchmark_main, benchmark::…).
bool is_benchmark_library(std::string_view word);

// The CMake source (comments stripped) uses Google Benchmark: find_package(benchmark), a
// benchmark:: target, a FetchContent of google/benchmark, benchmark_main, or a plain
// `benchmark` among the libraries of target_link_libraries.
bool uses_benchmark(const std::string& cmake_text);

// One CMake command invocation: its name (lower case) and its arguments as written, up to the
// matching ')' (nested parentheses included, as in `if((A OR B) AND C)`).
struct CMakeCommand {
  std::string name;
  std::string args;
};

// Every command of comment-free CMake `text`, in order. Linear; a command whose ')' is missing
// takes the rest of the text.
std::vector<CMakeCommand> cmake_commands(std::string_view text);

// The words of an if() condition, parentheses and quotes dropped.
std::vector<std::string> condition_words(const std::string& condition);

// The words of `text` joined by single spaces.
std::string one_spaced(std::string_view text);

// `part` (a view into `lowered`, the lower-cased `text`) in the case of `text`.
std::string original_case(const std::string& text, const std::string& lowered,
                          std::string_view part);

}  // namespace benchpr::runner::zero_config_detail
