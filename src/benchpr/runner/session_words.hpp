// Small pieces the parts of a Session share (session*.cpp): how a side is named in progress
// lines, how much of a log a failure keeps, and where a benchmark's failure is recorded.
#pragma once

#include <cstddef>
#include <string>

#include "benchpr/core/model/model.hpp"

namespace benchpr::runner::session_detail {

inline std::string side_name(Side s) { return s == Side::Base ? "base" : "PR"; }

// Keeps the last `lines` lines: enough to see the error, small enough for a comment.
inline std::string last_lines(const std::string& text, std::size_t lines) {
  std::size_t pos = text.size();
  if (pos > 0 && text[pos - 1] == '\n') --pos;
  for (std::size_t n = 0; pos > 0; --pos) {
    if (text[pos - 1] == '\n' && ++n == lines) break;
  }
  return text.substr(pos);
}

// Why the benchmark has no value on that side (the latest reason wins).
inline void set_failure(BenchmarkSeries& s, Side side, std::string why, FailureKind kind) {
  (side == Side::Base ? s.base_failure : s.head_failure) = std::move(why);
  (side == Side::Base ? s.base_failure_kind : s.head_failure_kind) = kind;
}

// The work directory's record of a side's build tree right after its build (and relinks).
std::string built_record(const std::string& records_dir, Side side);

}  // namespace benchpr::runner::session_detail
