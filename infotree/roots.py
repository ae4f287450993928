"""Square roots of rationals, exactly (rpart's cross-validated standard error, xstd)."""

from __future__ import annotations

import math
from fractions import Fraction

from .exact import _U, _as_fraction, _Ordered

__all__ = ["SquareRoot"]


class SquareRoot(_Ordered):
    """``sqrt(q)`` of a non-negative rational q, exactly: rpart's xstd is one.

    Compared exactly with rationals and with other square roots (by squaring, both
    sides being non-negative); :func:`decimal_text` rounds it exactly.
    """

    __slots__ = ("square",)

    def __init__(self, square):
        square = Fraction(square)
        if square < 0:
            raise ValueError(f"sqrt of a negative number {square}")
        self.square = square

    def compare(self, other) -> int:
        other_sq = other.square if isinstance(other, SquareRoot) else None
        if other_sq is None:
            q = _as_fraction(other)
            if q is None:
                return NotImplemented
            if q < 0:
                return 1
            other_sq = q * q
        return (self.square > other_sq) - (self.square < other_sq)

    def __eq__(self, other):
        c = self.compare(other)
        return c is not NotImplemented and c == 0

    def __hash__(self):
        return hash(("sqrt", self.square))

    def approx(self) -> tuple[float, float]:
        v = math.sqrt(float(self.square))
        # float(Fraction) and math.sqrt are each correctly rounded: two units, doubled for margin.
        return v, 4 * _U * v + 1e-300

    def __float__(self):
        return self.approx()[0]

    def rational(self) -> Fraction | None:
        """The value as a Fraction when q is the square of a rational, else None."""
        n, d = self.square.numerator, self.square.denominator
        rn, rd = math.isqrt(n), math.isqrt(d)
        return Fraction(rn, rd) if rn * rn == n and rd * rd == d else None

    def __str__(self):
        r = self.rational()
        if r is not None:
            return str(r)
        return f"sqrt({self.square})"

    def __repr__(self):
        return f"SquareRoot({str(self.square)!r})"
