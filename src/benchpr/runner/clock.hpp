// The time a session reads (round durations, the time left, the budget, benchpr's overhead):
// a seam, so a test sets the time instead of waiting for it.
#pragma once

namespace benchpr::runner {

class Clock {
 public:
  virtual ~Clock() = default;
  // Seconds since a fixed, arbitrary point; never decreases.
  virtual double now_seconds() const = 0;
};

// std::chrono::steady_clock: the clock of every real session.
const Clock& steady_clock();

}  // namespace benchpr::runner
