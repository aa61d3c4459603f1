// Rules for the body of a pull-request comment: the hidden marker that makes benchpr's comment
// "sticky" (found again and updated instead of duplicated) and GitHub's size limit.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "benchpr/core/base/comment_key.hpp"

namespace benchpr::github {

// GitHub's limit on a body is core's kMaxCommentCharacters (core/base/comment_key.hpp).

// Characters as GitHub counts them (Unicode code points of UTF-8 text; stray bytes count one).
std::size_t comment_characters(std::string_view body);

// The marker itself, and which keys are valid, are core's (core/base/comment_key.hpp): the renderer
// writes the same marker these look for.

// True when the body's first line holds the marker for exactly this key (key=default does not
// match a comment marked key=default2).
bool has_sticky_marker(std::string_view body, std::string_view key);

// The body itself when its first line already holds the marker; else the marker, a newline and
// the body, so the comment can always be found again.
std::string with_sticky_marker(std::string_view body, std::string_view key);

}  // namespace benchpr::github
