#include "benchpr/github/actions_files.hpp"

#include <filesystem>
#include <fstream>
#include <random>

namespace benchpr::github {
namespace {

void append(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary | std::ios::app);
  if (!out) throw ActionsFileError("cannot open " + path + " for appending");
  out << text;
  out.flush();
  if (!out) throw ActionsFileError("cannot write to " + path);
}

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
  if (existing + text.size() > kMaxStepSummaryBytes) {
    throw ActionsFileError("the job summary would be " + std::to_string(existing + text.size()) +
                           " bytes; GitHub accepts at most " +
                           std::to_string(kMaxStepSummaryBytes));
  }
  append(path, text);
}

}  // namespace benchpr::github
