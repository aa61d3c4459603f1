// A differential icicle graph of one profiled benchmark, as inline SVG for the HTML report: the
// PR's call tree from the benchmark's function down, each box as wide as its inclusive
// instructions per iteration in the PR, coloured by how that count changed from the base (red:
// more, green: fewer, grey: the same), a <title> tooltip with the numbers on each box. No
// script: readable as it is. Every name is escaped (it comes from the PR's code).
#pragma once

#include <string>

#include "benchpr/core/model/profile.hpp"

namespace benchpr::render {

// "" when the profile has no benchmark function to start from.
std::string icicle_svg(const FunctionProfile& base, const FunctionProfile& head);

}  // namespace benchpr::render
