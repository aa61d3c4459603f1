#pragma once

#include <string_view>
#include <vector>

namespace benchpr::render {

struct EmbeddedTemplate {
  std::string_view name;  // file name without .mustache
  std::string_view text;
};

// Generated at build time from templates/*.mustache.
const std::vector<EmbeddedTemplate>& embedded_templates();

}  // namespace benchpr::render
