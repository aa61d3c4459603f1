// Helpers every parser needs: guarded JSON loading, number extraction and medians. Results files
// come from the pull request's code, so they are treated as hostile input.
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "benchpr/core/base/valid_utf8.hpp"
#include "benchpr/formats/format.hpp"
#include "benchpr/formats/json_events.hpp"
#include "benchpr/formats/json_fast_path.hpp"

namespace benchpr::formats {

double weighted_median(std::vector<std::pair<double, double>> value_weight) {
  std::erase_if(value_weight, [](const auto& vw) { return !(vw.second > 0); });
  if (value_weight.empty()) return kMissing;
  std::sort(value_weight.begin(), value_weight.end());
  double total = 0;
  for (const auto& [value, weight] : value_weight) total += weight;
  // The lower median crosses half of the weight; when it lands exactly on the boundary between
  // two values, average them, as the unweighted median does for even counts.
  double seen = 0;
  for (std::size_t i = 0; i < value_weight.size(); ++i) {
    seen += value_weight[i].second;
    if (seen > total / 2) return value_weight[i].first;
    if (seen == total / 2 && i + 1 < value_weight.size()) {
      return value_weight[i].first + (value_weight[i + 1].first - value_weight[i].first) / 2;
    }
  }
  return value_weight.back().first;
}

namespace detail {
namespace {

constexpr std::array<std::string_view, 6> kNonFiniteTokens = {"-Infinity", "Infinity", "-NaN",
                                                              "NaN",       "-Inf",     "Inf"};

std::string_view canonical_non_finite(std::string_view token) {
  if (token.find("NaN") != std::string_view::npos) return "NaN";
  return token.front() == '-' ? "-Infinity" : "Infinity";
}

// One pass outside string literals: rejects nesting beyond kMaxJsonDepth (nlohmann's parser
// and destructor cope with depth, but nothing legitimate nests that deep, and the cap keeps
// every later walk cheap) and quotes bare non-finite tokens. `inserted` records where two
// quote characters were added, so parser byte offsets can be mapped back to the original.
std::string prepare(std::string_view content, std::string_view title,
                    std::vector<std::size_t>& inserted) {
  std::string out;
  bool in_string = false;
  bool escaped = false;
  int depth = 0;
  std::size_t copied = 0;  // content[0, copied) is already in `out` (only used once rewriting)
  bool rewriting = false;
  for (std::size_t i = 0; i < content.size(); ++i) {
    const char c = content[i];
    if (in_string) {
      if (escaped) {
        escaped = false;
      } else if (c == '\\') {
        escaped = true;
      } else if (c == '"') {
        in_string = false;
      }
      continue;
    }
    if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      if (++depth > kMaxJsonDepth) {
        throw ParseError(fmt::format("not {} JSON: nested deeper than {} levels at byte {}", title,
                                     kMaxJsonDepth, i + 1));
      }
    } else if (c == ']' || c == '}') {
      --depth;
    } else if (c == 'N' || c == 'I' || c == '-') {
      for (std::string_view token : kNonFiniteTokens) {
        if (content.substr(i, token.size()) != token) continue;
        const std::size_t end = i + token.size();
        if (end < content.size() && std::isalnum(static_cast<unsigned char>(content[end]))) {
          continue;  // "Infinityx" or "Info": leave it for the parser to reject
        }
        if (!rewriting) {
          out.reserve(content.size() + 64);
          rewriting = true;
        }
        out.append(content.substr(copied, i - copied));
        inserted.push_back(out.size());
        out += '"';
        out += canonical_non_finite(token);
        out += '"';
        copied = end;
        i = end - 1;
        break;
      }
    }
  }
  if (!rewriting) return {};
  out.append(content.substr(copied));
  return out;
}

// "[json.exception.parse_error.101] parse error at line 3, column 1: syntax error while parsing
// object - unexpected end of input; expected string literal" -> the part after the location.
std::string describe(const nlohmann::json::exception& e) {
  std::string what = e.what();
  if (const auto bracket = what.find("] ");
      what.starts_with("[json.exception.") && bracket != std::string::npos) {
    what.erase(0, bracket + 2);
  }
  if (what.starts_with("parse error at line")) {
    if (const auto colon = what.find(": "); colon != std::string::npos) what.erase(0, colon + 2);
  }
  return what;
}

}  // namespace

namespace {

// A results file made ready for nlohmann's parser: within the limits, valid UTF-8, bare
// non-finite tokens quoted. `text` views `content`, `valid` or `rewritten`.
struct PreparedJson {
  std::string_view content;  // the user's file after the UTF-8 repair: offsets name its bytes
  std::string valid;
  std::string rewritten;
  std::vector<std::size_t> inserted;
  std::string_view text;
};

void prepare_json(std::string_view content, std::string_view title, PreparedJson& out) {
  if (content.size() > kMaxInputBytes) {
    throw ParseError(
        fmt::format("not {} JSON: the file has {} bytes, more than the limit of {} MiB", title,
                    content.size(), kMaxInputBytes / (1024 * 1024)));
  }
  if (content.find_first_not_of(" \t\r\n") == std::string_view::npos) {
    throw ParseError(fmt::format(
        "not {} JSON: the file is empty (did the benchmark stop before writing its results?)",
        title));
  }
  // nlohmann refuses ill-formed UTF-8 and quotes the offending bytes in its message: a name
  // with a stray Latin-1 byte would fail the whole run. Replaced here, the benchmark is measured
  // under a readable name (byte offsets in later messages count the replacements).
  if (!is_valid_utf8(content)) {
    out.valid = valid_utf8(content);
    content = out.valid;
  }
  out.content = content;
  out.rewritten = prepare(content, title, out.inserted);
  out.text = out.inserted.empty() ? content : std::string_view(out.rewritten);
}

// The parser's complaint as the user's problem, with the offset mapped back to their file.
[[noreturn]] void throw_syntax_error(const PreparedJson& in, std::string_view title,
                                     const nlohmann::json::exception& e) {
  const auto* located = dynamic_cast<const nlohmann::json::parse_error*>(&e);
  if (!located) throw ParseError(fmt::format("not {} JSON: {}", title, describe(e)));
  std::size_t byte = located->byte;
  const auto before =
      std::lower_bound(in.inserted.begin(), in.inserted.end(), byte) - in.inserted.begin();
  byte -= std::min<std::size_t>(byte, 2 * static_cast<std::size_t>(before));
  // At the end of input the parser points one past the last byte; name the last byte instead.
  const bool truncated = byte >= in.content.size();
  byte = std::min(byte, in.content.size());
  throw ParseError(fmt::format("not {} JSON: {} at byte {}{}", title, describe(e), byte,
                               truncated ? " (is the file truncated?)" : ""));
}

}  // namespace

nlohmann::json load_json(std::string_view content, std::string_view title) {
  PreparedJson in;
  prepare_json(content, title, in);
  try {
    return nlohmann::json::parse(in.text.begin(), in.text.end());
  } catch (const nlohmann::json::exception& e) {
    throw_syntax_error(in, title, e);
  }
}

void sax_json(std::string_view content, std::string_view title, JsonEvents& events) {
  PreparedJson in;
  prepare_json(content, title, in);
  if (scan_json(in.text, events)) return;
  // Not something the fast scanner vouches for: nlohmann's parser reads it again from the start
  // and, if it is wrong, says why in the words load_json uses.
  events.restart();
  // Forwards every event; the parser's complaint becomes the user's ParseError on the spot (the
  // exception it hands over lives only during this call). A handler's own ParseError passes
  // through unchanged.
  struct Relay final : ForwardEvents<nlohmann::json_sax<nlohmann::json>, JsonEvents> {
    const PreparedJson& in;
    std::string_view title;
    Relay(JsonEvents& t, const PreparedJson& i, std::string_view n)
        : ForwardEvents(t), in(i), title(n) {}
    bool parse_error(std::size_t, const std::string&, const nlohmann::json::exception& e) override {
      throw_syntax_error(in, title, e);
    }
  } relay(events, in, title);
  nlohmann::json::sax_parse(in.text.begin(), in.text.end(), &relay);
}

std::optional<double> json_number(const nlohmann::json& value) {
  if (value.is_number()) return value.get<double>();
  if (value.is_string()) {
    const auto& s = value.get_ref<const std::string&>();
    if (s == "NaN" || s == "-NaN") return std::nan("");
    if (s == "Infinity" || s == "+Infinity") return HUGE_VAL;
    if (s == "-Infinity") return -HUGE_VAL;
  }
  return std::nullopt;
}

std::optional<std::string> value_problem(std::string_view field, double value) {
  if (std::isnan(value)) return fmt::format("{} is NaN", field);
  if (std::isinf(value))
    return fmt::format("{} is {}infinite", field, value < 0 ? "negative " : "");
  if (value == 0) return fmt::format("{} is 0", field);
  if (value < 0) return fmt::format("{} is negative ({:g})", field, value);
  return std::nullopt;
}

}  // namespace detail
}  // namespace benchpr::formats
