#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace benchpr {

// 90 -> "1m30s", 0.25 -> "250ms", 7200 -> "2h": for messages and the comment.
std::string format_duration(double seconds);

// Nanoseconds in one `unit` of time ("ns", "us", "µs" or "μs", "ms", "s" or "sec"); nothing when
// `unit` is not one of them. The one list of time units: the formats read them, the value check
// and the renderer scale by them.
std::optional<double> nanoseconds_per(std::string_view unit);

}  // namespace benchpr
