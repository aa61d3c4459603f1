#include "benchpr/app/suggest.hpp"

#include <algorithm>

namespace benchpr::app {

std::size_t edit_distance(std::string_view a, std::string_view b) {
  const std::size_t n = a.size(), m = b.size();
  std::vector<std::vector<std::size_t>> d(n + 1, std::vector<std::size_t>(m + 1));
  for (std::size_t i = 0; i <= n; ++i) d[i][0] = i;
  for (std::size_t j = 0; j <= m; ++j) d[0][j] = j;
  for (std::size_t i = 1; i <= n; ++i) {
    for (std::size_t j = 1; j <= m; ++j) {
      const std::size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[n][m];
}

std::string nearest(std::string_view word, const std::vector<std::string>& candidates) {
  // Long inputs are not typos of short words; cap the work on hostile command lines too.
  if (word.empty() || word.size() > 64) return "";
  std::string best;
  std::size_t best_distance = 0;
  for (const std::string& c : candidates) {
    const std::size_t dist = edit_distance(word, c);
    if (dist == 0) return c;
    if (best.empty() || dist < best_distance) {
      best = c;
      best_distance = dist;
    }
  }
  std::size_t dashes = word.find_first_not_of('-');
  if (dashes == std::string_view::npos) dashes = word.size();
  const std::size_t core = word.size() - std::min<std::size_t>(dashes, 2);
  if (best.empty() || best_distance > 2 || best_distance * 3 > std::max<std::size_t>(core, 3))
    return "";
  return best;
}

std::string did_you_mean(std::string_view word, const std::vector<std::string>& candidates) {
  const std::string n = nearest(word, candidates);
  return n.empty() ? "" : "; did you mean `" + n + "`?";
}

}  // namespace benchpr::app
