"""An M-of-N search (:mod:`infotree.mofn`) as text, Markdown or LaTeX: each accepted step's
test, its two branches like any binary split's, H(Y|test) in the counts' form, and the exact
gain.  ``infotree measures --m-of-n`` prints one; a tree grown with ``m_of_n=True`` prints
each node's beside its one-feature candidate table."""

from __future__ import annotations

from .numbers import approx, number
from ..forms import conditional_entropy_form
from .cells import LATEX, MARKDOWN, TEXT, Table, count_text, latex_escape
from .tables import latex_table, markdown_table, text_table

__all__ = ["search_lines", "write"]


def _step_table(search, step, m, digits) -> Table:
    rows = []
    for b in step.candidate.branches:
        h = b.entropy
        rows.append((m.name(b.value), count_text(b.n), *(count_text(k) for k in b.counts),
                     number(h, digits) if h is not None else "empty"))
    return Table("branches", ("branch", "n", *(m.name(k) for k in search.classes), "H(branch)"), rows,
                 ("l", "r", *("r" for _ in search.classes), "r"))


def _gain_lines(step, target, digits, m):
    c = step.candidate
    h = (f"H({m.name(target)}|test)", f"H(\\text{{{latex_escape(target)}}} \\mid \\text{{test}})")
    return [m.equation([h, m.form(conditional_entropy_form, c.table), m.value(c.conditional_entropy)],
                       approx=approx(c.conditional_entropy, digits)),
            m.equation([("IG", "\\mathrm{IG}"), m.value(c.gain)], approx=approx(c.gain, digits))]


def search_lines(search, target, digits, m):
    """The search as worked-solution lines (``--steps``): each step's test, H(Y|test) and IG, then why it stopped."""
    yield f"M-of-N test grown from the best single condition (ID2-of-3), {count_text(search.n)} rows:"
    for i, step in enumerate(search.steps, 1):
        yield f"step {i} ({m.name(step.operator)}, {step.tried} tests compared): {m.name(step.split.text)}"
        for line in _gain_lines(step, target, digits, m):
            yield f"  {line}"
    line = f"stopped: {m.name(search.stopped)}"
    if search.rejected is not None:
        r = search.rejected
        line += (f" (the best move, {m.name(r.split.text)}, has IG {number(r.candidate.gain, digits)}, "
                 f"not more)")
    yield line


def _heading(fmt, text, level) -> str:
    if fmt == "markdown":
        return f"{'#' * level} {text}\n"
    if fmt == "latex":
        return f"\\par\\smallskip\\noindent\\textbf{{{text}}}\\par\n"
    return f"{text}\n"


def _write_table(fmt, t, out) -> None:
    if fmt == "markdown":
        out.write("\n")
        markdown_table(t, out)
        out.write("\n")
    elif fmt == "latex":
        latex_table(t, out)
    else:
        out.write(text_table(t) + "\n")


def write(search, out, *, target, where="root", digits=4, fmt="text", level=2) -> None:
    """Write ``search``; ``target`` names the class, ``where`` the node; ``level``: the Markdown
    heading level of its title (its steps one deeper)."""
    m = {"markdown": MARKDOWN, "latex": LATEX}.get(fmt, TEXT)
    bullet = {"markdown": "- ", "latex": "\\item "}.get(fmt, "")
    # LaTeX's items sit in itemize lists; a blank line parts the text and Markdown blocks
    begin, end, gap = ("\\begin{itemize}\n", "\\end{itemize}\n", "") if fmt == "latex" else ("", "", "\n")
    out.write(_heading(fmt, f"M-of-N test at {m.name(where)} ({count_text(search.n)} rows; grown from the best "
                            f"single condition, as ID2-of-3)", level))
    for i, step in enumerate(search.steps, 1):
        out.write(gap + _heading(fmt, f"step {i}: {m.name(step.operator)} ({step.tried} tests compared)", level + 1)
                  + ("\n" if fmt == "markdown" else ""))
        out.write(f"{begin}{bullet}test: {m.name(step.split.text)}\n{end}")
        _write_table(fmt, _step_table(search, step, m, digits), out)
        out.write(begin + "".join(f"{bullet}{line}\n" for line in _gain_lines(step, target, digits, m)) + end)
    out.write(f"{gap}{begin}{bullet}stopped: {m.name(search.stopped)}")
    if search.rejected is not None:
        r = search.rejected
        ig = m.equation([("IG", "\\mathrm{IG}"), m.value(r.candidate.gain)], approx=approx(r.candidate.gain, digits))
        out.write(f" (the best move, {m.name(r.split.text)}, has {ig}, not more)")
    out.write("\n")
    b, f = search.best, search.best_feature
    if f is not None:
        better = "more than" if b.candidate.gain > f.gain else "equal to" if b.candidate.gain == f.gain else "less than"
        out.write(f"{bullet}the test's IG {number(b.candidate.gain, digits)} is {better} the best one-feature "
                  f"split's: {m.name(f.feature)} (one branch per value), IG {number(f.gain, digits)}\n")
    out.write(end)
