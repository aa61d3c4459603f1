// libFuzzer target: the Callgrind dumps of the instruction counts (parse_callgrind_dump), which
// the code under test writes into (its names, its output), and what is made of them: the dumps
// grouped by benchmark and by repetition, and the count per iteration of two processes. The input
// is a sequence of pieces split at NUL bytes: a dump each, a piece of digits alone gives the
// current process's iterations per repetition, and an empty piece starts the second process.
// Any bytes must end in a count or a reason, never a crash: a dump's total is finite and not
// negative, every index names a dump, and a count is finite and positive. What Valgrind printed
// is read for its reason too (valgrind_failure), which must be valid UTF-8 like every reason.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <set>
#include <string_view>
#include <vector>

#include "benchpr/core/base/valid_utf8.hpp"
#include "benchpr/runner/callgrind.hpp"
#include "fuzz_check.hpp"

namespace {

using benchpr::runner::CallgrindDump;
using benchpr::runner::CallgrindRun;

bool all_digits(std::string_view s) {
  if (s.empty() || s.size() > 18) return false;
  for (char c : s)
    if (c < '0' || c > '9') return false;
  return true;
}

void check_groupings(const std::vector<CallgrindDump>& dumps) {
  std::set<std::size_t> taken;
  for (const auto& benchmark : benchpr::runner::dumps_by_benchmark(dumps)) {
    for (std::size_t i : benchmark) {
      FUZZ_CHECK(i < dumps.size());
      FUZZ_CHECK(dumps[i].trigger != CallgrindDump::Trigger::Report);
      FUZZ_CHECK(taken.insert(i).second);  // one benchmark's at most
    }
  }
  for (int repetitions : {1, 3}) {
    const auto counted = benchpr::runner::counted_dumps(dumps, repetitions);
    FUZZ_CHECK(counted.repetitions <= counted.seen);
    FUZZ_CHECK(counted.by_repetition.size() == counted.repetitions);
    for (std::size_t i : counted.dumps) FUZZ_CHECK(i < dumps.size());
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  CallgrindRun runs[2];
  int side = 0;
  for (std::size_t at = 0; at <= text.size();) {
    const std::size_t end = std::min(text.find('\0', at), text.size());
    const std::string_view piece = text.substr(at, end - at);
    at = end + 1;
    if (piece.empty()) {
      side = 1;
    } else if (all_digits(piece)) {
      long long n = 0;
      for (char c : piece) n = n * 10 + (c - '0');
      runs[side].iterations = n;
    } else if (const auto dump = benchpr::runner::parse_callgrind_dump(piece)) {
      FUZZ_CHECK(std::isfinite(dump->instructions) && dump->instructions >= 0);
      FUZZ_CHECK(dump->trigger != CallgrindDump::Trigger::Other);
      runs[side].dumps.push_back(*dump);
    }
  }
  for (const CallgrindRun& run : runs) {
    check_groupings(run.dumps);
    const auto one = benchpr::runner::instructions_per_iteration(run.dumps, 3, run.iterations);
    FUZZ_CHECK(one.failure.has_value() !=
               (std::isfinite(one.instructions) && one.instructions > 0));
  }
  const auto two = benchpr::runner::instructions_per_iteration(runs[0], runs[1], 3);
  FUZZ_CHECK(two.failure.has_value() != (std::isfinite(two.instructions) && two.instructions > 0));
  FUZZ_CHECK(!std::isinf(two.check));  // a count, or kMissing (NaN)
  if (const auto why = benchpr::runner::valgrind_failure(text)) {
    FUZZ_CHECK(benchpr::is_valid_utf8(*why));
    FUZZ_CHECK(why->size() < 300);  // a line of Valgrind's, quoted within bounds
  }
  benchpr::runner::is_multithreaded_benchmark(text);
  return 0;
}
