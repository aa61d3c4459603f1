// Turns one benchmark's raw series into the paired per-round log ratios the statistics use,
// with the cold-round check applied.
#pragma once

#include <optional>
#include <vector>

#include "benchpr/core/model.hpp"

namespace benchpr {

struct AnalysedRound {
  int round = 0;   // index into the series (plan index)
  int number = 0;  // 1-based among analysed rounds, as people count them
  bool head_second = false;
};

// The analysed rounds completed so far, in order (warm-up excluded).
std::vector<AnalysedRound> analysed_rounds(const Results& results);

struct PairedRounds {
  std::vector<double> d;     // ln(head/base), sign flipped when higher is better: + = worse
  std::vector<int> s;        // +1 when the PR ran second, -1 when first
  std::vector<int> numbers;  // 1-based analysed-round number of each entry
  std::vector<double> base;  // raw values of the used rounds
  std::vector<double> head;
  bool cold_first = false;     // the first analysed round looked cold
  std::optional<int> dropped;  // analysed-round number left out as cold
};

// Pairs the rounds where both sides have a positive value. When the first analysed round sits
// far from the others (robust z > 4 of the round's level, the mean log value of both sides, judged
// against the rounds after it, with at least 3 of them), it is left out: "round 1 looked cold".
PairedRounds pair_rounds(const BenchmarkSeries& series, const std::vector<AnalysedRound>& rounds);

// Robust z of x against `others`: (x - median) / (1.4826 * MAD); 0 when MAD is 0.
double robust_z(double x, const std::vector<double>& others);

}  // namespace benchpr
