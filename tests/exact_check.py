"""An exact arithmetic independent of infotree's: c0 + Σ c_p·log2(p) as {p: c}, by sympy's factorint.

The tests compare infotree's :class:`~infotree.exact.Exact` values with values built here
(2 stands for the rational part).
"""

from collections import defaultdict
from fractions import Fraction

import sympy


def nlogn(m) -> dict:
    """m·log2(m) as {prime: coefficient}."""
    out = defaultdict(Fraction)
    if m > 1:
        for p, e in sympy.factorint(m).items():
            out[p] += m * e
    return out


def entropy(counts) -> dict:
    """H of integer counts: (f(n) − Σ f(n_c)) / n, f(m) = m·log2 m."""
    n = sum(counts)
    out = defaultdict(Fraction)
    for p, c in nlogn(n).items():
        out[p] += c / Fraction(n)
    for k in counts:
        for p, c in nlogn(k).items():
            out[p] -= c / Fraction(n)
    return out


def add(a, b, scale=1):
    """a + scale·b."""
    out = defaultdict(Fraction, a)
    for p, c in b.items():
        out[p] += scale * c
    return out


def value(v) -> float:
    """The value to 40 digits (to pick a minimum; equal values have equal vectors)."""
    return float(sum((c * sympy.log(p, 2) for p, c in v.items()), sympy.Integer(0)).evalf(40))


def vector(exact) -> dict:
    """infotree's Exact as the same {prime: coefficient}, zeros dropped."""
    out = {p: Fraction(c) for p, c in exact.terms}
    if exact.c0:
        out[2] = Fraction(exact.c0)
    return clean(out)


def clean(v) -> dict:
    return {p: c for p, c in v.items() if c}


def gain(table) -> dict:
    """IG of a branch-by-class table of integer counts: H(Y) − Σ_b (n_b/n)·H(Y|b)."""
    n = sum(map(sum, table))
    out = entropy([sum(col) for col in zip(*table)])
    for row in table:
        if sum(row):
            out = add(out, entropy(list(row)), -Fraction(sum(row), n))
    return clean(out)
