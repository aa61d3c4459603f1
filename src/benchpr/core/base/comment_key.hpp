// The hidden marker that makes benchpr's comment "sticky" (found again and updated instead of
// posted twice), and the comment's size limit. One definition for the renderer, which writes
// the marker on the comment's first line, and the GitHub layer, which looks for it: the two
// cannot disagree on a key or on the limit.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace benchpr {

// GitHub refuses comment bodies longer than this many characters (422). The one limit for the
// renderer, which keeps a comment's UTF-8 bytes within it (so its characters too), the GitHub
// layer, which refuses a longer body before sending it, and the job summary's least room.
inline constexpr std::size_t kMaxCommentCharacters = 65536;

// A key names one sticky comment among several on one pull request (one per workflow or matrix
// job): letters, digits, '.', '_' and '-' only, so it cannot close the HTML comment.
inline constexpr std::size_t kMaxCommentKeyChars = 100;
bool valid_comment_key(std::string_view key);

// The key reduced to what a valid key may hold: its letters, digits, '.', '_' and '-', at most
// kMaxCommentKeyChars of them; "default" when nothing is left. A valid key stays as it is.
std::string sanitize_comment_key(std::string_view key);

// "<!-- benchpr:comment key=KEY -->", KEY sanitised.
std::string sticky_marker(std::string_view key);

}  // namespace benchpr
