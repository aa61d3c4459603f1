// The search for the commits behind a change in the results file ("bisect",
// docs/results-format.md): written as measured, read back checked (the file is untrusted).
#pragma once

#include <nlohmann/json.hpp>

#include "benchpr/core/model/bisect_types.hpp"

namespace benchpr {

nlohmann::json bisection_to_json(const Bisection& b);
// Throws ResultsFormatError naming the field ("results file: bisect.pairs[2].to: ...").
Bisection bisection_from_json(const nlohmann::json& j);

}  // namespace benchpr
