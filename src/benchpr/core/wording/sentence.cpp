#include "benchpr/core/wording/sentence.hpp"

namespace benchpr {

Sentence& Sentence::text(std::string_view t) {
  if (t.empty()) return *this;
  if (!parts_.empty() && !parts_.back().code) {
    parts_.back().text += t;
  } else {
    parts_.push_back({std::string(t), false});
  }
  return *this;
}

Sentence& Sentence::code(std::string_view name) {
  parts_.push_back({std::string(name), true});
  return *this;
}

}  // namespace benchpr
