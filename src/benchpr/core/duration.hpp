#pragma once

#include <string>

namespace benchpr {

// 90 -> "1m30s", 0.25 -> "250ms", 7200 -> "2h": for messages and the comment.
std::string format_duration(double seconds);

}  // namespace benchpr
