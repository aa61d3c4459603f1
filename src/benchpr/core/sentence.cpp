#include "benchpr/core/sentence.hpp"

#include <algorithm>

#include <fmt/format.h>

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

Sentence& Sentence::codes(const std::vector<std::string>& names, std::size_t at_most) {
  const std::size_t shown = std::min(names.size(), at_most);
  const bool more = names.size() > shown;
  const std::size_t items = shown + (more ? 1 : 0);
  for (std::size_t i = 0; i < shown; ++i) {
    if (i > 0) text(i + 1 == items ? " and " : ", ");
    code(names[i]);
  }
  if (more) text(fmt::format("{}{} more", shown > 0 ? " and " : "", names.size() - shown));
  return *this;
}

}  // namespace benchpr
