// How a benchmark is told apart from the same name in another suite: a key for lookups, and
// the name messages and sentences give it. One home, so every lookup and message agrees.
#pragma once

#include <string>
#include <string_view>

namespace benchpr {

// A map key for (suite, name), unique per pair: the two joined by a NUL byte, which no suite
// name holds (the configuration allows letters, digits, '_', '.', '-').
std::string series_key(std::string_view suite, std::string_view name);

// "suite/name": the benchmark as a message names it when several suites are involved.
std::string qualified_name(std::string_view suite, std::string_view name);

}  // namespace benchpr
