"""Exact values printed as decimals: rounded half away from zero, decided exactly
(a certified float proposes the digits, exact comparisons settle the boundary cases)."""

from __future__ import annotations

import math
from fractions import Fraction

from .exact import _U, Ratio

__all__ = ["decimal_text"]


def _mp_value(x):
    """``x`` (Exact or Ratio) as an mpmath number at the current working precision."""
    from mpmath import mpf, log as mlog

    if isinstance(x, Ratio):
        return _mp_value(x.num) / _mp_value(x.den)
    v = mpf(x.c0.numerator) / x.c0.denominator
    for p, c in x.terms:
        v += mpf(c.numerator) / c.denominator * mlog(p, 2)
    return v


def decimal_text(x, digits: int = 4) -> str:
    """``x`` rounded to ``digits`` decimals (half away from zero), decided exactly.

    The float only proposes the digits: they stand when the value's certified float
    interval lies inside one rounding cell, and are otherwise confirmed by exact
    comparisons with the rounding boundaries, so ``0.24675`` style boundary cases are
    never misprinted.
    """
    scale = 10 ** digits
    if not isinstance(x, (int, Fraction)):
        k = _certified_digits(x, scale)
        if k is not None:
            return _digits_text(k, digits, scale)
    return _decimal_exact(x, digits)


def _decimal_exact(x, digits: int) -> str:
    """:func:`decimal_text` by exact comparisons with the rounding boundaries (no float shortcut)."""
    scale = 10 ** digits
    if isinstance(x, (int, Fraction)):
        q = Fraction(x) * scale
        k = math.floor(abs(q) + Fraction(1, 2)) * (1 if q >= 0 else -1)
    else:
        v = float(x) * scale
        if abs(v) < 2.0 ** 40 and math.isfinite(x.approx()[1]):
            k = math.floor(abs(v) + 0.5) * (1 if v >= 0 else -1)
        else:
            # A float proposal would be off by ~|v|·2^-53 steps: propose with mpmath.
            from mpmath import mp, mpf, floor as mfloor

            with mp.workdps(30):
                digits_needed = int(abs(_mp_value(x))).bit_length() // 3 + digits + 30
            with mp.workdps(digits_needed):
                w = _mp_value(x) * scale
                k = int(mfloor(abs(w) + mpf(1) / 2)) * (1 if w >= 0 else -1)

        def cmp(b):
            return x.compare(b)

        # Round half away from zero: k = sign·floor(|x|·scale + 1/2).
        if cmp(0) >= 0:
            while k > 0 and cmp(Fraction(2 * k - 1, 2 * scale)) < 0:
                k -= 1
            while cmp(Fraction(2 * k + 1, 2 * scale)) >= 0:
                k += 1
        else:
            while k < 0 and cmp(Fraction(2 * k + 1, 2 * scale)) > 0:
                k += 1
            while cmp(Fraction(2 * k - 1, 2 * scale)) <= 0:
                k -= 1
    return _digits_text(k, digits, scale)


def _digits_text(k: int, digits: int, scale: int) -> str:
    """The decimal text of k / scale, scale = 10**digits."""
    sign = "-" if k < 0 else ""
    k = abs(k)
    if digits == 0:
        return f"{sign}{k}"
    whole, frac = divmod(k, scale)
    return f"{sign}{whole}.{frac:0{digits}d}"


def _certified_digits(x, scale: int):
    """round(x·scale) half away from zero when the float interval of x decides it, else None.

    ``x.approx()`` is (v, b) with |v - x| <= b.  The float product v·scale is off from
    x·scale by at most b·scale plus the roundings of scale (to a float) and of the
    product: a few units of |v·scale|.  When that whole interval lies inside
    (k - 1/2, k + 1/2) for the integer k nearest v·scale, x·scale rounds to k
    whichever way a tie would go; otherwise (near a rounding boundary) the caller
    decides exactly.
    """
    v, b = x.approx()
    w = v * scale
    if not abs(w) < 2.0 ** 40 or not b < 1.0:  # also catches inf and nan
        return None
    k = math.floor(w + 0.5)
    # |w - k| <= 1/2, so w - k is exact (Sterbenz; w itself when k = 0).
    d = abs(w - k)
    err = (b * scale + abs(w) * (8 * _U)) * (1 + 2 ** -20) + 2.0 ** -1000
    if d + err < 0.5 - 2.0 ** -30:
        return int(k)
    return None
