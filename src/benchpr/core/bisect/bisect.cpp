#include "benchpr/core/bisect/bisect.hpp"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <map>
#include <utility>

#include <fmt/format.h>

#include "benchpr/core/base/duration.hpp"
#include "benchpr/core/base/text.hpp"
#include "benchpr/core/wording/sentence.hpp"
#include "benchpr/core/wording/wording.hpp"

namespace benchpr {

namespace {

int last_commit(const Bisection& b) { return static_cast<int>(b.commits.size()) - 1; }

bool skipped(const Bisection& b, int c) {
  return c >= 0 && c <= last_commit(b) && b.commits[static_cast<std::size_t>(c)].skipped;
}

bool exact(const Bisection& b) { return b.method == BisectMethod::Instructions; }

const BisectValue* value_of(const BisectPair& p, const BisectTarget& t) {
  for (const BisectValue& v : p.values)
    if (v.suite == t.suite && v.name == t.name) return &v;
  return nullptr;
}

// A commit some comparison tried to measure (exact counts: its count is then known, or failed).
bool attempted(const Bisection& b, int c) {
  return std::any_of(b.pairs.begin(), b.pairs.end(),
                     [c](const BisectPair& p) { return p.from == c || p.to == c; });
}

const BisectPair* pair_of(const Bisection& b, int from, int to) {
  for (const BisectPair& p : b.pairs)
    if (p.from == from && p.to == to) return &p;
  return nullptr;
}

// Whether the comparison of `from` and `to` is known: measured (time), or both counts (exact).
bool known(const Bisection& b, int from, int to) {
  if (exact(b)) return attempted(b, from) && attempted(b, to);
  return pair_of(b, from, to) != nullptr;
}

// The exact count of `t` at every commit where some comparison measured it.
std::map<int, double> counts_of(const Bisection& b, const BisectTarget& t) {
  std::map<int, double> counts;
  for (const BisectPair& p : b.pairs) {
    if (!p.failure.empty()) continue;
    const BisectValue* v = value_of(p, t);
    if (v == nullptr) continue;
    if (!is_missing(v->from_value)) counts.emplace(p.from, v->from_value);
    if (!is_missing(v->to_value)) counts.emplace(p.to, v->to_value);
  }
  return counts;
}

bool interval_excludes_zero(double low, double high) {
  return (!is_missing(low) && low > 0) || (!is_missing(high) && high < 0);
}

bool exact_step(double change, double threshold) {
  return !is_missing(change) && std::fabs(change) >= threshold;
}

// Whether any target changed between `from` and `to`, as far as the measurements tell.
bool changed(const Bisection& b, int from, int to) {
  for (const BisectTarget& t : b.targets) {
    if (exact(b)) {
      const std::map<int, double> counts = counts_of(b, t);
      const auto f = counts.find(from);
      const auto g = counts.find(to);
      if (f != counts.end() && g != counts.end() &&
          exact_step(g->second / f->second - 1, t.threshold))
        return true;
    } else if (const BisectPair* p = pair_of(b, from, to); p != nullptr && p->failure.empty()) {
      if (const BisectValue* v = value_of(*p, t);
          v != nullptr && interval_excludes_zero(v->ci_low, v->ci_high))
        return true;
    }
  }
  return false;
}

// The commit between `from` and `to` that built (or was not tried yet) nearest their middle.
std::optional<int> middle(const Bisection& b, int from, int to) {
  std::optional<int> best;
  const double mid = (from + to) / 2.0;
  for (int c = from + 1; c < to; ++c) {
    if (skipped(b, c)) continue;
    if (!best || std::fabs(c - mid) < std::fabs(*best - mid)) best = c;
  }
  return best;
}

std::optional<BisectProbe> halve(const Bisection& b, int from, int to, bool root) {
  if (!root && !changed(b, from, to)) return std::nullopt;
  const std::optional<int> m = middle(b, from, to);
  if (!m) return std::nullopt;
  if (!known(b, from, *m)) return BisectProbe{from, *m};
  if (!known(b, *m, to)) return BisectProbe{*m, to};
  if (auto p = halve(b, from, *m, false)) return p;
  return halve(b, *m, to, false);
}

int next_built(const Bisection& b, int c) {
  int k = c + 1;
  while (k < last_commit(b) && skipped(b, k)) ++k;
  return k;
}

}  // namespace

std::optional<BisectProbe> next_probe(const Bisection& b) {
  const int n = last_commit(b);
  if (n < 2 || b.targets.empty() || skipped(b, 0) || skipped(b, n)) return std::nullopt;
  if (n > kEveryCommitLimit) return halve(b, 0, n, true);
  for (int cur = 0; cur < n;) {
    const int k = next_built(b, cur);
    if (!known(b, cur, k)) return BisectProbe{cur, k};
    cur = k;
  }
  return std::nullopt;
}

int probes_left_estimate(const Bisection& b) {
  const int n = last_commit(b);
  if (!next_probe(b)) return 0;
  if (n <= kEveryCommitLimit) {
    int left = 0;
    for (int cur = 0; cur < n;) {
      const int k = next_built(b, cur);
      left += known(b, cur, k) ? 0 : 1;
      cur = k;
    }
    return std::max(left, 1);
  }
  // Two comparisons per halving (one for exact counts), down to one commit, per target found so
  // far: a rough share, refined as the search goes.
  const int depth = static_cast<int>(std::ceil(std::log2(static_cast<double>(n))));
  const int per_level = exact(b) ? 1 : 2;
  const int done = static_cast<int>(b.pairs.size()) - 1;
  return std::max(1, depth * per_level - done);
}

std::string commit_label(const BisectCommit& c) {
  std::string subject = c.subject;
  // Cut on a UTF-8 boundary: a continuation byte never starts the cut-off part.
  if (subject.size() > 60) {
    std::size_t cut = 60;
    while (cut > 0 && (static_cast<unsigned char>(subject[cut]) & 0xC0) == 0x80) --cut;
    subject = subject.substr(0, cut) + "…";
  }
  const std::string sha = short_sha(c.sha);
  return subject.empty() ? sha : sha + " " + subject;
}

namespace {

// An edge of the path through the chain the attribution reads: a comparison of `from` and `to`
// (measured, or a gap nothing measured).
struct Edge {
  int from = 0;
  int to = 0;
  bool measured = false;
  double change = kMissing;
  double ci_low = kMissing;
  double ci_high = kMissing;
};

// The measured comparisons of one target: exact counts give one between each two neighbouring
// commits whose counts are known, time one per measured pair with a value.
std::vector<Edge> measured_edges(const Bisection& b, const BisectTarget& t) {
  std::vector<Edge> edges;
  if (exact(b)) {
    const std::map<int, double> counts = counts_of(b, t);
    for (auto it = counts.begin(); it != counts.end() && std::next(it) != counts.end(); ++it) {
      const auto next = std::next(it);
      edges.push_back(
          {it->first, next->first, true, next->second / it->second - 1, kMissing, kMissing});
    }
    return edges;
  }
  for (const BisectPair& p : b.pairs) {
    if (!p.failure.empty()) continue;
    const BisectValue* v = value_of(p, t);
    if (v == nullptr || is_missing(v->change)) continue;
    edges.push_back({p.from, p.to, true, v->change, v->ci_low, v->ci_high});
  }
  return edges;
}

// The finest path from the base to the head: the most measured comparisons, then the most
// steps (a range nothing measured, a gap, beside a measured one says more than the range both
// cover measured whole). Skipped commits are never a node of it; neighbouring gaps are one. Linear
// in the commits and the comparisons (a results file is untrusted: no quadratic walk).
std::vector<Edge> finest_path(const Bisection& b, const std::vector<Edge>& edges) {
  const int n = last_commit(b);
  struct Best {
    int measured = -1;
    int edges = 0;
    int prev = -1;
    int edge = -1;  // index into edges, -1 for a gap
  };
  std::vector<std::vector<int>> ending(static_cast<std::size_t>(n + 1));
  for (std::size_t e = 0; e < edges.size(); ++e)
    if (edges[e].from >= 0 && edges[e].from < edges[e].to && edges[e].to <= n)
      ending[static_cast<std::size_t>(edges[e].to)].push_back(static_cast<int>(e));
  std::vector<Best> best(static_cast<std::size_t>(n + 1));
  best[0].measured = 0;
  int previous = 0;  // the last commit that is a node (not skipped)
  for (int to = 1; to <= n; ++to) {
    if (skipped(b, to) && to != n) continue;
    Best& here = best[static_cast<std::size_t>(to)];
    const auto consider = [&](int from, int edge) {
      const Best& there = best[static_cast<std::size_t>(from)];
      if (there.measured < 0) return;
      const int m = there.measured + (edge >= 0 ? 1 : 0);
      const int count = there.edges + 1;
      if (m > here.measured || (m == here.measured && count > here.edges))
        here = {m, count, from, edge};
    };
    bool measured_from_previous = false;
    for (int e : ending[static_cast<std::size_t>(to)]) {
      consider(edges[static_cast<std::size_t>(e)].from, e);
      measured_from_previous |= edges[static_cast<std::size_t>(e)].from == previous;
    }
    if (!measured_from_previous) consider(previous, -1);
    previous = to;
  }
  std::vector<Edge> path;
  for (int at = n; at > 0;) {
    const Best& here = best[static_cast<std::size_t>(at)];
    if (here.prev < 0) break;
    const Edge e =
        here.edge >= 0 ? edges[static_cast<std::size_t>(here.edge)] : Edge{here.prev, at, false};
    if (!e.measured && !path.empty() && !path.back().measured) {
      path.back().from = e.from;  // walking backwards: the gap grows towards the base
    } else {
      path.push_back(e);
    }
    at = here.prev;
  }
  std::reverse(path.begin(), path.end());
  return path;
}

bool only_skipped_between(const Bisection& b, int from, int to) {
  for (int c = from + 1; c < to; ++c)
    if (!skipped(b, c)) return false;
  return true;
}

// A timed step needs its interval to leave out 0 and its estimate to reach half the threshold:
// a commit that changed nothing leaves out 0 about once in twenty comparisons, and it does so with
// a small estimate (the labels' own rule asks the change shown beyond half the threshold).
bool is_step(const Bisection& b, const BisectTarget& t, const Edge& e) {
  if (!e.measured) return false;
  if (exact(b)) return exact_step(e.change, t.threshold);
  return interval_excludes_zero(e.ci_low, e.ci_high) && !is_missing(e.change) &&
         std::fabs(e.change) >= t.threshold / 2;
}

const BisectCommit& commit(const Bisection& b, int c) {
  return b.commits[static_cast<std::size_t>(c)];
}

// `a` and `b`, or `a`, `b` and `c`: names as code.
void list_commits(Sentence& s, const Bisection& b, const std::vector<int>& commits,
                  std::string_view last_word) {
  for (std::size_t i = 0; i < commits.size(); ++i) {
    if (i > 0) s.text(i + 1 == commits.size() ? fmt::format(" {} ", last_word) : ", ");
    s.code(commit_label(commit(b, commits[i])));
  }
}

// The commits a step may have come with: its last commit and the skipped ones before it.
std::vector<int> step_commits(const Bisection& b, const BisectStep& step) {
  std::vector<int> commits;
  for (int c = step.from + 1; c <= step.to; ++c)
    if (skipped(b, c) || c == step.to) commits.push_back(c);
  return commits;
}

void describe_step(Sentence& s, const Bisection& b, const BisectStep& step) {
  const std::vector<int> commits = step_commits(b, step);
  list_commits(s, b, commits, "or");
  s.text(" (" + format_signed_percent(step.change));
  if (commits.size() > 1) {
    s.text("; ");
    std::vector<int> unbuilt(commits.begin(), commits.end() - 1);
    for (std::size_t i = 0; i < unbuilt.size(); ++i) {
      if (i > 0) s.text(", ");
      s.code(short_sha(commit(b, unbuilt[i]).sha));
    }
    s.text(" did not build");
  }
  s.text(")");
}

void describe_steps(Sentence& s, const Bisection& b, const std::vector<BisectStep>& steps,
                    const std::vector<std::size_t>& which) {
  for (std::size_t i = 0; i < which.size(); ++i) {
    if (i > 0) s.text(i + 1 == which.size() ? " and " : ", ");
    describe_step(s, b, steps[which[i]]);
  }
}

BisectFinding find(const Bisection& b, const BisectTarget& t) {
  BisectFinding f;
  f.suite = t.suite;
  f.name = t.name;
  f.total = t.change;
  const int n = last_commit(b);
  f.cells.assign(static_cast<std::size_t>(n + 1), BisectCell{});
  for (int c = 1; c <= n; ++c)
    if (skipped(b, c)) f.cells[static_cast<std::size_t>(c)].state = BisectCell::State::Skipped;

  const std::vector<Edge> path = finest_path(b, measured_edges(b, t));
  for (const Edge& e : path) {
    for (int c = e.from + 1; c < e.to; ++c)
      if (!skipped(b, c))
        f.cells[static_cast<std::size_t>(c)].state =
            e.measured ? BisectCell::State::Inside : BisectCell::State::NotMeasured;
    BisectCell& cell = f.cells[static_cast<std::size_t>(e.to)];
    if (!e.measured) {
      cell.state = BisectCell::State::NotMeasured;
      f.gaps.push_back({e.from, e.to, false});
      continue;
    }
    cell = {BisectCell::State::Measured, e.from, e.change, e.ci_low, e.ci_high, false};
    if (!is_step(b, t, e)) continue;
    if (only_skipped_between(b, e.from, e.to)) {
      cell.named = true;
      f.steps.push_back({e.from, e.to, e.change, e.ci_low, e.ci_high});
    } else {
      // A range that changed as a whole: split and measured without a step showing, it is not
      // settled; left unsplit because the search stopped, it is not measured.
      f.gaps.push_back({e.from, e.to, b.complete});
    }
  }

  // Shares of the whole change, in log terms so that the steps' shares add up.
  double carried = 0;
  for (BisectStep& step : f.steps) {
    carried += std::log1p(step.change);
    if (!is_missing(t.change) && t.change != 0)
      step.share = std::log1p(step.change) / std::log1p(t.change);
  }
  if (!is_missing(t.change)) f.rest = std::expm1(std::log1p(t.change) - carried);

  // A change that comes and goes: two steps in opposite directions that leave the benchmark
  // where it was (within the threshold), each a change of at least the threshold.
  for (std::size_t i = 0; i < f.steps.size(); ++i) {
    if (f.steps[i].reverted_by >= 0 || f.steps[i].reverts >= 0) continue;
    for (std::size_t j = i + 1; j < f.steps.size(); ++j) {
      BisectStep& a = f.steps[i];
      BisectStep& z = f.steps[j];
      if (z.reverted_by >= 0 || z.reverts >= 0) continue;
      if ((a.change > 0) == (z.change > 0)) continue;
      if (std::fabs(a.change) < t.threshold || std::fabs(z.change) < t.threshold) continue;
      if (std::fabs((1 + a.change) * (1 + z.change) - 1) >= t.threshold) continue;
      a.reverted_by = static_cast<int>(j);
      z.reverts = static_cast<int>(i);
      break;
    }
  }
  f.settled = !f.steps.empty() && f.gaps.empty();

  Sentence s;
  std::vector<std::size_t> lasting;
  for (std::size_t i = 0; i < f.steps.size(); ++i)
    if (f.steps[i].reverted_by < 0 && f.steps[i].reverts < 0) lasting.push_back(i);
  bool clause = false;
  const auto next_clause = [&] {
    if (clause) s.text("; ");
    clause = true;
  };
  if (!lasting.empty()) {
    next_clause();
    s.text("came with ");
    describe_steps(s, b, f.steps, lasting);
  }
  for (std::size_t i = 0; i < f.steps.size(); ++i) {
    if (f.steps[i].reverted_by < 0) continue;
    next_clause();
    s.text(lasting.empty() ? "came and went: " : "also came and went: ");
    describe_step(s, b, f.steps[i]);
    s.text(", undone by ");
    describe_step(s, b, f.steps[static_cast<std::size_t>(f.steps[i].reverted_by)]);
  }
  for (const BisectGap& g : f.gaps) {
    next_clause();
    s.text(g.measured ? "not settled between " : "not measured between ");
    s.code(commit_label(commit(b, g.from)));
    s.text(" and ");
    s.code(commit_label(commit(b, g.to)));
    if (!g.measured)
      s.text(b.stop.kind == StopKind::BudgetSpent ? " (the budget ran out)"
                                                  : " (the search stopped early)");
  }
  if (f.steps.empty() && f.gaps.empty()) {
    next_clause();
    s.text("not settled: no single commit shows the change");
  } else if (!lasting.empty() && !is_missing(f.rest) && std::fabs(f.rest) >= t.threshold &&
             f.gaps.empty()) {
    next_clause();
    s.text("no single commit shows the rest (" + format_signed_percent(f.rest) + ")");
  }
  f.line = std::move(s).take();
  return f;
}

}  // namespace

BisectReport attribute(const Bisection& b) {
  BisectReport r;
  if (b.commits.size() < 2) return r;
  for (const BisectTarget& t : b.targets) r.findings.push_back(find(b, t));
  for (int c = 1; c <= last_commit(b); ++c)
    if (skipped(b, c)) r.skipped.push_back(c);
  for (const BisectFinding& f : r.findings)
    for (const BisectGap& g : f.gaps)
      if (!g.measured &&
          std::none_of(r.not_covered.begin(), r.not_covered.end(),
                       [&](const BisectGap& x) { return x.from == g.from && x.to == g.to; }))
        r.not_covered.push_back(g);

  Sentence s;
  const int commits = last_commit(b);
  const int comparisons = static_cast<int>(b.pairs.size()) - 1;
  s.text(fmt::format(
      "Searched the pull request's {} for the step behind {} by {}: {} in {}",
      plural(static_cast<std::size_t>(commits), "commit", "commits"),
      b.targets.size() == 1 ? "its change" : "each change",
      exact(b) ? "exact instruction counts" : "interleaved rounds",
      plural(static_cast<std::size_t>(std::max(comparisons, 0)), "comparison", "comparisons"),
      format_duration(b.seconds)));
  if (b.budget_seconds > 0)
    s.text(fmt::format(" of the {} left", format_duration(b.budget_seconds)));
  s.text(".");
  if (!r.skipped.empty()) {
    s.text(" Did not build, stepped over: ");
    list_commits(s, b, r.skipped, "and");
    s.text(".");
  }
  if (!b.complete && !b.stop.empty()) s.text(" Stopped early: " + describe(b.stop) + ".");
  r.summary = std::move(s).take();
  return r;
}

}  // namespace benchpr
