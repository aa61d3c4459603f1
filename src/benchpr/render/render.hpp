// Markdown comment from templates (kainjow mustache). Pure: Results + Analysis in, text out.
#pragma once

#include <map>
#include <string>

#include "benchpr/core/model.hpp"

namespace benchpr::render {

struct RenderOptions {
  std::string key = "default";         // sticky-comment key in the hidden marker
  std::size_t max_chars = 65536;       // GitHub's limit on a comment body
  // Template name (file name without .mustache) -> text, overriding the embedded ones.
  std::map<std::string, std::string> template_overrides;
};

std::string render_comment(const Results& results, const Analysis& analysis,
                           const RenderOptions& options = {});

}  // namespace benchpr::render
