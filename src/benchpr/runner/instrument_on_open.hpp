// Late instrumentation for suites with a slow start-up. A Callgrind process normally
// instruments from its first instruction, so a suite whose `main` spends 13 s loading data pays
// 20x that (4m23s for CRoaring's) in every counting process before any benchmark runs. Such a
// suite runs under Callgrind with --instr-atstart=no and a small preloaded library
// (src/preload/instrument_on_open.c) that turns the instrumentation on when Google Benchmark
// opens its --benchmark_out file, in RunSpecifiedBenchmarks, before the first benchmark: the
// start-up costs about 4x natively, and every benchmark is counted whole, exactly as before.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace benchpr::runner {

// The library's bytes, embedded at build time; empty when benchpr was built without Valgrind's
// headers (then start-ups are instrumented as everything else).
std::string_view instrument_on_open_library();

// A suite whose benchmarks take at least this long to list natively (its start-up) is counted
// with late instrumentation, where the library is there.
inline constexpr double kLateInstrumentationStartUp = 0.5;

// How much slower than natively a start-up runs under Valgrind with the instrumentation off, at
// most about (3.75x measured on CRoaring's data loading: 54 s for 14.5 s).
inline constexpr double kUninstrumentedSlowdown = 5;

// The environment variable naming the file whose opening turns the instrumentation on.
inline constexpr const char* kInstrumentOnOpenVariable = "BENCHPR_INSTRUMENT_ON_OPEN";

// Writes the library into `dir` (a folder of this side's counting, made afresh) readable and
// executable by its owner only; its path, or nullopt when there is no library or it cannot be
// written.
std::optional<std::string> write_instrument_on_open(const std::string& dir);

}  // namespace benchpr::runner
