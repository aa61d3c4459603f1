// The part of GitHub Actions' expression language (`${{ … }}` and `if:`) that benchpr's
// workflows and action.yml use: context paths (github.event.…, steps.ID.outputs.NAME,
// needs.JOB.result, matrix.X, inputs.X), string and number literals, == != ! && || with
// GitHub's loose comparison and its && / || returning an operand, and the functions always(),
// success(), failure(), cancelled() and startsWith(). Anything else fails the test that uses it,
// so a workflow never passes by being misread.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>

namespace benchpr::testing {

struct ExprValue {
  enum class Kind { Null, Bool, Number, String, Object };
  Kind kind = Kind::Null;
  bool boolean = false;
  double number = 0;
  std::string text;  // a string's value

  static ExprValue string(std::string s);
  static ExprValue of_bool(bool b);
  static ExprValue object();
  bool truthy() const;
  std::string to_string() const;  // as `${{ }}` pastes it into text
};

struct ExprContext {
  // A dotted context path ("steps.merge.outputs.results"); nullopt: not there (null).
  std::function<std::optional<ExprValue>(const std::string& path)> lookup;
  bool failed = false;     // a step (or needed job) before failed: success() is false
  bool cancelled = false;  // the run was cancelled
};

// Throws std::runtime_error naming the expression on what it does not understand.
ExprValue evaluate(std::string_view expression, const ExprContext& context);

// `text` with every `${{ expr }}` replaced by its value's text.
std::string expand(std::string_view text, const ExprContext& context);

// An `if:` condition: with or without ${{ }}; empty means success().
bool condition(std::string_view text, const ExprContext& context);

}  // namespace benchpr::testing
