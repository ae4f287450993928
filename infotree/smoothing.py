"""Leaf probabilities of a probability estimation tree: raw, Laplace or m-estimate, exactly.

A leaf with class counts n_c (n = Σ n_c, k classes) estimates P(c) as

``none``
    n_c / n, the raw frequency;
``laplace``
    (n_c + 1) / (n + k) (Laplace's rule of succession; Provost & Domingos 2003);
``m=M``
    (n_c + M·p_c) / (n + M), the m-estimate (Cestnik 1990), whose prior p_c is the
    class distribution at the root: the training class frequencies (weighted when
    the rows carry weights).

Counts may be exact Fractions (C4.5's fractional weights, sample weights): the
smoothing is applied to the leaf's weighted counts, so every probability stays a
Fraction and each distribution sums to exactly 1.

    >>> smoothing_named("laplace").probabilities([5, 10], [9, 11])   # 5 of 15: (5 + 1)/(15 + 2)
    [Fraction(6, 17), Fraction(11, 17)]
    >>> smoothing_named("m=2").probabilities([5, 10], [9, 11])       # (5 + 2·9/20)/(15 + 2)
    [Fraction(59, 170), Fraction(111, 170)]
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from .errors import InfotreeError

__all__ = ["SMOOTHINGS", "Smoothing", "smoothing_named"]

#: The spellings a smoothing is named by (``m=M`` with M a positive rational).
SMOOTHINGS = ("none", "laplace", "m=M")


@dataclass(frozen=True)
class Smoothing:
    """How a node's class counts become probabilities: ``kind`` none, laplace or m (with ``m``)."""

    kind: str = "none"
    m: Fraction | None = None

    def __str__(self):
        return f"m={_text(self.m)}" if self.kind == "m" else self.kind

    def describe(self, classes, prior) -> str:
        """One sentence: the estimate's formula and, for the m-estimate, its prior p_c."""
        if self.kind == "laplace":
            return f"leaf probabilities: Laplace, (n_c + 1)/(n + {len(classes)})"
        if self.kind == "m":
            total = sum((Fraction(p) for p in prior), Fraction(0))
            ps = ", ".join(f"{k} {_text(Fraction(p) / total)}" for k, p in zip(classes, prior))
            m = _text(self.m)
            return f"leaf probabilities: m-estimate, (n_c + {m}·p_c)/(n + {m}), prior p_c the root's class distribution ({ps})"
        return "leaf probabilities: class frequencies, n_c/n"

    def probabilities(self, counts, prior) -> list[Fraction]:
        """P(c) for each class from a node's ``counts`` (n > 0) and the root's class counts ``prior``."""
        counts = [Fraction(c) for c in counts]
        n = sum(counts, Fraction(0))
        if self.kind == "laplace":
            return [(c + 1) / (n + len(counts)) for c in counts]
        if self.kind == "m":
            total = sum((Fraction(p) for p in prior), Fraction(0))
            return [(c + self.m * Fraction(p) / total) / (n + self.m) for c, p in zip(counts, prior)]
        return [c / n for c in counts]


def _text(q: Fraction) -> str:
    return str(q.numerator) if q.denominator == 1 else f"{q.numerator}/{q.denominator}"


def smoothing_named(spec) -> Smoothing:
    """``none`` (or None), ``laplace``, ``m=M`` (M a positive rational: ``m=2``, ``m=1/2``,
    ``m=0.5``) or a Smoothing; anything else is a one-line error."""
    if isinstance(spec, Smoothing):
        return spec
    if spec is None:
        return Smoothing()
    text = str(spec).strip()
    if text in ("none", "laplace"):
        return Smoothing(text)
    if text.startswith("m="):
        from .parse import ParseError, parse_rational

        try:
            m = parse_rational(text[2:], what="smoothing m")
        except (ParseError, InfotreeError):
            m = None
        if m is not None and m > 0:
            return Smoothing("m", m)
    raise InfotreeError(f"unknown smoothing {spec!r}; allowed: none, laplace, m=M with M a positive number "
                        f"(m=2, m=1/2)")
