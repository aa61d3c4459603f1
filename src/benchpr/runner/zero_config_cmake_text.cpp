#include "benchpr/runner/zero_config_cmake_text.hpp"

#include <cctype>

#include "benchpr/core/base/text.hpp"

namespace benchpr::runner::zero_config_detail {

// CMake source without comments (a '#' outside a quoted string starts one), so commented-out
// targets are not suggested.
std::string strip_cmake_comments(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  bool quoted = false, comment = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '\n') {
      comment = false;
      out += c;
      continue;
    }
    if (comment) continue;
    if (c == '"' && (i == 0 || text[i - 1] != '\\')) quoted = !quoted;
    if (c == '#' && !quoted) {
      comment = true;
      continue;
    }
    out += c;
  }
  return out;
}

bool word_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }
bool cmake_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }
bool target_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' || c == '+' ||
         c == '-';
}

// Every call of command `name` (lower case) in `text` (lower-cased), in order. Linear: the
// position of the next ')' is found once for all calls before it.
std::vector<CMakeCall> cmake_calls(std::string_view text, std::string_view name) {
  std::vector<CMakeCall> calls;
  std::size_t close = 0;
  bool close_known = false;
  for (std::size_t at = text.find(name); at != std::string_view::npos;
       at = text.find(name, at + 1)) {
    if (at > 0 && word_char(text[at - 1])) continue;
    std::size_t i = at + name.size();
    while (i < text.size() && cmake_space(text[i])) ++i;
    if (i >= text.size() || text[i] != '(') continue;
    ++i;
    while (i < text.size() && cmake_space(text[i])) ++i;
    const std::size_t first_begin = i;
    while (i < text.size() && target_char(text[i])) ++i;
    CMakeCall call;
    call.first = text.substr(first_begin, i - first_begin);
    if (!close_known || (close != std::string_view::npos && close < i)) {
      close = text.find(')', i);
      close_known = true;
    }
    call.closed = close != std::string_view::npos;
    call.rest = text.substr(i, (call.closed ? close : text.size()) - i);
    calls.push_back(call);
  }
  return calls;
}

// Words of a CMake argument list, split at spaces and quotes.
std::vector<std::string_view> cmake_words(std::string_view args) {
  std::vector<std::string_view> words;
  std::size_t i = 0;
  while (i < args.size()) {
    while (i < args.size() && (cmake_space(args[i]) || args[i] == '"')) ++i;
    const std::size_t begin = i;
    while (i < args.size() && !cmake_space(args[i]) && args[i] != '"') ++i;
    if (i > begin) words.push_back(args.substr(begin, i - begin));
  }
  return words;
}

bool is_benchmark_library(std::string_view word) {
  return word == "benchmark" || word == "benchmark_main" || word == "benchmark::benchmark" ||
         word == "benchmark::benchmark_main";
}

namespace {

// `word` occurs in `text` with no letter, digit or '_' on either side.
bool contains_word(std::string_view text, std::string_view word) {
  for (std::size_t at = text.find(word); at != std::string_view::npos;
       at = text.find(word, at + 1)) {
    const std::size_t end = at + word.size();
    if ((at == 0 || !word_char(text[at - 1])) && (end == text.size() || !word_char(text[end])))
      return true;
  }
  return false;
}

}  // namespace

// The CMake source (comments stripped) uses Google Benchmark: find_package(benchmark), a
// benchmark:: target, a FetchContent of google/benchmark, benchmark_main, or a plain
// `benchmark` among the libraries of target_link_libraries.
bool uses_benchmark(const std::string& cmake_text) {
  const std::string text = lower(cmake_text);
  if (text.find("benchmark::benchmark") != std::string::npos ||
      text.find("google/benchmark") != std::string::npos ||
      text.find("googlebenchmark") != std::string::npos || contains_word(text, "benchmark_main"))
    return true;
  for (const CMakeCall& call : cmake_calls(text, "find_package")) {
    if (call.first == "benchmark" ||
        (call.first.starts_with("benchmark") && !word_char(call.first[9])))
      return true;
  }
  for (const CMakeCall& call : cmake_calls(text, "target_link_libraries")) {
    for (std::string_view word : cmake_words(call.rest)) {
      if (word == "benchmark") return true;
    }
  }
  return false;
}

// Every command of comment-free CMake `text`, in order. Linear; a command whose ')' is missing
// takes the rest of the text.
std::vector<CMakeCommand> cmake_commands(std::string_view text) {
  std::vector<CMakeCommand> commands;
  std::size_t i = 0;
  while (i < text.size()) {
    if (!(std::isalpha(static_cast<unsigned char>(text[i])) || text[i] == '_') ||
        (i > 0 && word_char(text[i - 1]))) {
      ++i;
      continue;
    }
    const std::size_t begin = i;
    while (i < text.size() && word_char(text[i])) ++i;
    std::size_t j = i;
    while (j < text.size() && (text[j] == ' ' || text[j] == '\t')) ++j;
    if (j >= text.size() || text[j] != '(') continue;
    CMakeCommand command{lower(std::string(text.substr(begin, i - begin))), ""};
    int depth = 1;
    bool quoted = false;
    std::size_t k = j + 1;
    for (; k < text.size() && depth > 0; ++k) {
      const char c = text[k];
      if (c == '"' && text[k - 1] != '\\') quoted = !quoted;
      if (quoted) continue;
      if (c == '(') ++depth;
      if (c == ')') --depth;
    }
    const std::size_t end = depth == 0 ? k - 1 : text.size();
    command.args = std::string(trim(text.substr(j + 1, end - j - 1)));
    commands.push_back(std::move(command));
    i = k;
  }
  return commands;
}

// The words of an if() condition, parentheses and quotes dropped.
std::vector<std::string> condition_words(const std::string& condition) {
  std::string spaced = condition;
  for (char& c : spaced)
    if (c == '(' || c == ')' || c == '"') c = ' ';
  std::vector<std::string> words;
  for (std::string_view w : cmake_words(spaced)) words.emplace_back(w);
  return words;
}

std::string one_spaced(std::string_view text) {
  std::string out;
  for (std::string_view w : cmake_words(text)) {
    if (!out.empty()) out += ' ';
    out += w;
  }
  return out;
}

// `part` (a view into `lowered`, the lower-cased `text`) in the case of `text`.
std::string original_case(const std::string& text, const std::string& lowered,
                          std::string_view part) {
  return text.substr(static_cast<std::size_t>(part.data() - lowered.data()), part.size());
}

}  // namespace benchpr::runner::zero_config_detail
