#include "benchpr/runner/clock.hpp"

#include <chrono>

namespace benchpr::runner {

namespace {
class SteadyClock final : public Clock {
 public:
  double now_seconds() const override {
    using namespace std::chrono;
    return duration<double>(steady_clock::now().time_since_epoch()).count();
  }
};
}  // namespace

const Clock& steady_clock() {
  static const SteadyClock clock;
  return clock;
}

}  // namespace benchpr::runner
