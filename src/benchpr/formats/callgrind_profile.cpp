#include "benchpr/formats/callgrind_profile.hpp"

#include <charconv>
#include <map>
#include <unordered_map>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "benchpr/core/base/valid_utf8.hpp"

namespace benchpr::formats {

namespace {

std::vector<std::string_view> words(std::string_view s) {
  std::vector<std::string_view> out;
  std::size_t at = 0;
  while (at < s.size()) {
    at = s.find_first_not_of(" \t", at);
    if (at == std::string_view::npos) break;
    const std::size_t end = std::min(s.find_first_of(" \t", at), s.size());
    out.push_back(s.substr(at, end - at));
    at = end;
  }
  return out;
}

bool parse_count(std::string_view s, unsigned long long& out) {
  if (s.empty()) return false;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
  return ec == std::errc() && end == s.data() + s.size();
}

// A position of a cost line: a number, a hexadecimal address, "*" (the same as before) or a
// difference ("+3", "-2"). Its value is not needed: costs are summed per function.
bool is_position(std::string_view s) {
  if (s == "*") return true;
  if (!s.empty() && (s[0] == '+' || s[0] == '-')) s.remove_prefix(1);
  int base = 10;
  if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
    s.remove_prefix(2);
    base = 16;
  }
  unsigned long long v = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v, base);
  return !s.empty() && ec == std::errc() && end == s.data() + s.size();
}

// "(12) name", "(12)" or "name": the id (or nothing) and the name (or "").
struct Compressed {
  std::optional<unsigned long long> id;
  std::string_view name;
  bool ok = true;
};

Compressed compressed(std::string_view value) {
  Compressed c;
  if (value.empty() || value[0] != '(') {
    c.name = value;
    return c;
  }
  const std::size_t close = value.find(')');
  unsigned long long id = 0;
  if (close == std::string_view::npos || !parse_count(value.substr(1, close - 1), id)) {
    c.ok = false;
    return c;
  }
  c.id = id;
  std::string_view rest = value.substr(close + 1);
  while (!rest.empty() && (rest.front() == ' ' || rest.front() == '\t')) rest.remove_prefix(1);
  c.name = rest;
  return c;
}

std::string_view file_name(std::string_view path) {
  const std::size_t slash = path.rfind('/');
  return slash == std::string_view::npos ? path : path.substr(slash + 1);
}

class Reader {
 public:
  std::optional<std::string> line(std::string_view l) {
    if (l.empty() || l[0] == '#') return std::nullopt;
    const char c = l[0];
    if ((c >= '0' && c <= '9') || c == '+' || c == '-' || c == '*') return cost_line(l);
    const std::size_t eq = l.find('=');
    const std::size_t colon = l.find(':');
    if (colon != std::string_view::npos && (eq == std::string_view::npos || colon < eq))
      return header(l.substr(0, colon), l.substr(colon + 1));
    if (eq == std::string_view::npos) return std::nullopt;  // a line of a future version
    return specification(l.substr(0, eq), l.substr(eq + 1));
  }

  FunctionProfile finish() {
    FunctionProfile p;
    std::vector<double> calls_cost(functions_.size(), 0.0);
    for (const auto& [edge, cost] : edges_) {
      // A recursive call's cost is already the function's own count: not added twice.
      if (edge.first != edge.second) calls_cost[edge.first] += cost;
      p.calls.push_back({functions_[edge.first].name, functions_[edge.second].name, cost});
    }
    for (std::size_t i = 0; i < functions_.size(); ++i) {
      ProfiledFunction f = functions_[i];
      f.inclusive = f.self + calls_cost[i];
      p.total += f.self;
      p.functions.push_back(std::move(f));
    }
    if (summary_) p.total = *summary_;
    return p;
  }

 private:
  std::optional<std::string> header(std::string_view key, std::string_view value) {
    if (key == "events") {
      const std::vector<std::string_view> names = words(value);
      for (std::size_t i = 0; i < names.size(); ++i)
        if (names[i] == "Ir") {
          ir_index_ = i;
          return std::nullopt;
        }
      return std::string("no Ir (instructions) among the events");
    }
    if (key == "summary") {
      // Callgrind's own total for the dump: the instruction count benchpr reports. The functions'
      // self counts ("totals:") may add up to a few more: a call that began before the counters
      // were zeroed.
      const std::vector<std::string_view> costs = words(value);
      unsigned long long v = 0;
      if (ir_index_ < costs.size() && parse_count(costs[ir_index_], v))
        summary_ = static_cast<double>(v);
      return std::nullopt;
    }
    if (key == "positions") {
      const std::vector<std::string_view> names = words(value);
      positions_ = names.size();
      if (positions_ == 0 || positions_ > 4) return std::string("unknown positions");
      by_instruction_ = names.front() == "instr";
    }
    return std::nullopt;
  }

  std::optional<std::string> specification(std::string_view key, std::string_view value) {
    if (key == "ob" || key == "cob") {
      const Compressed c = compressed(value);
      if (!c.ok) return fmt::format("a malformed {}= name", key);
      std::string name(c.name);
      if (c.id) {
        if (!c.name.empty()) {
          objects_[*c.id] = name;
        } else if (const auto it = objects_.find(*c.id); it != objects_.end()) {
          name = it->second;
        }
      }
      if (key == "ob") {
        object_ = std::move(name);
        callee_object_.reset();
      } else {
        callee_object_ = std::move(name);
      }
      return std::nullopt;
    }
    if (key == "fn" || key == "cfn") {
      const Compressed c = compressed(value);
      if (!c.ok) return fmt::format("a malformed {}= name", key);
      const std::string& object = key == "cfn" && callee_object_ ? *callee_object_ : object_;
      std::size_t index = 0;
      if (c.id && c.name.empty()) {
        const auto it = function_ids_.find(*c.id);
        if (it == function_ids_.end())
          return fmt::format("{}=({}) refers to a function never named", key, *c.id);
        index = it->second;
      } else {
        if (c.name.empty()) return fmt::format("an empty {}= name", key);
        index = function_index(function_key(c.name, object));
        if (c.id) function_ids_[*c.id] = index;
      }
      if (key == "fn") {
        function_ = index;
        callee_.reset();
        callee_object_.reset();
        pending_call_ = false;
      } else {
        callee_ = index;
      }
      return std::nullopt;
    }
    if (key == "calls") {
      if (!callee_) return std::string("calls= without a called function (cfn=)");
      if (!function_) return std::string("calls= outside a function (fn=)");
      pending_call_ = true;
      return std::nullopt;
    }
    // fl, fi, fe, cfi, cfl (source files), jump, jcnd (jumps): they do not move costs between
    // functions.
    return std::nullopt;
  }

  std::optional<std::string> cost_line(std::string_view l) {
    const std::vector<std::string_view> tokens = words(l);
    if (tokens.size() < positions_) return std::string("a cost line without its positions");
    for (std::size_t i = 0; i < positions_; ++i)
      if (!is_position(tokens[i])) return std::string("a malformed position");
    unsigned long long ir = 0;
    for (std::size_t i = positions_; i < tokens.size(); ++i) {
      unsigned long long v = 0;
      if (!parse_count(tokens[i], v)) return std::string("a malformed cost");
      if (i - positions_ == ir_index_) ir = v;
    }
    if (!function_) return std::string("a cost outside a function (fn=)");
    const double cost = static_cast<double>(ir);
    // With --dump-instr=yes the first position is the instruction's address: absolute, or
    // relative to the last cost line's ("+3", "-12", "*"). A call's target (calls=) does not
    // move it.
    if (by_instruction_) address_ = next_address(tokens[0], address_);
    if (pending_call_) {
      edges_[{*function_, *callee_}] += cost;
      pending_call_ = false;
      callee_object_.reset();
    } else {
      functions_[*function_].self += cost;
      if (by_instruction_ && ir > 0) {
        if (executed_.size() < functions_.size()) executed_.resize(functions_.size());
        executed_[*function_][address_] += cost;
      }
    }
    return std::nullopt;
  }

  static std::uint64_t next_address(std::string_view position, std::uint64_t last) {
    if (position == "*") return last;
    const bool plus = position.front() == '+', minus = position.front() == '-';
    if (plus || minus) position.remove_prefix(1);
    int base = 10;
    if (position.size() > 2 && position[0] == '0' && (position[1] == 'x' || position[1] == 'X')) {
      position.remove_prefix(2);
      base = 16;
    }
    std::uint64_t v = 0;
    std::from_chars(position.data(), position.data() + position.size(), v, base);
    // Unsigned arithmetic: a hostile file's offsets wrap, they do not overflow.
    return plus ? last + v : minus ? last - v : v;
  }

 public:
  // Each function's executed instructions (address -> Ir), by the function's name as the
  // profile names it; empty unless the file has instruction positions.
  std::unordered_map<std::string, std::map<std::uint64_t, double>> executed() const {
    std::unordered_map<std::string, std::map<std::uint64_t, double>> out;
    for (std::size_t i = 0; i < executed_.size() && i < functions_.size(); ++i)
      if (!executed_[i].empty()) out[functions_[i].name] = executed_[i];
    return out;
  }

 private:
  // An unnamed function is only an address: with its object's file name it is told apart from
  // the same address in another library.
  static std::string function_key(std::string_view name, const std::string& object) {
    std::string key = valid_utf8(std::string(name));
    if (name.substr(0, 2) == "0x" && !object.empty())
      key += fmt::format(" [{}]", valid_utf8(std::string(file_name(object))));
    return key;
  }

  std::size_t function_index(const std::string& key) {
    const auto [it, fresh] = by_name_.emplace(key, functions_.size());
    if (fresh) functions_.push_back({key, 0, 0});
    return it->second;
  }

  std::size_t positions_ = 1;    // "positions: line" unless said otherwise
  bool by_instruction_ = false;  // "positions: instr ...": the first position is an address
  std::uint64_t address_ = 0;    // the last cost line's address
  std::vector<std::map<std::uint64_t, double>> executed_;  // by function index
  std::size_t ir_index_ = 0;  // Ir is the only event unless said otherwise
  std::optional<double> summary_;
  std::unordered_map<unsigned long long, std::string> objects_;
  std::unordered_map<unsigned long long, std::size_t> function_ids_;
  std::unordered_map<std::string, std::size_t> by_name_;
  std::vector<ProfiledFunction> functions_;
  std::map<std::pair<std::size_t, std::size_t>, double> edges_;
  std::string object_;
  std::optional<std::string> callee_object_;
  std::optional<std::size_t> function_;
  std::optional<std::size_t> callee_;
  bool pending_call_ = false;
};

}  // namespace

CallgrindProfileReading read_callgrind_profile(std::string_view text) {
  CallgrindProfileReading out;
  Reader reader;
  std::size_t at = 0;
  std::size_t number = 0;
  while (at < text.size()) {
    ++number;
    std::size_t end = text.find('\n', at);
    if (end == std::string_view::npos) end = text.size();
    std::string_view l = text.substr(at, end - at);
    if (!l.empty() && l.back() == '\r') l.remove_suffix(1);
    at = end + 1;
    if (std::optional<std::string> problem = reader.line(l)) {
      out.problem = fmt::format("line {}: {}", number, *problem);
      return out;
    }
  }
  out.profile = reader.finish();
  out.executed = reader.executed();
  return out;
}

}  // namespace benchpr::formats
