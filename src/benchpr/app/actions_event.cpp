#include "benchpr/app/actions_event.hpp"

#include <cstdlib>

namespace benchpr::app {

std::string env_or_empty(const char* name) {
  const char* value = std::getenv(name);
  return value ? std::string(value) : std::string();
}

}  // namespace benchpr::app
