// "did you mean `--dry-run`?": the nearest of the known words to a mistyped one.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace benchpr::app {

// Optimal string alignment distance (insertions, deletions, substitutions, adjacent swaps).
std::size_t edit_distance(std::string_view a, std::string_view b);

// The candidate closest to `word` when it is close enough to be a typo (at most 2 edits, and
// at most a third of the word), else "". Ties go to the first candidate.
std::string nearest(std::string_view word, const std::vector<std::string>& candidates);

// "; did you mean `--dry-run`?" or "" when nothing is near.
std::string did_you_mean(std::string_view word, const std::vector<std::string>& candidates);

}  // namespace benchpr::app
