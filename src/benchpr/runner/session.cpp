#include "benchpr/runner/session.hpp"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <map>

#include <fmt/format.h>

#include "benchpr/core/session_analysis.hpp"
#include "benchpr/core/duration.hpp"
#include "benchpr/core/results_json.hpp"
#include "benchpr/formats/format.hpp"
#include "benchpr/runner/results_store.hpp"
#include "benchpr/runner/suite_command.hpp"

namespace benchpr::runner {

namespace {

double now_seconds() {
  using namespace std::chrono;
  return duration<double>(steady_clock::now().time_since_epoch()).count();
}

std::string side_name(Side s) { return s == Side::Base ? "base" : "PR"; }

// Keeps the last `lines` lines: enough to see the error, small enough for a comment.
std::string last_lines(const std::string& text, std::size_t lines) {
  std::size_t pos = text.size();
  if (pos > 0 && text[pos - 1] == '\n') --pos;
  for (std::size_t n = 0; pos > 0; --pos) {
    if (text[pos - 1] == '\n' && ++n == lines) break;
  }
  return text.substr(pos);
}

BenchmarkSeries& series_for(Results& r, const std::string& suite, const Measurement& m) {
  for (auto& s : r.series)
    if (s.suite == suite && s.name == m.name) return s;
  BenchmarkSeries s;
  s.suite = suite;
  s.name = m.name;
  s.unit = m.unit;
  s.better = m.better;
  r.series.push_back(std::move(s));
  return r.series.back();
}

void set_value(std::vector<double>& values, int round, double v) {
  if (values.size() <= static_cast<std::size_t>(round))
    values.resize(static_cast<std::size_t>(round) + 1, kMissing);
  values[static_cast<std::size_t>(round)] = v;
}

}  // namespace

Session::Session(exec::ProcessRunner& processes, SessionSetup setup, ProgressFn progress)
    : processes_(processes), setup_(std::move(setup)), progress_(std::move(progress)) {}

void Session::persist(const Results& results) {
  const Analysis analysis = analyse_session(results);
  const std::string text = results_to_string(results, &analysis);
  for (const auto& path : setup_.persist_paths) write_file_atomically(path, text);
}

bool Session::build(Results& results, Side side) {
  const Config& c = results.config;
  BuildResult b;
  b.side = side;
  if (c.build.empty() || setup_.skip_build) {
    results.builds.push_back(b);
    return true;
  }
  progress_(fmt::format(
      "building the {} ({})", side == Side::Base ? "base revision" : "PR",
      side == Side::Base ? results.base.sha.substr(0, 7) : results.head.sha.substr(0, 7)));
  exec::ProcessSpec spec;
  spec.command = c.build;
  spec.cwd = side == Side::Base ? setup_.base_dir : setup_.head_dir;
  spec.timeout_seconds = c.build_timeout_seconds;
  spec.scrub_env = c.scrub_env;
  spec.log_path = fmt::format("{}/build-{}.log", setup_.log_dir, to_string(side));
  std::error_code ec;
  std::filesystem::remove(spec.log_path, ec);
  spec.tail_bytes = 16 * 1024;
  const exec::ProcessResult p = processes_.run(spec);
  child_seconds_ += p.wall_seconds;
  b.seconds = p.wall_seconds;
  b.ok = p.ok();
  if (!b.ok) {
    b.failure = p.describe_failure(spec.timeout_seconds);
    b.log_tail = last_lines(p.output_tail, 40);
    progress_(fmt::format("the {} failed to build: {} (log: {})", side_name(side), b.failure,
                          spec.log_path));
  } else {
    progress_(fmt::format("built the {} in {}", side_name(side), format_duration(b.seconds)));
  }
  results.builds.push_back(b);
  return b.ok;
}

void Session::run_one(Results& results, const RoundPlan& round, const SuiteConfig& suite, Side side,
                      int position) {
  const Config& c = results.config;
  RunRecord rec;
  rec.round = round.index;
  rec.suite = suite.name;
  rec.side = side;
  rec.position = position;
  rec.started = now_seconds() - started_;

  std::unique_ptr<formats::Format> format = formats::make_format(suite);
  if (!format) {
    rec.ok = false;
    rec.failure = "unknown format '" + suite.format + "'";
    results.runs.push_back(rec);
    return;
  }
  const std::string out_path =
      fmt::format("{}/r{}-{}-{}.json", setup_.out_dir, round.index, suite.name, to_string(side));
  std::error_code ec;
  std::filesystem::remove(out_path, ec);
  const RunCommand cmd = make_run_command(suite, *format, out_path, c.repetitions);

  exec::ProcessSpec spec;
  spec.command = cmd.command;
  spec.cwd = side == Side::Base ? setup_.base_dir : setup_.head_dir;
  spec.timeout_seconds = c.timeout_for(suite);
  spec.scrub_env = c.scrub_env;
  spec.log_path =
      fmt::format("{}/r{}-{}-{}.log", setup_.log_dir, round.index, suite.name, to_string(side));
  std::filesystem::remove(spec.log_path, ec);
  spec.tail_bytes = cmd.reads_file ? 8 * 1024 : 64u << 20;
  const exec::ProcessResult p = processes_.run(spec);
  child_seconds_ += p.wall_seconds;
  rec.seconds = p.wall_seconds;

  auto fail_run = [&](std::string why) {
    rec.ok = false;
    rec.failure = std::move(why);
    rec.log_tail = last_lines(p.output_tail, 20);
  };
  if (!p.ok()) fail_run(p.describe_failure(spec.timeout_seconds));

  // Parse what the run left behind even when it failed: a suite that crashes in its last
  // benchmark still measured the others.
  std::string content;
  bool have_output = false;
  if (cmd.reads_file) {
    if (std::filesystem::exists(out_path)) {
      try {
        content = read_text_file(out_path);
        have_output = true;
      } catch (const StoreError& e) {
        if (rec.ok) fail_run(e.what());
      }
    } else if (rec.ok) {
      fail_run("wrote no results file (expected " + out_path + ")");
    }
  } else {
    content = p.output_tail;
    have_output = true;
  }
  if (have_output) {
    try {
      ParsedRun parsed = format->parse(content);
      for (const Measurement& m : parsed.measurements) {
        BenchmarkSeries& s = series_for(results, suite.name, m);
        set_value(side == Side::Base ? s.base : s.head, round.index, m.value);
      }
      for (const BenchmarkFailure& f : parsed.failures) {
        BenchmarkSeries& s =
            series_for(results, suite.name, Measurement{f.name, "", Better::Lower, 0});
        (side == Side::Base ? s.base_failure : s.head_failure) = f.reason;
      }
    } catch (const formats::ParseError& e) {
      if (rec.ok) fail_run(std::string("could not read its output: ") + e.what());
    }
  }
  if (!rec.ok) {
    progress_(fmt::format("  {} {}: {}", side_name(side), suite.name, rec.failure));
  }
  results.runs.push_back(std::move(rec));
}

void Session::finish_failures(Results& results) {
  // A failed run leaves its benchmarks without values in that round; say why on the series so
  // the analysis reports them as failed instead of silently comparing fewer rounds.
  for (const RunRecord& rec : results.runs) {
    if (rec.ok) continue;
    bool any = false;
    for (BenchmarkSeries& s : results.series) {
      if (s.suite != rec.suite) continue;
      const auto& values = rec.side == Side::Base ? s.base : s.head;
      const auto idx = static_cast<std::size_t>(rec.round);
      const bool missing = idx >= values.size() || is_missing(values[idx]);
      any = true;
      if (!missing) continue;
      std::string& why = rec.side == Side::Base ? s.base_failure : s.head_failure;
      if (why.empty()) why = fmt::format("round {}: {}", rec.round, rec.failure);
    }
    if (!any) {
      // The suite never reported a benchmark on any side: keep the failure visible as a row.
      BenchmarkSeries s;
      s.suite = rec.suite;
      s.name = "(suite " + rec.suite + ")";
      s.unit = "";
      (rec.side == Side::Base ? s.base_failure : s.head_failure) = rec.failure;
      results.series.push_back(std::move(s));
    }
  }
}

void Session::run(Results& results) {
  started_ = now_seconds();
  const double wall_start = started_;
  child_seconds_ = 0;
  const bool base_ok = build(results, Side::Base);
  const bool head_ok = !exec::interrupt_requested() && build(results, Side::Head);
  if (!base_ok || !head_ok) {
    results.complete = !exec::interrupt_requested();
    results.stop_reason = exec::interrupt_requested() ? "interrupted" : "build failed";
    persist(results);
    return;
  }
  if (setup_.after_build) setup_.after_build(results);
  run_rounds(results, 0);
  results.overhead_seconds = std::max(0.0, now_seconds() - wall_start - child_seconds_);
  persist(results);
}

void Session::run_rounds(Results& results, int from_round) {
  if (started_ == 0) started_ = now_seconds();
  const double t0 = now_seconds();
  const int total = static_cast<int>(results.plan.size());
  for (int i = from_round; i < total; ++i) {
    const RoundPlan& round = results.plan[static_cast<std::size_t>(i)];
    const double elapsed = now_seconds() - t0;
    const int done = i - from_round;
    std::string eta =
        done > 0 ? ", about " + format_duration(elapsed / done * (total - i)) + " left" : "";
    progress_(fmt::format(
        "round {} of {}{} ({} first), elapsed {}{}", i + 1, total, round.warmup ? " (warm-up)" : "",
        round.first == Side::Base ? "base" : "PR", format_duration(elapsed), eta));
    const Side order[2] = {round.first, round.first == Side::Base ? Side::Head : Side::Base};
    for (const SuiteConfig& suite : results.config.suites) {
      for (int pos = 0; pos < 2 && !exec::interrupt_requested(); ++pos) {
        run_one(results, round, suite, order[pos], pos);
      }
    }
    if (exec::interrupt_requested()) {
      // The interrupted round is incomplete: its values would be unpaired. Drop them.
      for (BenchmarkSeries& s : results.series) {
        if (s.base.size() > static_cast<std::size_t>(i)) s.base.resize(static_cast<std::size_t>(i));
        if (s.head.size() > static_cast<std::size_t>(i)) s.head.resize(static_cast<std::size_t>(i));
      }
      std::erase_if(results.runs, [&](const RunRecord& r) { return r.round == i; });
      results.complete = false;
      const int sig = exec::interrupt_signal();
      results.stop_reason = sig == 15  ? "interrupted by SIGTERM"
                            : sig == 2 ? "interrupted by SIGINT"
                                       : "interrupted";
      finish_failures(results);
      persist(results);
      return;
    }
    results.rounds_done = i + 1;
    results.measuring_seconds = now_seconds() - t0;
    persist(results);
  }
  finish_failures(results);
  results.complete = true;
  results.stop_reason = fmt::format("all {} rounds done", total);
}

}  // namespace benchpr::runner
