// A clock that moves only when the test moves it, for the session's times (runner/clock.hpp).
#pragma once

#include "benchpr/runner/clock.hpp"

namespace benchpr::testing {

class FakeClock final : public runner::Clock {
 public:
  double now_seconds() const override { return now_; }
  void advance(double seconds) { now_ += seconds; }

 private:
  double now_ = 1000;  // any fixed point: the session only reads differences
};

}  // namespace benchpr::testing
