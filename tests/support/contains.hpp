// Whether a text holds a piece: what most output checks of the tests ask.
#pragma once

#include <string>
#include <string_view>

namespace benchpr::testing {

inline bool contains(std::string_view haystack, std::string_view needle) {
  return haystack.find(needle) != std::string_view::npos;
}

}  // namespace benchpr::testing
