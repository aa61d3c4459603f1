// What rendering is asked for (RenderOptions) and what a broken template override throws
// (TemplateError): shared by the renderer's entry (render.hpp) and its parts (the template set,
// the view model), which therefore need not include the entry.
#pragma once

#include <cstddef>
#include <map>
#include <string>

#include "benchpr/core/base/comment_key.hpp"
#include "benchpr/core/base/error.hpp"

namespace benchpr::render {

struct RenderOptions {
  std::string key = "default";  // sticky-comment key in the hidden marker
  // GitHub's limit on a comment body, counted here in UTF-8 bytes.
  std::size_t max_chars = kMaxCommentCharacters;
  // Template name (file name without .mustache) -> text, overriding the embedded ones.
  std::map<std::string, std::string> template_overrides;
};

// A template that does not parse, or refers to a partial that does not exist. Only user
// overrides can cause it; the message names the template.
class TemplateError : public Error {
 public:
  explicit TemplateError(const std::string& message) : Error(ErrorCategory::Config, message) {}
};

}  // namespace benchpr::render
