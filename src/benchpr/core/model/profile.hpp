// Function-level profiles of one benchmark (Callgrind's instruction counts per function), kept
// in the results so that `publish` explains a change exactly as `run` did. docs/why.md says what
// they can and cannot tell.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace benchpr {

// One function's instructions: its own (self), and its own plus everything it called
// (inclusive). Inlined code counts as the function it was inlined into, as Callgrind reports it.
struct ProfiledFunction {
  std::string name;  // demangled; an unnamed function is "0x… [object]"
  double self = 0;
  double inclusive = 0;
};

// Calls from one function to another, and what they cost in all (the callee's inclusive count
// over these calls).
struct ProfiledCall {
  std::string caller;
  std::string callee;
  double inclusive = 0;
};

// One side's profile: raw counts from one Callgrind file, or per iteration once scaled.
struct FunctionProfile {
  double total = 0;  // every function's self count
  std::vector<ProfiledFunction> functions;
  std::vector<ProfiledCall> calls;
};

// Why a benchmark's function-level diff was made, or why it could not be.
struct BenchmarkProfile {
  std::string suite;  // the time suite's name (not the instruction series' suite)
  std::string name;
  std::string requested_by;             // "regression", "improvement", "--why"
  std::optional<FunctionProfile> base;  // per iteration; absent when not profiled
  std::optional<FunctionProfile> head;  // per iteration
  std::string skipped;                  // why there is no profile ("" when both sides are)
  double seconds = 0;                   // what profiling both sides cost, wall clock
  // Read from the instruction counts' Callgrind runs of the benchmark (the same runs), at no
  // cost of its own.
  bool from_counts = false;
};

// Adds `p`'s counts to `into`, function by function and call by call (several dumps of one run).
void add_profile(FunctionProfile& into, const FunctionProfile& p);

// Every count multiplied by `factor` (1 / iterations: counts per iteration).
FunctionProfile scaled_profile(FunctionProfile p, double factor);

// Keeps, on both sides alike, the functions whose self or inclusive count reaches `fraction` of
// their side's total on either side, and the calls between kept functions that reach it: what
// the results file stores. Keeping the same functions on both sides keeps their changes right.
void trim_profiles(FunctionProfile& base, FunctionProfile& head, double fraction);

// The function named `name`, or nullptr.
const ProfiledFunction* find_function(const FunctionProfile& p, const std::string& name);

}  // namespace benchpr
