"""How an exact number reads in a picture, a report or a summary line: one rule for every printer.

A value whose exact decimal has at most ``digits`` places prints as that decimal (``0.25``,
``17010``); any other prints rounded to ``digits`` places (``123.3333``), so a box's mean
and the decrease beside it have the same digits.  :func:`ratio_text` writes a share such
as an accuracy as its counts, then its value: ``47/57 ≈ 0.8246``, never ``47/57 = 47/57``.

    >>> from fractions import Fraction
    >>> number(Fraction(370, 3)), number(Fraction(1, 4)), number(17010)
    ('123.3333', '0.25', '17010')
    >>> ratio_text(47, 57), ratio_text(3, 4), ratio_text(94, 114)
    ('47/57 ≈ 0.8246', '3/4 = 0.75', '94/114 = 47/57 ≈ 0.8246')
"""

from __future__ import annotations

from fractions import Fraction

from ..exact import decimal_text

__all__ = ["number", "ratio_text"]


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


def number(x, digits: int = 4) -> str:
    """An exact value (int, Fraction, or an Exact/Ratio with its own decimals) for reading."""
    if isinstance(x, (int, Fraction)):
        q = Fraction(x)
        places = _places(q)
        if places is not None and places <= digits:
            return decimal_text(q, places)
    return decimal_text(x, digits)


def ratio_text(k, n, digits: int = 4) -> str:
    """``k/n`` as counted, reduced when it reduces, then its decimal (``=`` when exact, else ``≈``)."""
    q = Fraction(k) / Fraction(n)
    shown = f"{number(k, digits)}/{number(n, digits)}"
    if Fraction(k).denominator == Fraction(n).denominator == 1 and q.denominator != n:
        shown += f" = {q}" if q.denominator != 1 else ""
    exact = _places(q) is not None and _places(q) <= digits
    return f"{shown} {'=' if exact else '≈'} {number(q, digits)}"
