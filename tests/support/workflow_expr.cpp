#include "support/workflow_expr.hpp"

#include <cctype>
#include <cmath>
#include <stdexcept>
#include <vector>

namespace benchpr::testing {

ExprValue ExprValue::string(std::string s) {
  ExprValue v;
  v.kind = Kind::String;
  v.text = std::move(s);
  return v;
}
ExprValue ExprValue::of_bool(bool b) {
  ExprValue v;
  v.kind = Kind::Bool;
  v.boolean = b;
  return v;
}
ExprValue ExprValue::object() {
  ExprValue v;
  v.kind = Kind::Object;
  return v;
}

bool ExprValue::truthy() const {
  switch (kind) {
    case Kind::Null:
      return false;
    case Kind::Bool:
      return boolean;
    case Kind::Number:
      return number != 0 && !std::isnan(number);
    case Kind::String:
      return !text.empty();
    case Kind::Object:
      return true;
  }
  return false;
}

std::string ExprValue::to_string() const {
  switch (kind) {
    case Kind::Null:
      return "";
    case Kind::Bool:
      return boolean ? "true" : "false";
    case Kind::Number: {
      if (number == std::floor(number)) return std::to_string(static_cast<long long>(number));
      return std::to_string(number);
    }
    case Kind::String:
      return text;
    case Kind::Object:
      return "Object";
  }
  return "";
}

namespace {

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// GitHub's loose equality: strings case-insensitively; mixed kinds compared as numbers.
bool loosely_equal(const ExprValue& a, const ExprValue& b) {
  using K = ExprValue::Kind;
  if (a.kind == b.kind) {
    switch (a.kind) {
      case K::Null:
        return true;
      case K::Bool:
        return a.boolean == b.boolean;
      case K::Number:
        return a.number == b.number;
      case K::String:
        return lower(a.text) == lower(b.text);
      case K::Object:
        return false;
    }
  }
  auto as_number = [](const ExprValue& v) -> double {
    switch (v.kind) {
      case K::Null:
        return 0;
      case K::Bool:
        return v.boolean ? 1 : 0;
      case K::Number:
        return v.number;
      case K::String: {
        if (v.text.empty()) return 0;
        char* end = nullptr;
        const double d = std::strtod(v.text.c_str(), &end);
        return *end == '\0' ? d : std::nan("");
      }
      case K::Object:
        return std::nan("");
    }
    return std::nan("");
  };
  return as_number(a) == as_number(b);
}

class Parser {
 public:
  Parser(std::string_view text, const ExprContext& context) : s_(text), ctx_(context) {}

  ExprValue parse() {
    ExprValue v = parse_or();
    skip();
    if (pos_ != s_.size()) fail("unexpected text");
    return v;
  }

 private:
  [[noreturn]] void fail(const std::string& why) const {
    throw std::runtime_error("expression `" + std::string(s_) + "`: " + why + " at " +
                             std::to_string(pos_));
  }
  void skip() {
    while (pos_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[pos_]))) ++pos_;
  }
  bool eat(std::string_view token) {
    skip();
    if (s_.substr(pos_, token.size()) != token) return false;
    pos_ += token.size();
    return true;
  }

  ExprValue parse_or() {
    ExprValue left = parse_and();
    while (eat("||")) {
      ExprValue right = parse_and();
      if (!left.truthy()) left = right;
    }
    return left;
  }
  ExprValue parse_and() {
    ExprValue left = parse_unary();
    while (eat("&&")) {
      ExprValue right = parse_unary();
      if (left.truthy()) left = right;
    }
    return left;
  }
  ExprValue parse_unary() {
    skip();
    if (pos_ < s_.size() && s_[pos_] == '!' && s_.substr(pos_, 2) != "!=") {
      ++pos_;
      return ExprValue::of_bool(!parse_unary().truthy());
    }
    ExprValue left = parse_primary();
    if (eat("==")) return ExprValue::of_bool(loosely_equal(left, parse_primary()));
    if (eat("!=")) return ExprValue::of_bool(!loosely_equal(left, parse_primary()));
    return left;
  }
  ExprValue parse_primary() {
    skip();
    if (pos_ >= s_.size()) fail("missing operand");
    const char c = s_[pos_];
    if (c == '(') {
      ++pos_;
      ExprValue v = parse_or();
      if (!eat(")")) fail("missing )");
      return v;
    }
    if (c == '\'') {
      std::string text;
      for (++pos_;; ++pos_) {
        if (pos_ >= s_.size()) fail("unterminated string");
        if (s_[pos_] == '\'') {
          if (pos_ + 1 < s_.size() && s_[pos_ + 1] == '\'') {
            text += '\'';
            ++pos_;
            continue;
          }
          ++pos_;
          break;
        }
        text += s_[pos_];
      }
      return ExprValue::string(text);
    }
    if (std::isdigit(static_cast<unsigned char>(c)) || c == '-') {
      std::size_t used = 0;
      ExprValue v;
      v.kind = ExprValue::Kind::Number;
      v.number = std::stod(std::string(s_.substr(pos_)), &used);
      pos_ += used;
      return v;
    }
    std::string name;
    while (pos_ < s_.size() && (std::isalnum(static_cast<unsigned char>(s_[pos_])) ||
                                s_[pos_] == '_' || s_[pos_] == '-' || s_[pos_] == '.'))
      name += s_[pos_++];
    if (name.empty()) fail("unexpected character");
    if (name == "true" || name == "false") return ExprValue::of_bool(name == "true");
    if (name == "null") return {};
    skip();
    if (pos_ < s_.size() && s_[pos_] == '(') {
      ++pos_;
      std::vector<ExprValue> args;
      if (!eat(")")) {
        do args.push_back(parse_or());
        while (eat(","));
        if (!eat(")")) fail("missing ) after arguments");
      }
      return call(name, args);
    }
    const std::optional<ExprValue> found = ctx_.lookup(name);
    return found ? *found : ExprValue{};
  }
  ExprValue call(const std::string& name, const std::vector<ExprValue>& args) {
    if (name == "always" && args.empty()) return ExprValue::of_bool(true);
    if (name == "success" && args.empty())
      return ExprValue::of_bool(!ctx_.failed && !ctx_.cancelled);
    if (name == "failure" && args.empty()) return ExprValue::of_bool(ctx_.failed);
    if (name == "cancelled" && args.empty()) return ExprValue::of_bool(ctx_.cancelled);
    if (name == "startsWith" && args.size() == 2)
      return ExprValue::of_bool(lower(args[0].to_string()).rfind(lower(args[1].to_string()), 0) ==
                                0);
    fail("function " + name + " with " + std::to_string(args.size()) + " arguments");
  }

  std::string_view s_;
  const ExprContext& ctx_;
  std::size_t pos_ = 0;
};

}  // namespace

ExprValue evaluate(std::string_view expression, const ExprContext& context) {
  return Parser(expression, context).parse();
}

std::string expand(std::string_view text, const ExprContext& context) {
  std::string out;
  std::size_t pos = 0;
  for (std::size_t open = text.find("${{"); open != std::string_view::npos;
       open = text.find("${{", pos)) {
    const std::size_t close = text.find("}}", open);
    if (close == std::string_view::npos)
      throw std::runtime_error("unterminated ${{ in `" + std::string(text) + "`");
    out += text.substr(pos, open - pos);
    out += evaluate(text.substr(open + 3, close - open - 3), context).to_string();
    pos = close + 2;
  }
  out += text.substr(pos);
  return out;
}

bool condition(std::string_view text, const ExprContext& context) {
  std::string_view t = text;
  while (!t.empty() && std::isspace(static_cast<unsigned char>(t.front()))) t.remove_prefix(1);
  while (!t.empty() && std::isspace(static_cast<unsigned char>(t.back()))) t.remove_suffix(1);
  if (t.empty()) return !context.failed && !context.cancelled;
  if (t.starts_with("${{") && t.ends_with("}}") && t.find("${{", 3) == std::string_view::npos)
    t = t.substr(3, t.size() - 5);
  // GitHub adds success() && … to a condition that calls no status function.
  const bool status_function = t.find("always()") != std::string_view::npos ||
                               t.find("success()") != std::string_view::npos ||
                               t.find("failure()") != std::string_view::npos ||
                               t.find("cancelled()") != std::string_view::npos;
  if (!status_function && (context.failed || context.cancelled)) return false;
  return evaluate(t, context).truthy();
}

}  // namespace benchpr::testing
