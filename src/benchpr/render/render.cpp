#include "benchpr/render/render.hpp"

#include <algorithm>
#include <functional>

#include "benchpr/core/base/valid_utf8.hpp"
#include "benchpr/render/escape.hpp"
#include "benchpr/render/markdown_tidy.hpp"
#include "benchpr/render/template_set.hpp"
#include "benchpr/render/view_model.hpp"

namespace benchpr::render {

namespace {

std::size_t row_bytes(const TableRow& r) {
  std::size_t params = 0;
  for (const std::string& p : r.params) params += p.size();
  return r.suite.size() + r.name.size() + r.base.size() + r.head.size() + r.change.size() +
         r.ci.size() + r.verdict_text.size() + params;
}

// Bytes the shown rows of a part take at least: when the other parts alone already exceed the
// budget, trying to fit this one is pointless and its renders can be skipped.
template <typename Row>
std::size_t shown_bytes(const std::vector<Row>& rows, std::size_t limit) {
  std::size_t n = 0;
  for (std::size_t i = 0; i < rows.size() && i < limit; ++i) n += row_bytes(rows[i]);
  return n;
}

// The most leading rows whose own bytes stay within the budget.
template <typename Row>
std::size_t prefix_within(const std::vector<Row>& rows, std::size_t budget) {
  std::size_t n = 0, bytes = 0;
  while (n < rows.size() && bytes + row_bytes(rows[n]) <= budget) bytes += row_bytes(rows[n++]);
  return n;
}

// Renders with fewer and fewer rows of one part until it fits. The size grows about linearly
// with the rows, so the count is interpolated (with a bisection step whenever interpolation
// gains little): a handful of renders even for thousands of rows. `count` ends at the
// largest number that fits, or 0 with `out` still too big when even none fits.
class BudgetFitter {
 public:
  BudgetFitter(std::size_t budget, std::function<std::string()> render)
      : budget_(budget), render_(std::move(render)) {}

  bool fits(const std::string& s) const { return s.size() <= budget_; }

  void fit(std::size_t& count, std::string& out) {
    const std::size_t upper = count;
    if (upper == 0) return;
    std::size_t hi = upper, hi_size = out.size();  // known too big
    count = 0;
    std::string best = render_();
    if (!fits(best)) {
      out = std::move(best);
      return;
    }
    std::size_t lo = 0, lo_size = best.size();
    bool bisect = false;
    while (hi - lo > 1) {
      std::size_t guess;
      if (bisect || hi_size <= lo_size) {
        guess = lo + (hi - lo) / 2;
      } else {
        const double share = static_cast<double>(budget_ - lo_size) / (hi_size - lo_size);
        guess = lo + static_cast<std::size_t>(share * static_cast<double>(hi - lo));
      }
      guess = std::clamp(guess, lo + 1, hi - 1);
      const std::size_t before = hi - lo;
      count = guess;
      std::string attempt = render_();
      if (fits(attempt)) {
        lo = guess, lo_size = attempt.size();
        best = std::move(attempt);
      } else {
        hi = guess, hi_size = attempt.size();
      }
      bisect = (hi - lo) * 2 > before;  // interpolation did not halve the interval
    }
    count = lo;
    out = std::move(best);
  }

 private:
  std::size_t budget_;
  std::function<std::string()> render_;
};

// Last resort for budgets too small for even the summary: cut at a line end and close any
// <details> left open, so the tail of the page is not swallowed.
std::string hard_cut(const std::string& text, std::size_t budget) {
  static const std::string kSuffix = "\n… (cut to fit the size limit)\n";
  const std::string marker = text.substr(0, text.find('\n') + 1);
  if (budget <= marker.size() + kSuffix.size() + 32) return marker.substr(0, budget);
  std::size_t cut = text.rfind('\n', budget - kSuffix.size() - 32);
  if (cut == std::string::npos || cut < marker.size()) cut = marker.size();
  std::string out = text.substr(0, cut + 1);
  std::size_t open = 0;
  for (std::size_t p = out.find("<details>"); p != std::string::npos;
       p = out.find("<details>", p + 1))
    ++open;
  for (std::size_t p = out.find("</details>"); p != std::string::npos;
       p = out.find("</details>", p + 1))
    open -= open > 0 ? 1 : 0;
  out += kSuffix;
  for (; open > 0; --open) out += "\n</details>\n";
  return out.size() <= budget ? out : marker.substr(0, budget);
}

}  // namespace

namespace {

std::string fit_comment(const Results& results, const Analysis& analysis,
                        const RenderOptions& options) {
  const TemplateSet templates(options.template_overrides);
  const CommentView view = make_view(results, analysis, options);
  ViewLimits limits;
  limits.per_round_rows = std::min(limits.per_round_rows, view.per_round.size());
  const auto render = [&] {
    return tidy_markdown(templates.render("comment", to_data(view, limits)));
  };
  const std::size_t budget = options.max_chars;

  // Rows' own bytes are a lower bound of what they add, so some conclusions of the staged
  // shrinking below are known without rendering (and without rendering megabytes first).
  const std::size_t changed_bytes = shown_bytes(view.changed, ViewLimits::kAll);
  const std::size_t unchanged_bytes = shown_bytes(view.unchanged, ViewLimits::kAll);
  if (changed_bytes + unchanged_bytes > budget) limits.per_round_rows = 0;
  if (changed_bytes > budget) limits.unchanged_rows = 0;
  limits.changed_rows = prefix_within(view.changed, budget);
  limits.unchanged_rows = std::min(limits.unchanged_rows, prefix_within(view.unchanged, budget));

  std::string out = render();
  if (out.size() <= budget) return out;
  BudgetFitter fitter(budget, render);
  fitter.fit(limits.per_round_rows, out);
  if (fitter.fits(out)) return out;
  limits.why_sections = false;
  out = render();
  if (fitter.fits(out)) return out;
  fitter.fit(limits.unchanged_rows, out);
  if (fitter.fits(out)) return out;
  limits.placeholders = false;
  out = render();
  if (fitter.fits(out)) return out;
  fitter.fit(limits.changed_rows, out);
  if (fitter.fits(out)) return out;
  limits.build_logs = false;
  limits.notes = 0;
  out = render();
  if (fitter.fits(out)) return out;
  return hard_cut(out, budget);
}

}  // namespace

std::string render_comment(const Results& results, const Analysis& analysis,
                           const RenderOptions& options) {
  // The escapers already decode leniently; this also covers template text, unescaped fields
  // and a cut in the middle of a character, so the comment can always be serialised and posted.
  std::string out = fit_comment(results, analysis, options);
  make_valid_utf8(out);
  return out;
}

}  // namespace benchpr::render
