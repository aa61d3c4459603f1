// What a session learns about each suite on each side while running it: the benchmarks that
// crashed it (left out of its later runs), its listing from the crash probe, whether it was
// probed, why it was given up (a timeout, or a first run that measured nothing), and whether
// --filter selects nothing of it. The rounds ask it which benchmarks a run must include.
#pragma once

#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "benchpr/core/model/model.hpp"

namespace benchpr::runner {

class SuiteHealth {
 public:
  // Which benchmarks a run of a suite must include: every one (`only` empty), or a list when
  // crashers are left out or adaptive looks narrowed the suite to its open benchmarks; `skip`
  // when that list is empty (nothing of the suite is left to run on this side).
  struct Selection {
    std::vector<std::string> only;
    bool skip = false;
  };
  // `open`: the benchmarks still open per suite (absent: the whole suite).
  Selection select(const SuiteConfig& suite, Side side,
                   const std::map<std::string, std::vector<std::string>>& open) const;

  // --filter selects nothing of the suite on this side: it is not run again.
  void mark_unselected(const std::string& suite, Side side);
  bool unselected(const std::string& suite, Side side) const;

  // Given up on this side, and why ("timed out after 10m"); not run again. give_up replaces an
  // earlier reason (the latest timeout is the one to name); give_up_first keeps the first.
  void give_up(const std::string& suite, Side side, const std::string& reason);
  bool give_up_first(const std::string& suite, Side side, const std::string& reason);
  const std::string* given_up(const std::string& suite, Side side) const;

  // A crash of the suite on this side is probed once: true the first time it is asked.
  bool first_probe(const std::string& suite, Side side);
  // What the probe found: the suite's listing and the benchmarks that crash it.
  void record_crashers(const std::string& suite, Side side, std::vector<std::string> listed,
                       const std::vector<std::string>& crashers);
  bool any_crashed(const std::string& suite, Side side) const;
  bool crashed(const std::string& suite, Side side, const std::string& benchmark) const;

 private:
  using Key = std::pair<std::string, Side>;
  std::map<Key, std::set<std::string>> crashed_;
  std::map<Key, std::vector<std::string>> listed_;
  std::set<Key> probed_;
  std::map<Key, std::string> given_up_;
  std::set<Key> unselected_;
};

}  // namespace benchpr::runner
