// .benchpr.yml -> Config. Every error names the file, the line, the key and what to write
// instead, because the person reading it is looking at a CI log, not at this code.
#include "benchpr/config/config_parser.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <yaml-cpp/yaml.h>

#include "benchpr/core/base/text.hpp"

namespace benchpr::config {
namespace {

constexpr const char* kMinimalConfig =
    "a minimal config: 'suites: [{name: core, run: build/bench/core_bench}]'";
const std::vector<std::string> kTopLevelKeys = {
    "build",          "build_timeout", "suites",           "rounds",
    "warmup_rounds",  "threshold",     "timeout",          "budget",
    "scrub_env",      "comment",       "instructions",     "instruction_threshold",
    "cycle_estimate", "bisect",        "placement_control"};
const std::vector<std::string> kSuiteKeys = {"name",       "run",    "format",       "timeout",
                                             "metric",     "better", "instructions", "threshold",
                                             "benchmarks", "exclude"};
const std::vector<std::string> kRuleKeys = {"match", "threshold", "better"};
constexpr const char* kRuleExample = "write e.g. '- {match: \"BM_Alloc/*\", threshold: 5%}'";
constexpr int kMaxWarmupRounds = 100;

std::string kind_of(const YAML::Node& node) {
  switch (node.Type()) {
    case YAML::NodeType::Sequence:
      return "a list";
    case YAML::NodeType::Map:
      return "a mapping";
    case YAML::NodeType::Null:
      return "nothing";
    case YAML::NodeType::Scalar:
      return "'" + node.Scalar() + "'";
    default:
      return "nothing";
  }
}

class Reader {
 public:
  explicit Reader(std::string file) : file_(std::move(file)) {}

  // Line of `node`, or of `fallback` (its key) when `node` is an empty value: yaml-cpp places
  // those at the start of whatever follows, often the next line.
  static int line_of(const YAML::Node& node, const YAML::Node& fallback = YAML::Node()) {
    if (node.IsDefined() && !node.IsNull() && !node.Mark().is_null()) return node.Mark().line + 1;
    if (fallback.IsDefined() && !fallback.Mark().is_null()) return fallback.Mark().line + 1;
    return 1;
  }

  [[noreturn]] void fail(int line, const std::string& key, const std::string& problem,
                         const std::string& hint = "") const {
    std::string message = fmt::format("{}:{}: {}: {}", file_, line, key, problem);
    if (!hint.empty()) message += " (" + hint + ")";
    throw ConfigError(message);
  }

  // The scalar text of a value; other kinds are an error that says what was expected.
  std::string scalar(const YAML::Node& key, const YAML::Node& value, const std::string& name,
                     const std::string& expected, const std::string& hint) const {
    if (!value.IsScalar()) {
      fail(line_of(value, key), name, fmt::format("expected {}, got {}", expected, kind_of(value)),
           hint);
    }
    return value.Scalar();
  }

  double duration(const YAML::Node& key, const YAML::Node& value, const std::string& name) const {
    const std::string hint = "write e.g. '90s', '20m' or '1h30m'";
    const std::string text = scalar(key, value, name, "a duration", hint);
    const auto seconds = parse_duration(text);
    if (!seconds)
      fail(line_of(value, key), name, fmt::format("expected a duration, got '{}'", text), hint);
    if (!(*seconds > 0)) {
      fail(line_of(value, key), name, fmt::format("must be greater than zero, got '{}'", text),
           hint);
    }
    return *seconds;
  }

  int integer(const YAML::Node& key, const YAML::Node& value, const std::string& name, int min,
              int max, const std::string& expected) const {
    const std::string text = scalar(key, value, name, expected, "");
    long long number = 0;
    const bool digits_only = !text.empty() && std::all_of(text.begin(), text.end(), [](char c) {
      return c >= '0' && c <= '9';
    });
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), number);
    if (!digits_only)
      fail(line_of(value, key), name, fmt::format("expected {}, got '{}'", expected, text));
    if (ec == std::errc::result_out_of_range || number > max) {
      fail(line_of(value, key), name, fmt::format("must be at most {}, got {}", max, text));
    }
    if (number < min)
      fail(line_of(value, key), name, fmt::format("must be at least {}, got {}", min, text));
    (void)end;
    return static_cast<int>(number);
  }

  double percentage(const YAML::Node& key, const YAML::Node& value, const std::string& name) const {
    const std::string text = scalar(key, value, name, "a percentage", "write e.g. '2%'");
    const auto fraction = parse_percentage(text);
    if (!fraction) {
      // A bare number is ambiguous (0.02 or 2 percent?), so it is refused with the spelling
      // we would have guessed.
      double bare = 0;
      const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), bare);
      if (ec == std::errc() && end == text.data() + text.size() && std::isfinite(bare) &&
          bare > 0) {
        const double percent = bare < 1 ? bare * 100 : bare;
        fail(line_of(value, key), name, fmt::format("expected a percentage, got {}", text),
             fmt::format("write '{:g}%'", percent));
      }
      fail(line_of(value, key), name, fmt::format("expected a percentage, got '{}'", text),
           "write e.g. '2%'");
    }
    if (*fraction < kMinThreshold || *fraction > kMaxThreshold) {
      fail(line_of(value, key), name, fmt::format("must be between 0.1% and 50%, got '{}'", text));
    }
    return *fraction;
  }

  bool boolean(const YAML::Node& key, const YAML::Node& value, const std::string& name) const {
    const std::string text = scalar(key, value, name, "true or false", "write 'true' or 'false'");
    if (text == "true" || text == "yes") return true;
    if (text == "false" || text == "no") return false;
    fail(line_of(value, key), name, fmt::format("expected true or false, got '{}'", text),
         fmt::format("write '{}: true'", name.substr(name.rfind('.') + 1)));
  }

  // Walks a mapping's keys: rejects non-scalar, unknown and repeated keys before `visit` sees them.
  template <typename Visit>
  void each_key(const YAML::Node& map, const std::string& prefix,
                const std::vector<std::string>& valid, Visit visit) const {
    std::map<std::string, int> seen;
    for (auto it = map.begin(); it != map.end(); ++it) {
      const YAML::Node key = it->first;
      if (!key.IsScalar()) {
        fail(line_of(key), prefix.empty() ? "(key)" : prefix,
             "expected a key name, got " + kind_of(key));
      }
      const std::string& name = key.Scalar();
      const std::string path = prefix.empty() ? name : prefix + "." + name;
      if (std::find(valid.begin(), valid.end(), name) == valid.end()) {
        fail(line_of(key), path, "unknown key",
             fmt::format("valid keys: {}", fmt::join(valid, ", ")));
      }
      if (const auto [first, inserted] = seen.emplace(name, line_of(key)); !inserted) {
        fail(line_of(key), path, fmt::format("appears twice, first on line {}", first->second),
             "keep one of them");
      }
      visit(name, key, it->second);
    }
  }

 private:
  std::string file_;
};

// Character checks, not std::regex: libstdc++'s matcher recurses once per character, and a
// 50,000-character suite name or scrub_env entry overflowed the stack (SIGSEGV).
bool name_char(char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
}

bool valid_suite_name(std::string_view name) {
  return !name.empty() && std::all_of(name.begin(), name.end(),
                                      [](char c) { return name_char(c) || c == '.' || c == '-'; });
}

bool valid_env_name(std::string_view name) {
  return !name.empty() && !(name[0] >= '0' && name[0] <= '9') &&
         std::all_of(name.begin(), name.end(), name_char);
}

// Suite names become parts of file names (r3-<suite>-head.json) and table cells.
constexpr std::size_t kMaxSuiteNameChars = 100;

// A value quoted in a message: long ones are cut, so the message stays one readable line.
std::string quoted_value(std::string_view value) {
  constexpr std::size_t kShown = 60;
  if (value.size() <= kShown) return std::string(value);
  return fmt::format("{}… ({} characters)", value.substr(0, kShown), value.size());
}

std::string suggested_name(const std::string& name) {
  std::string out;
  for (char c : name) {
    const bool ok = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
                    c == '_' || c == '.' || c == '-';
    out += ok ? c : '_';
  }
  return out.empty() ? "core" : out;
}

Better read_better(const Reader& r, const YAML::Node& k, const YAML::Node& v,
                   const std::string& path) {
  const std::string text = r.scalar(k, v, path, "'lower' or 'higher'", "");
  const auto better = better_from_string(text);
  if (!better) {
    r.fail(Reader::line_of(v, k), path,
           fmt::format("expected 'lower' or 'higher', got '{}'", text));
  }
  return *better;
}

CommentPolicy read_comment_policy(const Reader& r, const YAML::Node& k, const YAML::Node& v) {
  const std::string choices = one_of(kCommentPolicies.names());
  const std::string text = r.scalar(k, v, "comment", choices, "write 'comment: on-change'");
  const auto policy = comment_policy_from_string(text);
  if (!policy) {
    r.fail(Reader::line_of(v, k), "comment", "expected " + choices + ", got '" + text + "'",
           "write 'comment: on-change'");
  }
  return *policy;
}

// `exclude: ["pattern", ...]` or one pattern: names of benchmarks to leave out.
std::vector<std::string> read_patterns(const Reader& r, const YAML::Node& key,
                                       const YAML::Node& value, const std::string& path) {
  const std::string hint = "write e.g. 'exclude: [\"BM_Slow*\", \"disabled-*\"]'";
  if (value.IsScalar()) return {r.scalar(key, value, path, "a benchmark name pattern", hint)};
  if (!value.IsSequence())
    r.fail(Reader::line_of(value, key), path,
           "expected a list of benchmark name patterns, got " + kind_of(value), hint);
  std::vector<std::string> patterns;
  for (std::size_t i = 0; i < value.size(); ++i) {
    const std::string item_path = fmt::format("{}[{}]", path, i);
    const YAML::Node item = value[i];
    const std::string pattern = r.scalar(key, item, item_path, "a benchmark name pattern", hint);
    if (pattern.empty()) r.fail(Reader::line_of(item, key), item_path, "empty pattern", hint);
    patterns.push_back(pattern);
  }
  return patterns;
}

// A suite's `benchmarks:` list: [{match: GLOB, threshold: 5%, better: higher}, ...].
std::vector<BenchmarkRule> read_rules(const Reader& r, const YAML::Node& key,
                                      const YAML::Node& value, const std::string& prefix) {
  if (!value.IsSequence()) {
    r.fail(Reader::line_of(value, key), prefix,
           "expected a list of {match, threshold, better} entries, got " + kind_of(value),
           kRuleExample);
  }
  std::vector<BenchmarkRule> rules;
  for (std::size_t i = 0; i < value.size(); ++i) {
    const std::string path = fmt::format("{}[{}]", prefix, i);
    const YAML::Node item = value[i];
    BenchmarkRule rule;
    rule.line = Reader::line_of(item, key);
    if (!item.IsMap()) {
      r.fail(rule.line, path,
             "expected a mapping with match and threshold or better, got " + kind_of(item),
             kRuleExample);
    }
    bool has_match = false;
    r.each_key(item, path, kRuleKeys,
               [&](const std::string& name, const YAML::Node& k, const YAML::Node& v) {
                 const std::string key_path = path + "." + name;
                 if (name == "match") {
                   rule.match = r.scalar(k, v, key_path, "a benchmark name pattern",
                                         "write e.g. 'match: \"BM_Alloc/*\"'");
                   if (rule.match.empty()) {
                     r.fail(Reader::line_of(v, k), key_path, "empty pattern",
                            "'*' matches every benchmark");
                   }
                   has_match = true;
                 } else if (name == "threshold") {
                   rule.threshold = r.percentage(k, v, key_path);
                 } else if (name == "better") {
                   rule.better = read_better(r, k, v, key_path);
                 }
               });
    if (!has_match) {
      r.fail(rule.line, path + ".match", "missing",
             "the benchmarks it applies to, e.g. 'match: \"BM_Alloc/*\"'");
    }
    if (!rule.threshold && !rule.better) {
      r.fail(rule.line, path, "sets nothing", "add 'threshold: 5%' or 'better: higher'");
    }
    rules.push_back(std::move(rule));
  }
  return rules;
}

SuiteConfig read_suite(const Reader& r, const YAML::Node& item, std::size_t index,
                       std::map<std::string, int>& names) {
  const std::string prefix = fmt::format("suites[{}]", index);
  const int line = Reader::line_of(item);
  if (!item.IsMap()) {
    r.fail(line, prefix, "expected a mapping with name and run, got " + kind_of(item),
           "write '- name: core' and 'run: ...' on the next line");
  }
  SuiteConfig suite;
  suite.line = line;
  bool has_name = false;
  bool has_run = false;
  r.each_key(
      item, prefix, kSuiteKeys,
      [&](const std::string& key, const YAML::Node& k, const YAML::Node& v) {
        const std::string path = prefix + "." + key;
        const int value_line = Reader::line_of(v, k);
        if (key == "name") {
          suite.name = r.scalar(k, v, path, "a name", "write e.g. 'name: core'");
          if (!valid_suite_name(suite.name)) {
            r.fail(value_line, path,
                   fmt::format("'{}' may contain only letters, digits, '_', '.' and '-'",
                               quoted_value(suite.name)),
                   fmt::format("write e.g. '{}'", quoted_value(suggested_name(suite.name))));
          }
          if (suite.name.size() > kMaxSuiteNameChars) {
            r.fail(value_line, path,
                   fmt::format("'{}' is longer than {} characters", quoted_value(suite.name),
                               kMaxSuiteNameChars),
                   "give the suite a shorter name");
          }
          if (const auto [first, inserted] = names.emplace(suite.name, value_line); !inserted) {
            r.fail(value_line, path,
                   fmt::format("'{}' is already the name of the suite on line {}", suite.name,
                               first->second),
                   "give each suite its own name");
          }
          has_name = true;
        } else if (key == "run") {
          suite.run =
              r.scalar(k, v, path, "a shell command", "write e.g. 'run: build/bench/core_bench'");
          if (suite.run.find_first_not_of(" \t\r\n") == std::string::npos) {
            r.fail(value_line, path, "empty command", "write e.g. 'run: build/bench/core_bench'");
          }
          has_run = true;
        } else if (key == "format") {
          const std::string hint =
              fmt::format("valid formats: {}", fmt::join(kFormatKinds.names(), ", "));
          const std::string text = r.scalar(k, v, path, "a format name", hint);
          const auto format = format_kind_from_string(text);
          if (!format) r.fail(value_line, path, fmt::format("unknown format '{}'", text), hint);
          suite.format = *format;
        } else if (key == "timeout") {
          suite.timeout_seconds = r.duration(k, v, path);
        } else if (key == "metric") {
          suite.metric = r.scalar(k, v, path, "a metric name", "write e.g. 'metric: cpu_time'");
        } else if (key == "instructions") {
          suite.instructions = r.boolean(k, v, path);
        } else if (key == "better") {
          suite.better = read_better(r, k, v, path);
        } else if (key == "threshold") {
          suite.threshold = r.percentage(k, v, path);
        } else if (key == "benchmarks") {
          suite.benchmarks = read_rules(r, k, v, path);
        } else if (key == "exclude") {
          suite.exclude = read_patterns(r, k, v, path);
        }
      });
  if (!has_name) {
    r.fail(line, prefix + ".name", "missing", "every suite needs a name, e.g. 'name: core'");
  }
  if (!has_run) {
    r.fail(line, prefix + ".run", "missing",
           "the command that runs the benchmarks, e.g. 'run: build/bench/core_bench'");
  }
  // Instruction counts need Google Benchmark's loop (docs/instructions.md).
  if ((suite.instructions || suite.metric == kInstructionsMetric) &&
      suite.format != FormatKind::GoogleBenchmark) {
    r.fail(line, prefix + (suite.instructions ? ".instructions" : ".metric"),
           fmt::format("instruction counts need a google-benchmark suite, not {}",
                       to_string(suite.format)),
           "measure this suite by time");
  }
  return suite;
}

std::vector<SuiteConfig> read_suites(const Reader& r, const YAML::Node& key,
                                     const YAML::Node& value) {
  if (!value.IsSequence()) {
    r.fail(Reader::line_of(value, key), "suites",
           "expected a list of suites, got " + kind_of(value), kMinimalConfig);
  }
  if (value.size() == 0) {
    r.fail(Reader::line_of(value, key), "suites", "the list is empty", kMinimalConfig);
  }
  std::vector<SuiteConfig> suites;
  std::map<std::string, int> names;
  for (std::size_t i = 0; i < value.size(); ++i) {
    suites.push_back(read_suite(r, value[i], i, names));
  }
  return suites;
}

std::vector<std::string> read_scrub_env(const Reader& r, const YAML::Node& key,
                                        const YAML::Node& value) {
  if (!value.IsSequence()) {
    const std::string example = value.IsScalar() ? value.Scalar() : "MY_SECRET";
    r.fail(Reader::line_of(value, key), "scrub_env",
           "expected a list of environment variable names, got " + kind_of(value),
           fmt::format("write 'scrub_env: [{}]'", example));
  }
  std::vector<std::string> names;
  for (std::size_t i = 0; i < value.size(); ++i) {
    const std::string path = fmt::format("scrub_env[{}]", i);
    const YAML::Node item = value[i];
    const std::string name = r.scalar(key, item, path, "an environment variable name", "");
    if (!valid_env_name(name)) {
      r.fail(Reader::line_of(item, key), path,
             fmt::format("'{}' is not an environment variable name", quoted_value(name)),
             "letters, digits and '_', not starting with a digit");
    }
    names.push_back(name);
  }
  return names;
}

// `bisect: auto | off` (docs/bisect.md).
BisectMode read_bisect(const Reader& r, const YAML::Node& k, const YAML::Node& v) {
  const std::string value = r.scalar(k, v, "bisect", "auto or off", "write 'bisect: auto'");
  const auto mode = bisect_mode_from_string(value);
  if (!mode)
    r.fail(Reader::line_of(v, k), "bisect", "expected auto or off, got '" + value + "'",
           "write 'bisect: auto'");
  return *mode;
}

}  // namespace

// A second ': ' inside a plain value ("run: bench --filter=a: b") ends YAML's patience with
// "illegal map value"; the fix is to quote the value, so say so with the line's own key.
static std::string quoting_hint(std::string_view yaml_text, int line) {
  std::size_t start = 0;
  for (int l = 1; l < line && start != std::string_view::npos; ++l) {
    start = yaml_text.find('\n', start);
    if (start != std::string_view::npos) ++start;
  }
  if (start == std::string_view::npos) return "";
  std::string_view text = yaml_text.substr(start, yaml_text.find('\n', start) - start);
  const std::size_t colon = text.find(": ");
  if (colon == std::string_view::npos || text.find(':', colon + 1) == std::string_view::npos)
    return "";
  std::string_view key = text.substr(0, colon);
  while (!key.empty() && (key.front() == ' ' || key.front() == '-')) key.remove_prefix(1);
  std::string_view value = text.substr(colon + 2);
  while (!value.empty() && (value.back() == ' ' || value.back() == '\r')) value.remove_suffix(1);
  if (key.empty() || key.size() > 40 || value.size() > 200 || value.find('\'') != value.npos)
    return "";
  return fmt::format(" (a value with ': ' in it must be quoted: {}: '{}')", key, value);
}

Config parse_config(std::string_view yaml_text, const std::string& file_name) {
  const Reader r(file_name);
  YAML::Node root;
  try {
    root = YAML::Load(std::string(yaml_text));
  } catch (const YAML::Exception& e) {
    const int line = e.mark.is_null() ? 1 : e.mark.line + 1;
    const std::string hint =
        e.msg.find("illegal map value") != std::string::npos ? quoting_hint(yaml_text, line) : "";
    throw ConfigError(fmt::format("{}:{}: invalid YAML: {}{}", file_name, line, e.msg, hint));
  }

  if (root.IsNull()) r.fail(1, "suites", "missing, the file has no settings", kMinimalConfig);
  if (!root.IsMap()) {
    r.fail(Reader::line_of(root), "(top level)",
           "expected a mapping of settings, got " + kind_of(root),
           "write 'key: value' lines, starting with 'suites:'");
  }

  Config config;
  bool has_suites = false;
  try {
    r.each_key(root, "", kTopLevelKeys,
               [&](const std::string& key, const YAML::Node& k, const YAML::Node& v) {
                 if (key == "build") {
                   config.build = v.IsNull() ? ""
                                             : r.scalar(k, v, key, "a shell command",
                                                        "write one command; join steps with &&");
                 } else if (key == "build_timeout") {
                   config.build_timeout_seconds = r.duration(k, v, key);
                 } else if (key == "suites") {
                   config.suites = read_suites(r, k, v);
                   has_suites = true;
                 } else if (key == "rounds") {
                   config.rounds =
                       r.integer(k, v, key, kMinRounds, kMaxRounds, "a positive integer");
                 } else if (key == "warmup_rounds") {
                   config.warmup_rounds =
                       r.integer(k, v, key, 0, kMaxWarmupRounds, "a non-negative integer");
                 } else if (key == "threshold") {
                   config.threshold = r.percentage(k, v, key);
                 } else if (key == "timeout") {
                   config.timeout_seconds = r.duration(k, v, key);
                 } else if (key == "budget") {
                   config.budget_seconds = r.duration(k, v, key);
                 } else if (key == "scrub_env") {
                   config.scrub_env = read_scrub_env(r, k, v);
                 } else if (key == "instructions") {
                   config.instructions =
                       r.boolean(k, v, key) ? InstructionCounting::On : InstructionCounting::Off;
                 } else if (key == "instruction_threshold") {
                   config.instruction_threshold = r.percentage(k, v, key);
                 } else if (key == "cycle_estimate") {
                   config.cycle_estimate = r.boolean(k, v, key);
                 } else if (key == "placement_control") {
                   config.placement_control = r.boolean(k, v, key);
                 } else if (key == "bisect") {
                   config.bisect = read_bisect(r, k, v);
                 } else if (key == "comment") {
                   config.comment = read_comment_policy(r, k, v);
                 }
               });
  } catch (const YAML::Exception& e) {
    // Conversions inside yaml-cpp; the checks above should leave nothing for it to refuse.
    const int line = e.mark.is_null() ? 1 : e.mark.line + 1;
    throw ConfigError(fmt::format("{}:{}: invalid YAML: {}", file_name, line, e.msg));
  }
  if (!has_suites) r.fail(1, "suites", "missing", kMinimalConfig);
  return config;
}

}  // namespace benchpr::config
