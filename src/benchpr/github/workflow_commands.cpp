#include "benchpr/github/workflow_commands.hpp"

namespace benchpr::github {
namespace {

std::string escape(std::string_view text, bool property) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    switch (c) {
      case '%':
        out += "%25";
        break;
      case '\r':
        out += "%0D";
        break;
      case '\n':
        out += "%0A";
        break;
      case ':':
        out += property ? "%3A" : ":";
        break;
      case ',':
        out += property ? "%2C" : ",";
        break;
      default:
        out += c;
    }
  }
  return out;
}

std::string annotation(std::string_view kind, std::string_view message,
                       const AnnotationProperties& p) {
  std::string props;
  auto add = [&props](std::string_view name, const std::string& value) {
    props += (props.empty() ? "" : ",") + std::string(name) + "=" + escape_command_property(value);
  };
  if (!p.title.empty()) add("title", p.title);
  if (!p.file.empty()) add("file", p.file);
  if (p.line) add("line", std::to_string(*p.line));
  if (p.end_line) add("endLine", std::to_string(*p.end_line));
  std::string out = "::" + std::string(kind);
  if (!props.empty()) out += " " + props;
  return out + "::" + escape_command_data(message);
}

}  // namespace

std::string escape_command_data(std::string_view text) { return escape(text, false); }
std::string escape_command_property(std::string_view text) { return escape(text, true); }

std::string group_command(std::string_view title) {
  return "::group::" + escape_command_data(title);
}
std::string endgroup_command() { return "::endgroup::"; }

std::string warning_command(std::string_view message, const AnnotationProperties& properties) {
  return annotation("warning", message, properties);
}
std::string notice_command(std::string_view message, const AnnotationProperties& properties) {
  return annotation("notice", message, properties);
}

}  // namespace benchpr::github
