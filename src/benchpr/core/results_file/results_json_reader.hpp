// The DOM reader's parts that the text scanner (results_json_scan.cpp) hands the small DOM of
// every top-level field but the series: each checks its fields and names the offending one.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "benchpr/core/model/model.hpp"

namespace benchpr::results_dom {

// Everything before the series (results_schema::kHeaderFields).
Results read_header(const nlohmann::json& doc);
// Everything after the series (results_schema::kTrailerFields), into `r`.
void read_trailer(const nlohmann::json& doc, Results& r);
// The field `key` of the object `obj`; throws ResultsFormatError naming `where` when it is missing.
const nlohmann::json& require(const nlohmann::json& obj, const char* key, const std::string& where);

}  // namespace benchpr::results_dom
