#include "benchpr/runner/callgrind.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdlib>

#include <fmt/format.h>

#include "benchpr/core/base/text.hpp"
#include "benchpr/core/base/valid_utf8.hpp"
#include "benchpr/formats/format.hpp"
#include "benchpr/runner/gbench_filter_argument.hpp"

namespace benchpr::runner {

namespace {

constexpr std::string_view kResume = "benchmark::State::ResumeTiming()";
constexpr std::string_view kPause = "benchmark::State::PauseTiming()";
constexpr std::string_view kFinish = "benchmark::State::FinishKeepRunning()";
// ConsoleReporter's, JSONReporter's, CSVReporter's and a suite's own reporter's ReportRuns.
constexpr std::string_view kReport = "*Reporter::ReportRuns(*";
constexpr std::string_view kReportMark = "Reporter::ReportRuns(";

std::string_view line_value(std::string_view text, std::string_view key) {
  std::size_t at = 0;
  while (at < text.size()) {
    const std::size_t end = std::min(text.find('\n', at), text.size());
    const std::string_view line = text.substr(at, end - at);
    if (line.substr(0, key.size()) == key) return line.substr(key.size());
    at = end + 1;
  }
  return {};
}

}  // namespace

std::string callgrind_arguments(const std::string& out_prefix, bool cache_sim,
                                bool instrument_at_start) {
  // --collect-atstart=yes after --toggle-collect (which would turn it off): everything is
  // collected except ResumeTiming's own body, and the zero at its entry discards what came
  // before (setup, paused work, start-up). --dump-instr=yes: each instruction's count, so the
  // hot code can be compared where the benchmark runs it (runner/elf_symbols.hpp).
  return fmt::format(
      "--tool=callgrind{}{} --trace-children=yes --dump-line=no --dump-instr=yes "
      "--callgrind-out-file={} --toggle-collect='{}' --collect-atstart=yes --zero-before='{}' "
      "--dump-before='{}' --dump-before='{}' --dump-before='{}'",
      cache_sim ? fmt::format(" --cache-sim=yes {}", kCacheGeometry) : std::string(),
      instrument_at_start ? "" : " --instr-atstart=no", shell_quote(out_prefix + ".%p"), kResume,
      kResume, kPause, kFinish, kReport);
}

std::string callgrind_benchmark_arguments(const std::vector<std::string>& names,
                                          const std::string& json_path, double min_time) {
  // Later flags win over the suite's own (--benchmark_min_time=1 in `run:` for example).
  return fmt::format(
      "{} --benchmark_min_time={} --benchmark_repetitions={} "
      "--benchmark_enable_random_interleaving=false --benchmark_report_aggregates_only=false "
      "--benchmark_display_aggregates_only=false --benchmark_format=console "
      "--benchmark_out_format=json --benchmark_out={}",
      gbench_filter_argument(names), min_time, kCallgrindRepetitions, shell_quote(json_path));
}

std::optional<CallgrindDump> parse_callgrind_dump(std::string_view text) {
  const std::string_view trigger = line_value(text, "desc: Trigger: ");
  const std::string_view summary = line_value(text, "summary: ");
  if (trigger.empty() || summary.empty()) return std::nullopt;
  CallgrindDump d;
  if (trigger.find(kPause) != std::string_view::npos) {
    d.trigger = CallgrindDump::Trigger::Pause;
  } else if (trigger.find(kFinish) != std::string_view::npos) {
    d.trigger = CallgrindDump::Trigger::Finish;
  } else if (trigger.find(kReportMark) != std::string_view::npos) {
    d.trigger = CallgrindDump::Trigger::Report;
  } else {
    return std::nullopt;  // "Program termination": the rest of the process
  }
  // "events: Ir Dr Dw I1mr ..." names the columns of "summary:" (with cache simulation);
  // without the line (or with Ir alone) the first column is Ir.
  std::vector<std::string_view> names;
  for (std::string_view rest = line_value(text, "events: "); !rest.empty();) {
    const std::size_t space = rest.find(' ');
    if (space != 0) names.push_back(rest.substr(0, space));
    if (space == std::string_view::npos) break;
    rest.remove_prefix(space + 1);
  }
  if (names.empty()) names.push_back("Ir");
  const auto ir = std::find(names.begin(), names.end(), "Ir");
  if (ir == names.end()) return std::nullopt;
  const char* at = summary.data();
  const char* const end = summary.data() + summary.size();
  for (std::size_t i = 0; i < names.size(); ++i) {
    while (at < end && *at == ' ') ++at;
    unsigned long long count = 0;
    const auto [next, ec] = std::from_chars(at, end, count);
    if (ec != std::errc()) {
      // Callgrind leaves trailing zero columns out; a column it did write must be a count.
      if (at == end && i > 0) break;
      return std::nullopt;
    }
    at = next;
    if (names.begin() + static_cast<std::ptrdiff_t>(i) == ir)
      d.instructions = static_cast<double>(count);
    else
      d.events[std::string(names[i])] = static_cast<double>(count);
  }
  // Columns left out at the end are zeros.
  for (std::string_view name : names)
    if (name != "Ir") d.events.try_emplace(std::string(name), 0.0);
  return d;
}

std::vector<std::vector<std::size_t>> dumps_by_benchmark(const std::vector<CallgrindDump>& dumps) {
  std::vector<std::vector<std::size_t>> out;
  std::vector<std::size_t> current;
  bool in_report = false;
  for (std::size_t i = 0; i < dumps.size(); ++i) {
    if (dumps[i].trigger == CallgrindDump::Trigger::Report) {
      if (!in_report) out.push_back(std::move(current));
      current.clear();
      in_report = true;
    } else {
      current.push_back(i);
      in_report = false;
    }
  }
  return out;
}

CountedDumps counted_dumps(const std::vector<CallgrindDump>& dumps, int repetitions) {
  // A repetition: the timed segments up to FinishKeepRunning. FinishKeepRunning itself calls
  // PauseTiming first thing, so the dump right after a Finish dump is its prologue: not timed.
  std::vector<std::vector<std::size_t>> reps;
  std::vector<std::size_t> current;
  bool after_finish = false;
  for (std::size_t i = 0; i < dumps.size(); ++i) {
    const CallgrindDump& d = dumps[i];
    if (d.trigger == CallgrindDump::Trigger::Pause) {
      if (after_finish) {
        after_finish = false;
        continue;
      }
      current.push_back(i);
    } else if (d.trigger == CallgrindDump::Trigger::Finish) {
      current.push_back(i);
      reps.push_back(std::move(current));
      current.clear();
      after_finish = true;
    }
  }
  CountedDumps out;
  out.seen = reps.size();
  if (reps.empty()) return out;
  // Warm-up attempts or a MinTime of the benchmark's own may add runs before the repetitions:
  // the last ones are the repetitions.
  out.repetitions =
      std::min(reps.size() - 1, static_cast<std::size_t>(std::max(1, repetitions - 1)));
  for (std::size_t r = reps.size() - out.repetitions; r < reps.size(); ++r) {
    out.dumps.insert(out.dumps.end(), reps[r].begin(), reps[r].end());
    out.by_repetition.push_back(reps[r]);
  }
  return out;
}

namespace {

double repetition_total(const std::vector<CallgrindDump>& dumps,
                        const std::vector<std::size_t>& rep) {
  double sum = 0;
  for (std::size_t i : rep) sum += dumps[i].instructions;
  return sum;
}

std::optional<std::string> run_failure(const CallgrindRun& run, const CountedDumps& counted,
                                       int repetitions) {
  if (counted.seen == 0)
    return "Callgrind saw no benchmark loop (benchmark::State::ResumeTiming and "
           "FinishKeepRunning were not found: a Google Benchmark library without symbols?)";
  if (run.iterations <= 0) return "the benchmark reported no iterations";
  if (counted.repetitions == 0)
    return fmt::format("Callgrind saw {} run of the benchmark's loop, expected {}", counted.seen,
                       repetitions);
  return std::nullopt;
}

}  // namespace

IterationWeights iteration_weights(const CallgrindRun& first, const CallgrindRun& second,
                                   int repetitions) {
  IterationWeights w;
  w.first.assign(first.dumps.size(), 0.0);
  w.second.assign(second.dumps.size(), 0.0);
  w.first_iterations = first.iterations;
  w.second_iterations = second.iterations;
  const CountedDumps a = counted_dumps(first.dumps, repetitions);
  const CountedDumps b = counted_dumps(second.dumps, repetitions);
  if ((w.failure = run_failure(first, a, repetitions))) return w;
  if ((w.failure = run_failure(second, b, repetitions))) return w;
  const double n1 = static_cast<double>(first.iterations);
  const double n2 = static_cast<double>(second.iterations);
  const double ra = static_cast<double>(a.repetitions), rb = static_cast<double>(b.repetitions);
  // The check: one counted repetition of the second process alone, the one farthest from the
  // mean (its weights), against the same first process.
  std::size_t farthest = 0;
  double mean = 0;
  for (const auto& rep : b.by_repetition) mean += repetition_total(second.dumps, rep) / rb;
  for (std::size_t r = 0; r < b.by_repetition.size(); ++r)
    if (std::fabs(repetition_total(second.dumps, b.by_repetition[r]) - mean) >
        std::fabs(repetition_total(second.dumps, b.by_repetition[farthest]) - mean))
      farthest = r;
  w.check_first.assign(first.dumps.size(), 0.0);
  w.check_second.assign(second.dumps.size(), 0.0);
  if (n2 > n1) {
    for (std::size_t i : a.dumps) w.first[i] = w.check_first[i] = -1.0 / (ra * (n2 - n1));
    for (std::size_t i : b.dumps) w.second[i] = 1.0 / (rb * (n2 - n1));
    for (std::size_t i : b.by_repetition[farthest]) w.check_second[i] = 1.0 / (n2 - n1);
  } else {
    // The same iterations in both (the benchmark fixes them): nothing to take apart, every
    // counted repetition is one more count of the same loop.
    const double all = ra * n1 + rb * n2;
    for (std::size_t i : a.dumps) w.first[i] = 1.0 / all;
    for (std::size_t i : b.dumps) w.second[i] = 1.0 / all;
    for (std::size_t i : b.by_repetition[farthest]) w.check_second[i] = 1.0 / n2;
  }
  return w;
}

double weighted_instructions(const std::vector<CallgrindDump>& dumps,
                             const std::vector<double>& weights) {
  double sum = 0;
  for (std::size_t i = 0; i < dumps.size() && i < weights.size(); ++i)
    sum += weights[i] * dumps[i].instructions;
  return sum;
}

std::map<std::string, double> weighted_events(const std::vector<CallgrindDump>& dumps,
                                              const std::vector<double>& weights) {
  std::map<std::string, double> sum;
  bool first = true;
  for (std::size_t i = 0; i < dumps.size() && i < weights.size(); ++i) {
    if (weights[i] == 0) continue;
    // Only the events every weighed dump holds: a sum that left one out would not be one.
    if (first) {
      for (const auto& [name, value] : dumps[i].events) sum[name] = 0;
      first = false;
    }
    std::erase_if(sum, [&](const auto& e) { return dumps[i].events.count(e.first) == 0; });
    for (auto& [name, total] : sum) total += weights[i] * dumps[i].events.at(name);
  }
  return sum;
}

namespace {

bool weighs_any(const std::vector<double>& weights) {
  return std::any_of(weights.begin(), weights.end(), [](double w) { return w != 0; });
}

// The events of both processes, weighed: those both hold (a process none of whose dumps weighs,
// as the first in the check of fixed iterations, has no say).
std::map<std::string, double> two_run_events(const CallgrindRun& first, const CallgrindRun& second,
                                             const std::vector<double>& first_weights,
                                             const std::vector<double>& second_weights) {
  std::map<std::string, double> a = weighted_events(first.dumps, first_weights);
  const std::map<std::string, double> b = weighted_events(second.dumps, second_weights);
  if (!weighs_any(first_weights)) return b;
  if (!weighs_any(second_weights)) return a;
  std::erase_if(a, [&](const auto& e) { return b.count(e.first) == 0; });
  for (auto& [name, value] : a) value += b.at(name);
  return a;
}

}  // namespace

TwoRunCount instructions_per_iteration(const CallgrindRun& first, const CallgrindRun& second,
                                       int repetitions) {
  TwoRunCount out;
  const IterationWeights w = iteration_weights(first, second, repetitions);
  if (w.failure) {
    out.failure = w.failure;
    return out;
  }
  const double count =
      weighted_instructions(first.dumps, w.first) + weighted_instructions(second.dumps, w.second);
  if (!(count > 0)) {
    out.failure = "Callgrind counted no instructions in the benchmark's loop";
    return out;
  }
  out.instructions = count;
  out.check = weighted_instructions(first.dumps, w.check_first) +
              weighted_instructions(second.dumps, w.check_second);
  out.events = two_run_events(first, second, w.first, w.second);
  out.check_events = two_run_events(first, second, w.check_first, w.check_second);
  return out;
}

PerIteration instructions_per_iteration(const std::vector<CallgrindDump>& dumps, int repetitions,
                                        long long iterations) {
  PerIteration out;
  const CountedDumps counted = counted_dumps(dumps, repetitions);
  if (counted.seen == 0) {
    out.failure =
        "Callgrind saw no benchmark loop (benchmark::State::ResumeTiming and "
        "FinishKeepRunning were not found: a Google Benchmark library without symbols?)";
    return out;
  }
  if (iterations <= 0) {
    out.failure = "the benchmark reported no iterations";
    return out;
  }
  if (counted.repetitions == 0) {
    out.failure = fmt::format("Callgrind saw {} run of the benchmark's loop, expected {}",
                              counted.seen, repetitions);
    return out;
  }
  double sum = 0;
  for (std::size_t i : counted.dumps) sum += dumps[i].instructions;
  out.instructions =
      sum / (static_cast<double>(counted.repetitions) * static_cast<double>(iterations));
  if (!(out.instructions > 0)) {
    out.instructions = kMissing;
    out.failure = "Callgrind counted no instructions in the benchmark's loop";
  }
  return out;
}

std::optional<std::string> valgrind_failure(std::string_view output) {
  // Plain searches, not std::regex: the output is the code under test's as much as Valgrind's,
  // so the quote is made valid UTF-8 (its bytes are any, and the cut may split a character).
  const auto quote = [output](std::string_view phrase, std::size_t extra) -> std::string {
    const std::size_t at = output.find(phrase);
    if (at == std::string_view::npos) return "";
    std::string_view rest = output.substr(at, phrase.size() + extra);
    return valid_utf8(rest.substr(0, rest.find('\n')));
  };
  std::string what = quote("unhandled instruction bytes: ", 60);
  if (what.empty()) what = quote("Unrecognised instruction at address ", 20);
  if (!what.empty()) return "Valgrind cannot run it: " + what;
  if (output.find("valgrind: failed to start tool") != std::string_view::npos)
    return "Valgrind could not start Callgrind (is the valgrind package complete?)";
  return std::nullopt;
}

bool is_multithreaded_benchmark(std::string_view name) {
  // A hand-written scan for "/threads:N" followed by '/' or the end (the first such field
  // decides), not std::regex: names are the code under test's and unbounded, and libstdc++'s
  // matcher recursed 78,000 frames deep on a long one.
  constexpr std::string_view kField = "/threads:";
  for (std::size_t at = name.find(kField); at != std::string_view::npos;
       at = name.find(kField, at + 1)) {
    std::size_t end = at + kField.size();
    while (end < name.size() && name[end] >= '0' && name[end] <= '9') ++end;
    const std::string_view digits = name.substr(at + kField.size(), end - at - kField.size());
    if (digits.empty() || (end < name.size() && name[end] != '/')) continue;
    // More than one thread: any digit other than leading zeros and a final 1.
    const std::string_view significant =
        digits.substr(std::min(digits.find_first_not_of('0'), digits.size()));
    return significant.size() > 1 || (significant.size() == 1 && significant[0] > '1');
  }
  return false;
}

}  // namespace benchpr::runner
