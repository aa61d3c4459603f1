// GitHub Actions workflow commands: lines printed to stdout that the runner interprets
// (log groups, annotations, masks). Pure: each returns the line (without newline) to print.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace benchpr::github {

// Message text: % -> %25, \r -> %0D, \n -> %0A.
std::string escape_command_data(std::string_view text);
// Property values: as data, plus : -> %3A and , -> %2C.
std::string escape_command_property(std::string_view text);

struct AnnotationProperties {
  std::string title;
  std::string file;
  std::optional<int> line;
  std::optional<int> end_line;
};

std::string group_command(std::string_view title);  // "::group::TITLE"
std::string endgroup_command();                     // "::endgroup::"
// "::warning title=T,file=F,line=1::MESSAGE" (properties that are unset are left out).
std::string warning_command(std::string_view message, const AnnotationProperties& properties = {});
std::string notice_command(std::string_view message, const AnnotationProperties& properties = {});

}  // namespace benchpr::github
