// Whitespace clean-up of rendered markdown, so templates can be written for readability
// (generous blank lines, tags on their own lines) and the output is still tidy.
#pragma once

#include <string>
#include <string_view>

namespace benchpr::render {

// Outside fenced code blocks: trailing spaces/tabs removed, runs of blank lines folded into one,
// a blank line inserted before a table that directly follows text, no leading blank lines.
// Inside fenced blocks only trailing whitespace is removed. Ends with exactly one newline.
std::string tidy_markdown(std::string_view text);

}  // namespace benchpr::render
