// libFuzzer target: `benchpr publish FILE` on an untrusted results file. Reading, analysing and
// rendering must end in a comment or a ResultsFormatError, never a crash; what the reader
// accepts must survive a write/read round trip unchanged.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "benchpr/core/results_json.hpp"
#include "benchpr/core/session_analysis.hpp"
#include "benchpr/core/valid_utf8.hpp"
#include "benchpr/render/render.hpp"
#include "fuzz_check.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  benchpr::Results results;
  try {
    results = benchpr::results_from_string(text);
  } catch (const benchpr::ResultsFormatError&) {
    return 0;
  }
  // Whatever bytes the file's strings held, what benchpr writes is valid UTF-8 (serialising
  // replaces rather than throws).
  const std::string written = benchpr::results_to_string(results);
  FUZZ_CHECK(benchpr::is_valid_utf8(written));
  benchpr::Results again;
  try {
    again = benchpr::results_from_string(written);
  } catch (const benchpr::ResultsFormatError& e) {
    std::fprintf(stderr, "accepted file does not read back: %s\n", e.what());
    std::abort();
  }
  FUZZ_CHECK(benchpr::results_to_string(again) == written);

  const benchpr::Analysis analysis = benchpr::analyse_session(results);
  const std::string comment = benchpr::render::render_comment(results, analysis);
  FUZZ_CHECK(comment.size() <= 65536);
  FUZZ_CHECK(benchpr::is_valid_utf8(comment));
  // The analysis is written too (the results file of `run`, with it).
  FUZZ_CHECK(benchpr::is_valid_utf8(benchpr::results_to_string(results, &analysis)));
  FUZZ_CHECK(comment.rfind("<!-- benchpr:comment key=default -->", 0) == 0);
  return 0;
}
