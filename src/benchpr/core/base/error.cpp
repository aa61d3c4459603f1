#include "benchpr/core/base/error.hpp"

namespace benchpr {

std::string_view to_string(ErrorCategory category) {
  switch (category) {
    case ErrorCategory::Usage:
      return "usage";
    case ErrorCategory::Config:
      return "configuration";
    case ErrorCategory::Input:
      return "input";
    case ErrorCategory::Git:
      return "git";
    case ErrorCategory::GitHub:
      return "github";
    case ErrorCategory::Output:
      return "output";
    case ErrorCategory::Void:
      return "void";
    case ErrorCategory::Internal:
      return "internal";
  }
  return "internal";
}

}  // namespace benchpr
