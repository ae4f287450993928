"""How an exact number reads in any printed output: one rule for every printer.

A value whose exact decimal has at most ``digits`` places prints as that decimal (``0.25``,
``1``, ``17010``); any other prints rounded to ``digits`` places (``0.9403``, ``123.3333``),
so an exact 0 reads ``0`` and a value that only rounds to zero reads ``0.0000``.  A value
shown beside its exact form says which it is: ``11/5 = 2.2``, ``370/3 ≈ 123.3333``, and
never repeats itself (``1``, not ``1 = 1.0000``; ``5/7 ≈ 0.7143``, not ``5/7 = 5/7``).
:func:`ratio_text` writes a share such as an accuracy as its counts, then its value.

    >>> from fractions import Fraction
    >>> number(Fraction(370, 3)), number(Fraction(1, 4)), number(17010), number(Fraction(17010))
    ('123.3333', '0.25', '17010', '17010')
    >>> exact_and_decimal("11/5", Fraction(11, 5)), exact_and_decimal("370/3", Fraction(370, 3))
    ('11/5 = 2.2', '370/3 ≈ 123.3333')
    >>> exact_and_decimal("1", 1), approx(Fraction(3, 2)), approx(Fraction(5, 7))
    ('1', Approx(text='1.5', exact=True), Approx(text='0.7143', exact=False))
    >>> ratio_text(47, 57), ratio_text(3, 4), ratio_text(94, 114)
    ('47/57 ≈ 0.8246', '3/4 = 0.75', '94/114 = 47/57 ≈ 0.8246')

An equation chain (``H(play) = ... = 0.9403``, see :meth:`~infotree.printers.cells.Markup.equation`)
ends with :func:`approx` of its value: after ``=`` as textbooks print a rounded value
(Mitchell's ``Entropy(S) = 0.940``), in LaTeX after ``\\approx`` when rounded and ``=`` when
exact, and left out when the chain already ends with the same text.  Floats (C4.5's
pessimistic error estimates, which are not exact) print through :func:`float_text`.
"""

from __future__ import annotations

import operator
from fractions import Fraction
from typing import NamedTuple

from ..exact import Exact, Ratio

from ..decimals import decimal_text

from ..roots import SquareRoot

__all__ = ["Approx", "approx", "exact_and_decimal", "float_text", "number", "ratio_text", "rational"]


def _places(q: Fraction) -> int | None:
    """How many decimal places ``q`` needs exactly; None if its decimal does not terminate."""
    d = q.denominator
    twos = fives = 0
    while d % 2 == 0:
        d //= 2
        twos += 1
    while d % 5 == 0:
        d //= 5
        fives += 1
    return max(twos, fives) if d == 1 else None


def rational(x) -> Fraction | None:
    """The value of an exact number as a Fraction when it is rational (an entropy of 1 is),
    else None: ints (numpy's too), Fractions, :class:`Exact` without logarithms, a
    :class:`Ratio` whose numerator is a rational multiple of its denominator, a square root
    of a square."""
    if isinstance(x, Exact):
        return x.c0 if not x.terms else None
    if isinstance(x, Fraction):
        return x
    if isinstance(x, Ratio):
        num, den = x.num, x.den
        if not den.terms:
            return num.c0 / den.c0 if not num.terms else None
        # rational iff num = k·den: the same primes, every coefficient (and c0) in one proportion
        if not num:
            return Fraction(0)
        if len(num.terms) != len(den.terms) or num.terms[0][0] != den.terms[0][0]:
            return None
        k = num.terms[0][1] / den.terms[0][1]
        if num.c0 != den.c0 * k or any(pn != pd or cn != cd * k for (pn, cn), (pd, cd) in zip(num.terms, den.terms)):
            return None
        return k
    if isinstance(x, SquareRoot):
        return x.rational()
    try:
        return Fraction(operator.index(x))
    except TypeError:
        return None


def _short(x, digits: int) -> Fraction | None:
    """``x`` as a Fraction when its exact decimal has at most ``digits`` places, else None."""
    q = rational(x)
    if q is None:
        return None
    places = _places(q)
    return q if places is not None and places <= digits else None


def number(x, digits: int = 4) -> str:
    """An exact value (int, Fraction, Exact, Ratio, SquareRoot) for reading: its exact decimal
    when that has at most ``digits`` places, else rounded (half away from zero, decided exactly)."""
    q = _short(x, digits)
    if q is None:
        return decimal_text(x, digits)
    if q.denominator == 1:
        return str(q.numerator)
    places = _places(q)
    k = abs(q.numerator) * 10 ** places // q.denominator  # exact: the decimal terminates there
    whole, frac = divmod(k, 10 ** places)
    return f"{'-' if q < 0 else ''}{whole}.{frac:0{places}d}"


class Approx(NamedTuple):
    """The decimal that ends an equation chain, and whether it is the value itself (not rounded)."""

    text: str
    exact: bool


def approx(x, digits: int = 4) -> Approx:
    """:func:`number` of ``x`` for the end of an equation chain."""
    return Approx(number(x, digits), _short(x, digits) is not None)


def exact_and_decimal(exact: str, x, digits: int = 4, *, latex: bool = False) -> str:
    """An exact form ``exact`` of ``x`` followed by its decimal: ``11/5 = 2.2`` (exact),
    ``855/56 ≈ 15.2679`` (rounded), or ``exact`` alone when it already is that decimal
    (``14``); ``latex`` writes ``\\approx`` for ``≈``."""
    a = approx(x, digits)
    if a.exact and a.text == exact:
        return exact
    sign = "=" if a.exact else ("\\approx" if latex else "≈")
    return f"{exact} {sign} {a.text}"


def float_text(v: float, digits: int = 4) -> str:
    """A float estimate (not an exact value) rounded to ``digits`` places: ``4.7135``."""
    return f"{float(v):.{digits}f}"


def ratio_text(k, n, digits: int = 4) -> str:
    """``k/n`` as counted, reduced when it reduces, then its decimal (``=`` when exact, else ``≈``)."""
    q = Fraction(k) / Fraction(n)
    shown = f"{number(k, digits)}/{number(n, digits)}"
    if Fraction(k).denominator == Fraction(n).denominator == 1 and q.denominator != n:
        shown += f" = {q}" if q.denominator != 1 else ""
    return exact_and_decimal(shown, q, digits)
