// The report for a person at a terminal: one aligned line per benchmark (verdict, name, base,
// PR, change with its 95% CI), the run's notes, and the recommendation last, in the spirit of
// hyperfine and critcmp. Pure: Results + Analysis in, text out; colour is ANSI escapes.
#pragma once

#include <string>

#include "benchpr/core/model/model.hpp"

namespace benchpr::render {

struct TextOptions {
  bool color = false;  // ANSI colours for verdicts and the recommendation
};

// Untrusted names and reasons are reduced to one line without control characters, so nothing
// from a pull request can move the cursor or recolour the terminal.
std::string render_text_report(const Results& results, const Analysis& analysis,
                               const TextOptions& options = {});

}  // namespace benchpr::render
