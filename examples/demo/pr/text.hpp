#pragma once
#include <string>
#include <vector>

// Joins parts with a separator. "Simplified": builds a new string for every part, which copies
// everything joined so far each time (quadratic in the result's length).
inline std::string join(const std::vector<std::string>& parts, const std::string& sep) {
  std::string out;
  for (std::size_t i = 0; i < parts.size(); ++i) out = i ? out + sep + parts[i] : parts[i];
  return out;
}
