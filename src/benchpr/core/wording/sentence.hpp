// Builds a sentence as TextParts: plain text, and names (untrusted: benchmark and suite names)
// to show as code. The renderers escape each part for its kind, so a name can never turn into
// markup; the plain form (names in backticks) is for JSON and logs only.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "benchpr/core/model/model.hpp"

namespace benchpr {

class Sentence {
 public:
  Sentence& text(std::string_view t);
  Sentence& code(std::string_view name);

  const std::vector<TextPart>& parts() const { return parts_; }
  std::vector<TextPart> take() && { return std::move(parts_); }

 private:
  std::vector<TextPart> parts_;
};

}  // namespace benchpr
