#include "benchpr/core/session_analysis.hpp"

#include "benchpr/core/adaptive.hpp"
#include "benchpr/core/analysis.hpp"

namespace benchpr {

Analysis analyse_session(const Results& results) {
  if (results.config.budget_seconds) {
    return adaptive_analysis(results, adaptive_plan_for(results.config));
  }
  return analyse(results);
}

}  // namespace benchpr
