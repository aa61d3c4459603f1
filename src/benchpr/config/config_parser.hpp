// .benchpr.yml -> Config. Pure (takes the file's text), so the runner can read it from the base
// revision's tree rather than the work tree.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "benchpr/core/base/error.hpp"
#include "benchpr/core/model/model.hpp"

namespace benchpr::config {

// Message names the key and the line: ".benchpr.yml:7: rounds: expected a positive integer, got
// 'ten'".
class ConfigError : public Error {
 public:
  explicit ConfigError(const std::string& message) : Error(ErrorCategory::Config, message) {}
};

// The range a threshold must lie in, in the file and on the command line alike.
inline constexpr double kMinThreshold = 0.001;
inline constexpr double kMaxThreshold = 0.5;
inline constexpr int kMinRounds = 2;
inline constexpr int kMaxRounds = 1000;

Config parse_config(std::string_view yaml_text, const std::string& file_name = ".benchpr.yml");

// "90s", "20m", "1h", "1h30m", "2m 30s", "250ms", "1.5h"; units in decreasing order, each once;
// plain numbers are seconds. nullopt if malformed (signs, "inf", exponents included).
std::optional<double> parse_duration(std::string_view text);
// "2%", "0.5%" -> 0.02, 0.005; nullopt if malformed, including bare numbers ("0.02").
std::optional<double> parse_percentage(std::string_view text);

}  // namespace benchpr::config
