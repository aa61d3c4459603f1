// Keeps secrets out of anything a person or a log can read: every message the GitHub adapter
// builds from the world (server answers, transport errors, URLs) passes through here.
#pragma once

#include <string>
#include <string_view>

namespace benchpr::github {

inline constexpr std::string_view kRedacted = "***";

// `text` with every occurrence of `secret` replaced by "***". An empty secret changes nothing.
std::string redact(std::string_view text, std::string_view secret);

}  // namespace benchpr::github
