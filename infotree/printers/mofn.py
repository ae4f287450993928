"""An M-of-N search (:mod:`infotree.mofn`) as text or Markdown: each accepted step's test,
its two branches like any binary split's, H(Y|test) in the counts' form, and the exact gain."""

from __future__ import annotations

from ..exact import decimal_text
from ..forms import conditional_entropy_form
from .cells import MARKDOWN, TEXT, Table, count_text

__all__ = ["write"]


def _step_table(search, step, m) -> Table:
    rows = []
    for b in step.candidate.branches:
        h = b.entropy
        rows.append((m.name(b.value), count_text(b.n), *(count_text(k) for k in b.counts),
                     decimal_text(h, 4) if h is not None else "empty"))
    return Table("branches", ("branch", "n", *(m.name(k) for k in search.classes), "H(branch)"), rows,
                 ("l", "r", *("r" for _ in search.classes), "r"))


def _gain_lines(step, target, digits, m):
    c = step.candidate
    return [m.equation([(f"H({target}|test)", ""), m.form(conditional_entropy_form, c.table),
                        m.value(c.conditional_entropy)], approx=decimal_text(c.conditional_entropy, digits)),
            m.equation([("IG", ""), m.value(c.gain)], approx=decimal_text(c.gain, digits))]


def write(search, out, *, target, where="root", digits=4, fmt="text") -> None:
    """Write ``search``; ``target`` names the class, ``where`` the node."""
    from .markdown import write_table
    from .text import _table

    m = MARKDOWN if fmt == "markdown" else TEXT
    bullet = "- " if fmt == "markdown" else ""
    heading = "## " if fmt == "markdown" else ""
    out.write(f"{heading}M-of-N test at {m.name(where)} ({count_text(search.n)} rows; grown from the best single "
              f"condition, as ID2-of-3)\n")
    for i, step in enumerate(search.steps, 1):
        out.write(f"\n### step {i}: {m.name(step.operator)} ({step.tried} tests compared)\n\n"
                  if fmt == "markdown" else f"\nstep {i}: {step.operator} ({step.tried} tests compared)\n")
        out.write(f"{bullet}test: {m.name(step.split.text)}\n")
        t = _step_table(search, step, m)
        if fmt == "markdown":
            out.write("\n")
            write_table(t, out)
            out.write("\n")
        else:
            out.write(_table(t, "simple") + "\n")
        for line in _gain_lines(step, m.name(target), digits, m):
            out.write(f"{bullet}{line}\n")
    out.write(f"\n{bullet}stopped: {m.name(search.stopped)}")
    if search.rejected is not None:
        r = search.rejected
        out.write(f" (the best move, {m.name(r.split.text)}, has IG {decimal_text(r.candidate.gain, digits)} "
                  f"= {m.code(*m.value(r.candidate.gain))}, not more)")
    out.write("\n")
    b, f = search.best, search.best_feature
    if f is not None:
        better = "more than" if b.candidate.gain > f.gain else "equal to" if b.candidate.gain == f.gain else "less than"
        out.write(f"{bullet}the test's IG {decimal_text(b.candidate.gain, digits)} is {better} the best one-feature "
                  f"split's: {m.name(f.feature)} (one branch per value), IG {decimal_text(f.gain, digits)}\n")
