// libFuzzer target: `benchpr publish FILE` on an untrusted results file. Reading, analysing and
// rendering must end in a comment or a ResultsFormatError, never a crash; what the reader
// accepts must survive a write/read round trip unchanged; a field the reader does not read
// changes nothing however deep it nests (it is passed over, never built); and the only links
// publish keeps from a file are on GitHub's hosts.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "benchpr/core/adaptive/session_analysis.hpp"
#include "benchpr/core/base/link_host.hpp"
#include "benchpr/core/base/valid_utf8.hpp"
#include "benchpr/core/results_file/results_json.hpp"
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

  // An unknown top-level field, nested past the reader's depth limit, is passed over: the same
  // results (the limits bound what is built, and nothing is built for it).
  std::string with_unknown = written;
  const std::size_t depth = 1000 + size % 4000;
  with_unknown.insert(with_unknown.rfind('}'),
                      ",\"x-unknown\":" + std::string(depth, '[') + std::string(depth, ']'));
  try {
    FUZZ_CHECK(benchpr::results_to_string(benchpr::results_from_string(with_unknown)) == written);
  } catch (const benchpr::ResultsFormatError& e) {
    std::fprintf(stderr, "an unknown field made an accepted file unreadable: %s\n", e.what());
    std::abort();
  }

  // publish keeps the file's link only on GitHub's hosts.
  if (benchpr::link_on_github(results.workflow_run_url, "https://api.github.com")) {
    const std::string host = benchpr::url_host(results.workflow_run_url);
    FUZZ_CHECK(host == "github.com" || host == "api.github.com");
    FUZZ_CHECK(results.workflow_run_url.rfind("https://", 0) == 0);
  }

  const benchpr::Analysis analysis = benchpr::analyse_session(results);
  const std::string comment = benchpr::render::render_comment(results, analysis);
  FUZZ_CHECK(comment.size() <= 65536);
  FUZZ_CHECK(benchpr::is_valid_utf8(comment));
  // The analysis is written too (the results file of `run`, with it).
  FUZZ_CHECK(benchpr::is_valid_utf8(benchpr::results_to_string(results, &analysis)));
  FUZZ_CHECK(comment.rfind("<!-- benchpr:comment key=default -->", 0) == 0);
  return 0;
}
