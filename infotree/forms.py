"""Textbook forms: the expanded expressions a student writes, keeping the counts.

    >>> entropy_form([9, 5])
    '-(9/14)·log2(9/14) - (5/14)·log2(5/14)'
    >>> conditional_entropy_form([[2, 3], [4, 0], [3, 2]])
    '5/14·H(2,3) + 4/14·H(4,0) + 5/14·H(3,2)'

Fractions are printed unreduced (``4/14``, not ``2/7``): the counts are the
explanation.  ``latex=True`` gives the same forms as LaTeX math.
"""

from __future__ import annotations

from fractions import Fraction

from .errors import InfotreeError

__all__ = ["counts_text", "entropy_form", "conditional_entropy_form", "gain_form", "gini_form", "misclassification_form",
           "q_latex", "ratio_text", "sse_form", "weighted_form"]


def counts_text(c) -> str:
    """A count as the exact grammar writes it: ``9`` or ``15/4``."""
    q = Fraction(c)
    return str(q.numerator) if q.denominator == 1 else f"{q.numerator}/{q.denominator}"


def ratio_text(a, b, *, latex=False) -> str:
    """``a/b`` unreduced; rational counts are parenthesised when needed."""
    sa, sb = counts_text(a), counts_text(b)
    if latex:
        return f"\\frac{{{sa}}}{{{sb}}}"
    if "/" in sa:
        sa = f"({sa})"
    if "/" in sb:
        sb = f"({sb})"
    return f"{sa}/{sb}"


def h_of(counts, *, latex=False) -> str:
    """``H(9,5)``: the entropy of counts written as a function of the counts."""
    inner = ",".join(counts_text(c) for c in counts)
    return f"H({inner})"


def entropy_form(counts, *, style="minus", latex=False) -> str:
    """The expanded entropy of counts.

    ``style="minus"``: ``-(9/14)·log2(9/14) - (5/14)·log2(5/14)`` (Mitchell);
    ``style="inverse"``: ``9/14·log2(14/9) + 5/14·log2(14/5)`` (coding-theory notes).
    Zero counts are left out (0·log 0 = 0); a pure node prints as its one term.
    """
    if style not in ("minus", "inverse"):
        raise InfotreeError(f"unknown entropy style {style!r}; styles are: minus, inverse")
    n = sum(Fraction(c) for c in counts)
    terms = []
    for c in counts:
        if not c:
            continue
        p = ratio_text(c, n, latex=latex)
        if style == "inverse":
            inv = counts_text(n) if c == 1 else ratio_text(n, c, latex=latex)
            terms.append(f"{p}\\log_2 {inv}" if latex else f"{p}·log2({inv})")
        else:
            terms.append(f"{p}\\log_2 {p}" if latex else f"({p})·log2({p})")
    if not terms:
        return "0"
    if style == "inverse":
        return " + ".join(terms)
    return "-" + " - ".join(terms)


def conditional_entropy_form(table, *, latex=False) -> str:
    """``5/14·H(2,3) + 4/14·H(4,0) + 5/14·H(3,2)`` from a value-by-class table."""
    rows = [list(r) for r in table]
    dot = " \\cdot " if latex else "·"
    if all(type(c) is int for r in rows for c in r):
        # Plain ints (the tree's records): the same text without Fractions.
        n = sum(map(sum, rows))
        parts = [f"\\frac{{{nx}}}{{{n}}}{dot}H({','.join(map(str, r))})" if latex
                 else f"{nx}/{n}{dot}H({','.join(map(str, r))})"
                 for r, nx in zip(rows, map(sum, rows)) if nx]
        return " + ".join(parts) if parts else "0"
    n = sum(sum(Fraction(c) for c in r) for r in rows)
    parts = []
    for r in rows:
        nx = sum(Fraction(c) for c in r)
        if not nx:
            continue
        parts.append(f"{ratio_text(nx, n, latex=latex)}{dot}{h_of(r)}")
    return " + ".join(parts) if parts else "0"


def gain_form(table, *, latex=False) -> str:
    """``H(9,5) - [5/14·H(2,3) + 4/14·H(4,0) + 5/14·H(3,2)]``."""
    ys = [sum(Fraction(c) for c in col) for col in zip(*table)]
    return f"{h_of(ys)} - [{conditional_entropy_form(table, latex=latex)}]"


def q_latex(q) -> str:
    """A rational as LaTeX: ``\\frac{45}{98}``, ``-\\frac{1}{2}``, ``3``."""
    q = Fraction(q)
    if q.denominator == 1:
        return str(q.numerator)
    sign = "-" if q < 0 else ""
    return f"{sign}\\frac{{{abs(q.numerator)}}}{{{q.denominator}}}"


def gini_form(counts, *, latex=False) -> str:
    """``1 - (9/14)² - (5/14)²``: the Gini index of counts, expanded (zero counts left out)."""
    n = sum(Fraction(c) for c in counts)
    if latex:
        terms = [f"\\left({ratio_text(c, n, latex=True)}\\right)^2" for c in counts if c]
    else:
        terms = [f"({ratio_text(c, n)})²" for c in counts if c]
    return "1 - " + " - ".join(terms)


def misclassification_form(counts, *, latex=False) -> str:
    """``1 - max(9/14, 5/14)``: the misclassification error of counts, expanded."""
    n = sum(Fraction(c) for c in counts)
    parts = ", ".join(ratio_text(c, n, latex=latex) for c in counts)
    return f"1 - \\max\\left({parts}\\right)" if latex else f"1 - max({parts})"


def weighted_form(table, symbol, *, latex=False) -> str:
    """``9/14·Gini(6,3) + 5/14·Gini(3,2)``: a split's weighted child impurity."""
    rows = [list(r) for r in table]
    n = sum(sum(Fraction(c) for c in r) for r in rows)
    dot = " \\cdot " if latex else "·"
    name = f"\\mathrm{{{symbol}}}" if latex else symbol
    return " + ".join(f"{ratio_text(sum(r), n, latex=latex)}{dot}{name}({','.join(counts_text(c) for c in r)})"
                      for r in rows if any(r))


def _number(q, latex=False) -> str:
    """A number as data are written: the exact decimal when it terminates, else p/q."""
    from .data import number_text

    t = number_text(Fraction(q))
    if latex and "/" in t:
        return q_latex(Fraction(q))
    return t


def sse_form(stats, *, latex=False) -> str:
    """``31200 - 658²/14``: a node's sum of squared errors Σy² − (Σy)²/n, from its (n, Σy, Σy²)."""
    n, s, q = stats
    if latex:
        return f"{_number(q, True)} - \\frac{{({_number(s, True)})^2}}{{{_number(n, True)}}}"
    st = _number(s)
    st = f"({st})" if "/" in st or st.startswith("-") else st
    nt = _number(n)
    nt = f"({nt})" if "/" in nt else nt
    return f"{_number(q)} - {st}²/{nt}"

