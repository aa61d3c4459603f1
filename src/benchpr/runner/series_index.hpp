// Finding a benchmark's series among all of a session's: once per value recorded, so it must not
// be a linear search (100,000 benchmarks cost 57 s of benchpr's own time per round that way).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "benchpr/core/model/model.hpp"

namespace benchpr::runner {

// (suite, name) -> position in Results::series. Looks up in O(1) on average; rebuilt in O(n)
// when the series changed under it (another Results, series added or reordered elsewhere).
class SeriesIndex {
 public:
  // The series of (suite, name), appended when there is none. A series created without a unit
  // (for a failure) takes the unit and direction of the first measurement.
  BenchmarkSeries& find_or_add(Results& r, const std::string& suite, const std::string& name,
                               const std::string& unit, Better better);

  // How often the whole index was built: once per session, plus once each time the series were
  // changed by something else. One per value would be the quadratic cost again.
  std::size_t rebuilds() const { return rebuilds_; }

 private:
  void rebuild(const Results& r);

  const Results* owner_ = nullptr;
  std::size_t indexed_ = 0;  // r.series.size() when the index was last brought up to date
  std::unordered_map<std::string, std::size_t> at_;
  std::size_t rebuilds_ = 0;
};

// Stores one measurement of a run in round `round`: the compared value, and both times when the
// format reports them.
void record_measurement(Results& r, SeriesIndex& index, const std::string& suite, Side side,
                        int round, const Measurement& m);

// The names a run measured more than once (each once, in order): two benchmarks that share a
// name, which no reader can tell apart. Views into `parsed`.
std::vector<std::string_view> duplicate_names(const ParsedRun& parsed);

// Why such a benchmark has no value in that run, naming it and the fix.
std::string duplicate_reason(std::string_view name);

// One run's measurements and per-benchmark failures into the series of `suite`, in round
// `round`, whichever way the run was measured or read. A name measured twice in the run is
// recorded as a failure of that benchmark (duplicate_reason), never as one of the two values. A
// `benchmarks:` rule's `better` replaces the direction the format gave a benchmark. The one way a
// ParsedRun becomes series: the session's rounds and `benchpr compare`'s files both go through it.
void record_run(Results& r, SeriesIndex& index, const SuiteConfig& suite, Side side, int round,
                const ParsedRun& parsed);

}  // namespace benchpr::runner
