#include "benchpr/github/actions_files.hpp"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>

namespace benchpr::github {
namespace {

// Whether the file at `path` is non-empty and does not end in a newline: text appended to it
// would continue someone else's last line ("recommendation=merge" + our "recommendation<<...").
bool ends_mid_line(const std::string& path) {
  std::ifstream in(path, std::ios::binary | std::ios::ate);
  if (!in) return false;
  const std::streamoff size = in.tellg();
  if (size <= 0) return false;
  in.seekg(size - 1);
  char last = '\n';
  in.get(last);
  return in && last != '\n';
}

void append(const std::string& path, const std::string& text) {
  const bool fresh_line = ends_mid_line(path);
  std::ofstream out(path, std::ios::binary | std::ios::app);
  if (!out) throw ActionsFileError("cannot open " + path + " for appending");
  if (fresh_line) out << '\n';
  out << text;
  out.flush();
  if (!out) throw ActionsFileError("cannot write to " + path);
}

ActionsFileState file_state(const std::string& variable, const std::string& path) {
  ActionsFileState state;
  state.variable = variable;
  state.path = path;
  std::ifstream in(path, std::ios::binary);
  if (!in) return state;
  state.exists = true;
  std::uint64_t hash = 14695981039346656037ull;  // FNV-1a
  char buffer[1 << 16];
  while (in.read(buffer, sizeof buffer) || in.gcount() > 0) {
    const auto n = static_cast<std::size_t>(in.gcount());
    for (std::size_t i = 0; i < n; ++i) {
      hash ^= static_cast<unsigned char>(buffer[i]);
      hash *= 1099511628211ull;
    }
    state.size += n;
  }
  state.hash = hash;
  return state;
}

constexpr const char* kActionsFileVariables[] = {"GITHUB_OUTPUT", "GITHUB_ENV", "GITHUB_PATH",
                                                 "GITHUB_STATE", "GITHUB_STEP_SUMMARY"};

}  // namespace

std::string random_output_delimiter() {
  static const char* hex = "0123456789abcdef";
  std::random_device device;
  std::string delimiter = "ghadelimiter_";
  for (int i = 0; i < 32; ++i) delimiter += hex[device() % 16];
  return delimiter;
}

std::string format_output(std::string_view name, std::string_view value,
                          std::string_view delimiter) {
  if (name.empty() || name.find_first_of("\r\n") != std::string_view::npos ||
      name.find("<<") != std::string_view::npos) {
    throw ActionsFileError("invalid output name '" + std::string(name) + "'");
  }
  if (value.find(delimiter) != std::string_view::npos ||
      name.find(delimiter) != std::string_view::npos) {
    throw ActionsFileError("the value of output '" + std::string(name) +
                           "' contains its delimiter");
  }
  std::string out;
  out.append(name).append("<<").append(delimiter).append("\n");
  out.append(value).append("\n");
  out.append(delimiter).append("\n");
  return out;
}

void write_outputs(const std::string& path,
                   const std::vector<std::pair<std::string, std::string>>& outputs) {
  std::string text;
  for (const auto& [name, value] : outputs) {
    std::string delimiter = random_output_delimiter();
    while (value.find(delimiter) != std::string::npos) delimiter = random_output_delimiter();
    text += format_output(name, value, delimiter);
  }
  append(path, text);
}

void append_step_summary(const std::string& path, std::string_view markdown) {
  std::string text(markdown);
  if (!text.empty() && text.back() != '\n') text += '\n';
  std::error_code ec;
  auto existing = std::filesystem::file_size(path, ec);
  if (ec) existing = 0;
  const std::uintmax_t total = existing + (ends_mid_line(path) ? 1 : 0) + text.size();
  if (total > kMaxStepSummaryBytes) {
    throw ActionsFileError("the job summary would be " + std::to_string(total) +
                           " bytes; GitHub accepts at most " +
                           std::to_string(kMaxStepSummaryBytes));
  }
  append(path, text);
}

std::vector<ActionsFileState> fingerprint_actions_files() {
  std::vector<ActionsFileState> states;
  for (const char* variable : kActionsFileVariables) {
    const char* path = std::getenv(variable);
    if (path && *path) states.push_back(file_state(variable, path));
  }
  return states;
}

std::vector<std::string> changed_actions_files(const std::vector<ActionsFileState>& before) {
  std::vector<std::string> changed;
  for (const auto& then : before) {
    const ActionsFileState now = file_state(then.variable, then.path);
    if (now.exists != then.exists || now.size != then.size || now.hash != then.hash)
      changed.push_back(then.variable);
  }
  return changed;
}

}  // namespace benchpr::github
